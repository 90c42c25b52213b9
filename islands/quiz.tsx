// The question flow of every exam (docs/quiz-island.md). The server renders
// the first page of statements into #quiz-island; this island mounts into the
// same container with the same markup (static/css/quiz.css documents it), then
// pages through the statements, shows the tips between parts, keeps the
// answers in localStorage and posts them on the calculating screen. Answers
// are the instrument's scale (props.scale: values, labels, stem), or a
// Choice item's own options. What differs between exams (title, intro, the
// screen note, the tips, the calculating screen, the storage key) comes in
// the props (props.texts, props.storageKey): no exam is named here.
import { useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { readProps, postJSON, format, type Messages } from "./props";
import { calcMillis, introOf, tipAfter, type ExamTexts, type Scale } from "./quiz_flow";

type Option = { value: number; label: string; picture?: string };
type Question = { id: string; text: string; kind: "likert" | "choice"; options?: Option[] };

type Props = {
  examId: number;
  code: string;
  version: string;
  questions: Question[];
  scale: Scale;
  parts: number;
  pageSize: number;
  submitUrl: string;
  submittedUrl: string;
  csrf: string;
  storageKey: string;
  edit: boolean;
  /** The exam's own words (quiz.exam_<report>). */
  texts: ExamTexts;
  /** The flow's shared words (quiz.*), keyed without the prefix. */
  messages: Messages;
};

type Answers = Record<string, number>;

/** The localStorage entry of the contract; page is 1-based. */
type Saved = { v: 1; answers: Answers; page: number; startedAt?: number; expiresAt: number; resultId?: string };

/** A part's tip (index into texts.tips) or the "almost done" one. */
type Tip = number | "almost";
type Screen = "questions" | "tip" | "calculating";

const YEAR_MS = 365 * 24 * 3600 * 1000;
const ALMOST_LEFT = 10;
const METER_MS = 500;

const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

function load(key: string): Saved | null {
  try {
    const s = JSON.parse(localStorage.getItem(key) || "null") as Saved | null;
    if (!s || s.v !== 1 || !(s.expiresAt > Date.now()) || typeof s.answers !== "object" || !s.answers) return null;
    return s;
  } catch {
    return null;
  }
}

function store(key: string, s: Omit<Saved, "v" | "expiresAt">) {
  try {
    localStorage.setItem(key, JSON.stringify({ v: 1, ...s, expiresAt: Date.now() + YEAR_MS }));
  } catch {
    // Private mode or a full quota: the test still works, only without resume.
  }
}

/** The answers a question offers: a Choice item's own, or the scale's. */
function optionsOf(q: Question, scale: Scale): Option[] {
  if (q.kind === "choice") return q.options ?? [];
  return scale.labels.map((label, i) => ({ value: scale.min + i, label }));
}

const offers = (q: Question, scale: Scale, v: unknown): v is number =>
  Number.isInteger(v) && optionsOf(q, scale).some((o) => o.value === v);

const isAnswered = (answers: Answers, id: string) => answers[id] !== undefined;

/** Where the visitor starts: stored answers (unless that test was already
 * submitted and this is not an edit), plus anything clicked before mounting. */
function initial(props: Props, early: Answers) {
  const saved = load(props.storageKey);
  const usable = saved && (props.edit || !saved.resultId) ? saved : null;
  const answers: Answers = {};
  for (const q of props.questions) {
    const v = early[q.id] ?? usable?.answers[q.id];
    if (offers(q, props.scale, v)) answers[q.id] = v;
  }
  const firstOpen = props.questions.findIndex((q) => !isAnswered(answers, q.id));
  const lastPage = Math.ceil(props.questions.length / props.pageSize) - 1;
  let page = 0;
  if (usable && !props.edit) {
    page = Math.max(0, Math.min(lastPage, Math.round(usable.page) - 1 || 0));
    if (firstOpen >= 0) page = Math.min(page, Math.floor(firstOpen / props.pageSize));
  }
  const hasEarly = Object.keys(early).length > 0;
  return {
    answers,
    page,
    resumed: !props.edit && !!usable && Object.keys(usable.answers).length > 0,
    startedAt: usable?.startedAt ?? (hasEarly ? Date.now() : undefined),
    resultId: usable?.resultId,
    hasEarly,
  };
}

function Check() {
  return (
    <svg className="quiz-tip-icon" viewBox="0 0 48 48" width="48" height="48" aria-hidden="true">
      <circle cx="24" cy="24" r="24" />
      <path d="M14 25l7 7 13-15" />
    </svg>
  );
}

function Quiz({ props, early }: { props: Props; early: Answers }) {
  const t = props.messages;
  const x = props.texts;
  const qs = props.questions;
  const total = qs.length;
  const size = props.pageSize;
  const pages = Math.ceil(total / size);
  const partSize = Math.ceil(total / props.parts);

  const [init] = useState(() => initial(props, early));
  const [answers, setAnswers] = useState(init.answers);
  const [page, setPage] = useState(init.page);
  const [screen, setScreen] = useState<Screen>("questions");
  const [tip, setTip] = useState<Tip>("almost");
  const [notice, setNotice] = useState<"resume_notice" | "edit_notice" | null>(
    props.edit ? "edit_notice" : init.resumed ? "resume_notice" : null,
  );
  const [error, setError] = useState("");
  const [leaving, setLeaving] = useState(false);

  const startedAt = useRef(init.startedAt);
  const resultId = useRef(init.resultId);
  const furthest = useRef(init.page);
  const heading = useRef<HTMLHeadingElement>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  const focusHeading = useRef(false);
  const focusAfter = useRef<{ id: string; smooth: boolean } | null>(null);
  const pointerAt = useRef(0);
  const submitting = useRef(false);
  const animation = useRef<Promise<void> | null>(null);

  const start = page * size;
  const onPage = qs.slice(start, start + size);
  const answered = qs.reduce((n, q) => n + (isAnswered(answers, q.id) ? 1 : 0), 0);
  const open = onPage.findIndex((q) => !isAnswered(answers, q.id));
  const pageDone = open < 0;
  const current = start + (pageDone ? onPage.length : open + 1);
  const last = page === pages - 1;

  const persist = (a: Answers, p: number) =>
    store(props.storageKey, { answers: a, page: p + 1, startedAt: startedAt.current, resultId: resultId.current });

  // Answers clicked on the server-rendered page before mounting are saved once.
  useEffect(() => {
    if (init.hasEarly) persist(init.answers, init.page);
  }, [init]);

  // Focus after a render: the new screen's heading (so screen readers hear
  // the change), or the next statement to answer, or Next when all are done.
  useEffect(() => {
    if (focusHeading.current && heading.current) {
      focusHeading.current = false;
      heading.current.focus({ preventScroll: true });
      const top = (document.getElementById("quiz-island")?.getBoundingClientRect().top ?? 0) + scrollY - 72;
      scrollTo({ top: Math.max(0, top), behavior: "instant" });
    }
    if (focusAfter.current !== null) {
      const { id, smooth } = focusAfter.current;
      focusAfter.current = null;
      const el = id
        ? document.querySelector<HTMLElement>(`fieldset[data-id="${CSS.escape(id)}"]`)
        : nextButton.current;
      if (!el) return;
      el.focus({ preventScroll: true });
      const r = el.getBoundingClientRect();
      if (r.top < 72 || r.bottom > innerHeight) el.scrollIntoView({ block: id ? "center" : "nearest", behavior: smooth ? "smooth" : "auto" });
    }
  });

  /** Records an answer; after a key or a tap (not arrow keys in the group)
   * focus moves on to the next open statement, or to Next. A tap scrolls
   * smoothly; a key does not, so a quick Enter is not overtaken by it. */
  function choose(id: string, v: number, via: "key" | "pointer" | null) {
    const a = { ...answers, [id]: v };
    startedAt.current ??= Date.now();
    setAnswers(a);
    persist(a, page);
    if (!via) return;
    const i = onPage.findIndex((q) => q.id === id);
    const rest = [...onPage.slice(i + 1), ...onPage.slice(0, i)];
    focusAfter.current = { id: rest.find((q) => !isAnswered(a, q.id))?.id ?? "", smooth: via === "pointer" && !reducedMotion() };
  }

  function go(p: number, next: Screen = "questions") {
    setPage(p);
    setScreen(next);
    if (notice === "resume_notice") setNotice(null);
    persist(answers, p);
    focusHeading.current = true;
  }

  function next() {
    if (!pageDone || submitting.current) return;
    if (last) return calculate();
    const p = page + 1;
    const shown = !props.edit && p > furthest.current ? tipAfter(page, { total, pageSize: size, parts: props.parts }, x.tips, ALMOST_LEFT) : null;
    furthest.current = Math.max(furthest.current, p);
    if (shown !== null) setTip(shown);
    go(p, shown !== null ? "tip" : "questions");
  }

  function calculate() {
    if (answered < total) return;
    setScreen("calculating");
    focusHeading.current = true;
    animation.current ??= new Promise((done) => setTimeout(done, calcMillis(x.meters?.length ?? 0, METER_MS, reducedMotion())));
    void submit();
  }

  async function submit() {
    if (submitting.current) return;
    submitting.current = true;
    setError("");
    const now = Date.now();
    const body = {
      examId: props.examId,
      code: props.code,
      version: props.version,
      answers: qs.map((q) => ({ id: q.id, value: answers[q.id] })),
      durationSeconds: Math.min(86400, Math.max(0, Math.round((now - (startedAt.current ?? now)) / 1000))),
    };
    try {
      const data = await postJSON<{ resultId?: string } | null>(props.submitUrl, body, props.csrf);
      if (!data?.resultId) throw new Error("");
      resultId.current = data.resultId;
      persist(answers, page);
      await animation.current;
      setLeaving(true);
      const sep = props.submittedUrl.includes("?") ? "&" : "?";
      location.assign(props.submittedUrl + sep + "r=" + encodeURIComponent(data.resultId));
    } catch (e) {
      // fetch rejects with a TypeError when the request never got an answer;
      // postJSON falls back to "HTTP <status>" when the body was not our envelope.
      const msg = e instanceof Error ? e.message : "";
      setError(e instanceof TypeError || !navigator.onLine ? t.error_network : msg && !/^HTTP \d+$/.test(msg) ? msg : t.error_generic);
      submitting.current = false;
    }
  }

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.altKey || e.ctrlKey || e.metaKey || e.repeat || e.defaultPrevented) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest("input:not([type=radio]), textarea, select, [contenteditable], [role=dialog]")) return;
      if (screen === "questions" && /^[0-9]$/.test(e.key)) {
        const group = target?.closest<HTMLElement>("fieldset[data-id]");
        const q = onPage.find((x) => x.id === group?.dataset.id) ?? onPage[open];
        if (!q || !offers(q, props.scale, Number(e.key))) return;
        e.preventDefault();
        choose(q.id, Number(e.key), "key");
      } else if (e.key === "Enter" && !target?.closest("button, a")) {
        if (screen === "questions" && pageDone) {
          e.preventDefault();
          next();
        } else if (screen === "tip") {
          e.preventDefault();
          go(page);
        }
      }
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });

  const progress = (
    <div className="quiz-progress" data-testid="quiz-progress">
      {screen === "questions" && (
        <h2 className="quiz-status" ref={heading} tabIndex={-1}>
          {props.parts > 1 && (
            <>
              <span>{format(t.part, { Part: Math.floor(start / partSize) + 1, Parts: props.parts })}</span>{" "}
            </>
          )}
          <span>{format(t.progress, { Current: current, Total: total })}</span>
        </h2>
      )}
      <div
        className="quiz-bar"
        role="progressbar"
        aria-label={t.progress_label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={answered}
        aria-valuetext={format(t.answered, { Answered: answered, Total: total })}
      >
        <div className="quiz-bar-fill" style={{ transform: `scaleX(${answered / total})` }} />
      </div>
    </div>
  );

  if (screen === "calculating") {
    return (
      <>
        <h1 className="quiz-title">{x.title}</h1>
        <section className="quiz-card quiz-calc" data-testid="quiz-calculating" aria-labelledby="quiz-calc-title">
          <h2 id="quiz-calc-title" ref={heading} tabIndex={-1}>
            {t.calc_title}
          </h2>
          <p className="quiz-calc-text">{x.calcText}</p>
          {error && (
            <div className="quiz-error" role="alert" data-testid="quiz-error">
              <p>{error}</p>
              <div className="quiz-nav">
                <button type="button" className="btn btn-secondary" onClick={() => go(pages - 1)}>
                  {t.review}
                </button>
                <button type="button" className="btn btn-primary" data-testid="quiz-retry" onClick={() => void submit()}>
                  {t.retry}
                </button>
              </div>
            </div>
          )}
          {!!x.meters?.length && (
            <ul className="quiz-meters" data-testid="quiz-meters">
              {x.meters.map((m) => (
                <li className="quiz-meter" key={m}>
                  <span>{m}</span>
                  <span className="quiz-meter-track" aria-hidden="true">
                    <span className="quiz-meter-fill" />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {!!x.includes?.length && (
            <>
              <h3 className="quiz-includes-title">{t.includes_title}</h3>
              <ul className="quiz-includes" data-testid="quiz-includes">
                {x.includes.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </>
          )}
          <p className="quiz-calc-status" role="status">
            {!error && (leaving ? t.opening : t.saving)}
          </p>
        </section>
      </>
    );
  }

  if (screen === "tip") {
    const shown = tip === "almost" ? { title: t.almost_title, text: t.almost_text, hint: t.almost_hint } : x.tips?.[tip];
    return (
      <>
        <h1 className="quiz-title">{x.title}</h1>
        {progress}
        <section className="quiz-card quiz-tip" data-testid="quiz-tip" aria-labelledby="quiz-tip-title">
          <Check />
          <h2 id="quiz-tip-title" ref={heading} tabIndex={-1}>
            {shown?.title}
          </h2>
          <p className="quiz-tip-text">{shown?.text}</p>
          <p className="quiz-tip-hint">{shown?.hint}</p>
          <button type="button" className="btn btn-primary" data-testid="quiz-tip-continue" onClick={() => go(page)}>
            {t.continue}
          </button>
        </section>
      </>
    );
  }

  return (
    <>
      <h1 className="quiz-title">{x.title}</h1>
      {x.notice && page === 0 && (
        <p className="quiz-screen-note" data-testid="quiz-screen-note">
          {x.notice}
        </p>
      )}
      <p className="quiz-intro">{introOf(x, props.scale)}</p>
      {notice && (
        <div className="quiz-notice" role="status" data-testid="quiz-notice">
          <p>{t[notice]}</p>
          <button type="button" className="quiz-notice-close" aria-label={t.dismiss} onClick={() => setNotice(null)}>
            ×
          </button>
        </div>
      )}
      {progress}
      <form
        className="quiz-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          next();
        }}
      >
        {onPage.map((q, i) => {
          const options = optionsOf(q, props.scale);
          return (
            <fieldset
              key={q.id}
              className="quiz-statement"
              data-testid="quiz-statement"
              data-id={q.id}
              data-answered={isAnswered(answers, q.id) ? "" : undefined}
              tabIndex={-1}
              onPointerDown={() => (pointerAt.current = Date.now())}
            >
              <legend className="quiz-legend">
                <span className="quiz-num">{start + i + 1}</span> {q.text}
              </legend>
              <div className="quiz-scale" data-options={options.length} data-frequency={props.scale.frequency ? "" : undefined}>
                {options.map((o) => (
                  <label className="quiz-option" key={o.value}>
                    <input
                      className="quiz-radio"
                      type="radio"
                      name={q.id}
                      value={o.value}
                      checked={answers[q.id] === o.value}
                      onChange={() => choose(q.id, o.value, Date.now() - pointerAt.current < 3000 ? "pointer" : null)}
                    />
                    <span className="quiz-label">{o.label}</span>
                  </label>
                ))}
              </div>
              {options.length > 0 && (
                <div className="quiz-ends" aria-hidden="true">
                  <span>{options[0].label}</span>
                  <span>{options[options.length - 1].label}</span>
                </div>
              )}
            </fieldset>
          );
        })}
        <p className="quiz-hint">{format(t.keyboard_hint, { First: props.scale.min, Last: props.scale.max })}</p>
        <div className="quiz-nav">
          <button type="button" className="btn btn-secondary" data-testid="quiz-back" disabled={page === 0} onClick={() => go(page - 1)}>
            {t.back}
          </button>
          <button type="submit" className="btn btn-primary" data-testid="quiz-next" disabled={!pageDone} ref={nextButton}>
            {last ? t.finish : t.next}
          </button>
        </div>
        {props.edit && !last && answered === total && (
          <button type="button" className="btn-link quiz-save" data-testid="quiz-save" onClick={calculate}>
            {t.save_changes}
          </button>
        )}
      </form>
    </>
  );
}

const host = document.getElementById("quiz-island");
if (host) {
  const props = readProps<Props>("quiz-props");
  // Keep what was clicked on the server-rendered page before the island loaded.
  const early: Answers = {};
  host.querySelectorAll<HTMLInputElement>("input[type=radio]:checked").forEach((r) => (early[r.name] = Number(r.value)));
  createRoot(host).render(<Quiz props={props} early={early} />);
}
