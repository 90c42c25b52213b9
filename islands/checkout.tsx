// The card form of the payment page (docs/payments.md). The server renders a
// static copy of the form into #checkout-island (static/css/checkout.css
// documents it); this island mounts over it with the same markup, keeps what
// was typed before it loaded, checks the fields in the browser (islands/card.ts)
// and pays: create the order's payment attempt, then, with the sandbox
// provider, confirm it with the card, and follow the outcome (the check page,
// the 3-D Secure step, or a decline the visitor can fix and pay again). With
// the stripe provider it shows Stripe's Payment Element instead.
// The card's details live only in this component's state and the confirm
// request; nothing is stored or logged.
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FocusEvent,
  type FormEvent,
  type InputHTMLAttributes,
} from "react";
import { createRoot } from "react-dom/client";
import type { Stripe, StripeElementLocale, StripeElements } from "@stripe/stripe-js";
import { readProps, postJSON, format, type Messages } from "./props";
import {
  caretAfterDigits,
  cvcLength,
  detectBrand,
  formatCardNumber,
  formatExpiry,
  keptAfterDecline,
  maxFormattedLength,
  normalizePostal,
  onlyDigits,
  parseExpiry,
  validCardNumber,
  validCvc,
  validEmail,
  validPostal,
} from "./card";

type Props = {
  orderNumber: string;
  skuId: string;
  email: string;
  totalDisplay: string;
  provider: string;
  csrf: string;
  createUrl: string;
  confirmUrl: string;
  checkUrl: string;
  failedUrl: string;
  messages: Messages;
  /** False where the buyer's country has no postal codes: the field is not shown or asked for. */
  postal?: boolean;
  /** Not in the contract's props table yet: the promo code applied on the page, if the server passes it. */
  promoCode?: string;
  /** With the stripe provider: the publishable key, the Payment Element's
   * locale, and the server's price in Stripe's unit and lower-case currency. */
  publishableKey?: string;
  stripeLocale?: string;
  stripeAmount?: number;
  currency?: string;
};

type Created = { attemptId: string; provider: string; clientSecret?: string; total?: number; currency?: string };
type Confirmed = { status: string; redirect?: string };

/** The fields in page order (the order of focus on a failed submit). */
const FIELDS = ["email", "number", "expiry", "cvc", "name", "postal"] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

/** data-testid of each field (its error is "<testid>-error"). */
const TESTID: Record<Field, string> = {
  email: "card-email",
  number: "card-number",
  expiry: "card-expiry",
  cvc: "card-cvc",
  name: "card-name",
  postal: "card-postal",
};
const id = (f: Field) => `checkout-${f}`;
const errorId = (f: Field) => `checkout-${f}-error`;

type Phase = "idle" | "creating" | "confirming" | "redirecting" | "succeeded";
type Failure = { kind: "declined" | "server" | "network"; text: string };

const BRAND_KEYS = { visa: "brand_visa", mastercard: "brand_mastercard", amex: "brand_amex", discover: "brand_discover", jcb: "brand_jcb", unionpay: "brand_unionpay" };

/** The message for a field's value, or "" when it is fine. The postal
 * code is not asked for where the buyer's country has none. */
function check(f: Field, v: Values, t: Messages, needPostal: boolean): string {
  if (f === "postal" && !needPostal) return "";
  const value = v[f].trim();
  if (!value) return t.required;
  switch (f) {
    case "email":
      return validEmail(value) ? "" : t.invalid_email;
    case "number":
      return validCardNumber(value) ? "" : t.invalid_number;
    case "expiry": {
      const e = parseExpiry(value);
      return e.ok ? "" : e.reason === "past" ? t.expired : t.invalid_expiry;
    }
    case "cvc": {
      const brand = detectBrand(v.number);
      return validCvc(value, brand) ? "" : format(t.invalid_cvc, { Digits: cvcLength(brand) });
    }
    case "postal":
      return validPostal(value) ? "" : t.invalid_postal;
    default:
      return "";
  }
}

/** Only http(s) URLs are followed: a redirect is never a javascript: URL. */
function safeURL(u: string | undefined): string | null {
  if (!u) return null;
  try {
    const url = new URL(u, location.href);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

function Lock() {
  return (
    <svg className="checkout-lock" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <rect x="2.5" y="7" width="11" height="7.5" rx="1.5" />
      <path d="M5 7V5a3 3 0 0 1 6 0v2" />
    </svg>
  );
}

/**
 * Stripe's Payment Element, with the payment made only on Pay (Stripe's
 * deferred-intent flow): the element shows the server's price, Pay checks
 * the fields, our server creates and prices the PaymentIntent, and Stripe
 * confirms it. Stripe.js loads only now; the card never touches our pages.
 * Stripe redirects to the status check, which follows the webhook's verdict.
 */
/** Tells the consented ad pixels, if any, that payment details were given. */
function reportPaymentInfo() {
  document.dispatchEvent(new CustomEvent("selfmap:ad", { detail: { name: "add_payment_info" } }));
}

function StripeCheckout({ props, email }: { props: Props; email: string }) {
  const t = props.messages;
  const mount = useRef<HTMLDivElement>(null);
  const ready = useRef<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [phase, setPhase] = useState<"loading" | "ready" | "paying" | "failed">("loading");
  const [error, setError] = useState("");

  useEffect(() => {
    let gone = false;
    (async () => {
      try {
        if (!props.publishableKey || !props.stripeAmount || !props.currency) throw new Error(t.stripe_failed);
        const { loadStripe } = await import("@stripe/stripe-js/pure");
        const stripe = await loadStripe(props.publishableKey);
        if (!stripe) throw new Error(t.stripe_failed);
        if (gone || !mount.current) return;
        const elements = stripe.elements({
          mode: "payment",
          amount: props.stripeAmount,
          currency: props.currency,
          allowedPaymentMethodTypes: ["card"],
          locale: (props.stripeLocale ?? "auto") as StripeElementLocale,
        });
        const element = elements.create("payment", { defaultValues: { billingDetails: { email } } });
        element.on("ready", () => setPhase("ready"));
        element.on("loaderror", () => {
          setError(t.stripe_failed);
          setPhase("failed");
        });
        element.mount(mount.current);
        ready.current = { stripe, elements };
      } catch (e) {
        if (gone) return;
        setError(e instanceof Error && e.message ? e.message : t.stripe_failed);
        setPhase("failed");
      }
    })();
    return () => {
      gone = true;
    };
    // The element is made once per page view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function pay(e: FormEvent) {
    e.preventDefault();
    const r = ready.current;
    if (!r || phase !== "ready") return;
    setPhase("paying");
    setError("");
    reportPaymentInfo();
    try {
      const checked = await r.elements.submit();
      if (checked.error) {
        setError(checked.error.message || t.failed_generic);
        setPhase("ready");
        return;
      }
      let created: Created | null;
      try {
        created = await postJSON<Created | null>(
          props.createUrl,
          { orderNumber: props.orderNumber, skuId: props.skuId, email: email.normalize("NFKC").trim(), promoCode: props.promoCode ?? "" },
          props.csrf,
        );
      } catch (err) {
        setError(err instanceof Error && err.message && !/^HTTP \d+$/.test(err.message) ? err.message : t.create_failed);
        setPhase("ready");
        return;
      }
      if (!created?.clientSecret) throw new Error("");
      const { error: failed } = await r.stripe.confirmPayment({
        elements: r.elements,
        clientSecret: created.clientSecret,
        confirmParams: { return_url: new URL(props.checkUrl, location.href).href },
      });
      // confirmPayment only returns on an error; success leaves the page.
      // Card and field errors are Stripe's own words, in the page's locale.
      const own = failed && (failed.type === "card_error" || failed.type === "validation_error");
      setError(own && failed.message ? failed.message : t.failed_generic);
    } catch (err) {
      setError(err instanceof TypeError || !navigator.onLine ? t.network : t.failed_generic);
    }
    setPhase("ready");
  }

  return (
    <div className="checkout">
      <h2 className="checkout-title">
        <Lock /> {t.title}
      </h2>
      <form className="checkout-form" onSubmit={pay} noValidate>
        <div className="checkout-stripe" data-testid="stripe-element" aria-busy={phase === "loading"} ref={mount}>
          {phase === "loading" && (
            <p className="checkout-hint" role="status">
              {t.stripe_loading}
            </p>
          )}
        </div>
        {error && (
          <div className="checkout-alert" role="alert" data-testid="pay-error">
            <p>{error}</p>
            {phase === "failed" && (
              <button type="button" className="btn btn-secondary" onClick={() => location.reload()}>
                {t.stripe_refresh}
              </button>
            )}
          </div>
        )}
        <button type="submit" className="btn btn-primary btn-block checkout-pay" disabled={phase !== "ready"} data-testid="pay-button">
          {phase === "paying" ? t.processing : format(t.pay, { Total: props.totalDisplay })}
        </button>
        <a className="btn btn-secondary" href={props.failedUrl} data-testid="other-method">
          {t.other_method}
        </a>
      </form>
    </div>
  );
}

function Checkout({ props, early, focus }: { props: Props; early: Partial<Values>; focus: Field | null }) {
  const t = props.messages;
  const [values, setValues] = useState<Values>(() => ({
    email: early.email ?? props.email ?? "",
    number: formatCardNumber(early.number ?? ""),
    expiry: formatExpiry(early.expiry ?? "", true),
    cvc: onlyDigits(early.cvc ?? "").slice(0, 4),
    name: early.name ?? "",
    postal: early.postal ?? "",
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [phase, setPhase] = useState<Phase>("idle");
  const [failure, setFailure] = useState<Failure | null>(null);
  const [stripe, setStripe] = useState(props.provider === "stripe");

  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const edited = useRef(new Set<Field>());
  const caret = useRef<{ f: Field; at: number } | null>(null);
  const busy = useRef(false);
  const alertBox = useRef<HTMLDivElement>(null);
  const focusAlert = useRef(false);

  const brand = detectBrand(values.number);
  const working = phase !== "idle";
  const cardComplete =
    validCardNumber(values.number) && parseExpiry(values.expiry).ok && validCvc(values.cvc, brand);

  // The field that had focus in the server's copy keeps it, caret at the end.
  useEffect(() => {
    const el = focus && inputs.current[focus];
    if (!el) return;
    el.focus({ preventScroll: true });
    try {
      el.setSelectionRange(el.value.length, el.value.length);
    } catch {
      // type=email has no selection API; the caret stays where focus put it.
    }
  }, []);

  // The caret of a reformatted field stays after the same digits.
  useLayoutEffect(() => {
    const c = caret.current;
    if (!c) return;
    caret.current = null;
    const el = inputs.current[c.f];
    if (el && document.activeElement === el) el.setSelectionRange(c.at, c.at);
  });

  // Back from the 3-D Secure page through the browser's history cache: the
  // page comes back as it was left, mid-payment; make the form usable again.
  useEffect(() => {
    function onShow(e: PageTransitionEvent) {
      if (!e.persisted) return;
      busy.current = false;
      setPhase("idle");
    }
    addEventListener("pageshow", onShow);
    return () => removeEventListener("pageshow", onShow);
  }, []);

  /** Sets a field; an error already shown goes as soon as the value is fine
   * (a change of card number can also settle the security code's). */
  function update(f: Field, value: string) {
    const next = { ...values, [f]: value };
    edited.current.add(f);
    setValues(next);
    setErrors((errs) => {
      let changed = false;
      const out = { ...errs };
      for (const k of FIELDS) {
        if (out[k] && !check(k, next, t, props.postal !== false)) {
          delete out[k];
          changed = true;
        }
      }
      return changed ? out : errs;
    });
  }

  function onNumber(e: ChangeEvent<HTMLInputElement>) {
    const raw = e.target.value;
    const at = e.target.selectionStart ?? raw.length;
    let d = onlyDigits(raw);
    let before = onlyDigits(raw.slice(0, at)).length;
    const kind = (e.nativeEvent as InputEvent).inputType ?? "";
    const prev = onlyDigits(values.number);
    // Backspace or Delete over a space: remove the digit beyond it instead.
    if (d === prev && kind === "deleteContentBackward" && before > 0) {
      d = d.slice(0, before - 1) + d.slice(before);
      before--;
    } else if (d === prev && kind === "deleteContentForward") {
      d = d.slice(0, before) + d.slice(before + 1);
    }
    const formatted = formatCardNumber(d);
    caret.current = { f: "number", at: caretAfterDigits(formatted, before) };
    update("number", formatted);
  }

  function onExpiry(e: ChangeEvent<HTMLInputElement>) {
    const kind = (e.nativeEvent as InputEvent).inputType ?? "";
    update("expiry", formatExpiry(e.target.value, kind.startsWith("delete")));
  }

  /** On leaving a field, its message; a field left empty without ever being
   * typed in is not flagged until Pay (tabbing through is not a mistake). */
  function onBlur(e: FocusEvent<HTMLInputElement>) {
    const f = e.target.dataset.field as Field;
    if (!values[f].trim() && !edited.current.has(f)) return;
    const msg = check(f, values, t, props.postal !== false);
    setErrors((errs) => (errs[f] === msg || (!msg && !errs[f]) ? errs : { ...errs, [f]: msg || undefined }));
  }

  function fail(f: Failure) {
    busy.current = false;
    setPhase("idle");
    setFailure(f);
    focusAlert.current = true;
  }

  // After a failure has rendered: the Pay button was disabled under the
  // visitor's focus, so focus moves to the message (which role=alert also
  // announces), next to the button.
  useEffect(() => {
    const box = alertBox.current;
    if (!focusAlert.current || !failure || !box) return;
    focusAlert.current = false;
    box.focus({ preventScroll: true });
    const r = box.getBoundingClientRect();
    if (r.top < 80 || r.bottom > innerHeight) box.scrollIntoView({ block: "center" });
  }, [failure]);

  async function pay() {
    if (busy.current) return;
    const errs: Errors = {};
    for (const f of FIELDS) {
      const msg = check(f, values, t, props.postal !== false);
      if (msg) errs[f] = msg;
    }
    setErrors(errs);
    const first = FIELDS.find((f) => errs[f]);
    if (first) {
      setFailure(null);
      const el = inputs.current[first];
      if (el) {
        el.focus({ preventScroll: true });
        const field = el.closest(".checkout-field") ?? el;
        const r = field.getBoundingClientRect();
        if (r.top < 80 || r.bottom > innerHeight) field.scrollIntoView({ block: "center" });
      }
      return;
    }
    busy.current = true;
    setFailure(null);
    setPhase("creating");
    reportPaymentInfo();
    let created: Created | null = null;
    try {
      created = await postJSON<Created | null>(
        props.createUrl,
        { orderNumber: props.orderNumber, skuId: props.skuId, email: values.email.normalize("NFKC").trim(), promoCode: props.promoCode ?? "" },
        props.csrf,
      );
      if (!created?.attemptId) throw new Error("");
      if (created.provider !== "sandbox") {
        setStripe(true);
        return;
      }
      setPhase("confirming");
      const exp = parseExpiry(values.expiry);
      if (!exp.ok) throw new Error("");
      const res = await postJSON<Confirmed | null>(
        props.confirmUrl,
        {
          attemptId: created.attemptId,
          number: onlyDigits(values.number),
          expMonth: exp.month,
          expYear: exp.year,
          cvc: onlyDigits(values.cvc),
          name: values.name.trim(),
          postalCode: normalizePostal(values.postal),
        },
        props.csrf,
      );
      const redirect = safeURL(res?.redirect);
      if (res?.status === "succeeded") {
        setPhase("succeeded");
        location.assign(props.checkUrl);
      } else if (res?.status === "requires_action" && redirect) {
        setPhase("redirecting");
        location.assign(redirect);
      } else if (res?.status === "declined") {
        setValues(keptAfterDecline);
        edited.current.clear();
        fail({ kind: "declined", text: t.declined });
      } else {
        throw new Error("");
      }
    } catch (e) {
      // fetch rejects with a TypeError when the request got no answer;
      // postJSON says "HTTP <status>" when the body was not our envelope.
      const msg = e instanceof Error ? e.message : "";
      // Without a started payment, the order itself could not be created.
      const generic = created ? t.failed_generic : t.create_failed;
      if (e instanceof TypeError || !navigator.onLine) fail({ kind: "network", text: t.network });
      else fail({ kind: "server", text: msg && !/^HTTP \d+$/.test(msg) ? msg : generic });
    }
  }

  if (stripe) return <StripeCheckout props={props} email={values.email} />;

  /** A text field: label (and the brand, for the number), input, error, hint. */
  function field(
    f: Field,
    label: string,
    attrs: InputHTMLAttributes<HTMLInputElement>,
    opts: { hint?: string; brand?: boolean; className?: string } = {},
  ) {
    const err = errors[f];
    const describedBy = [err && errorId(f), opts.brand && brand && "checkout-brand", opts.hint && `${id(f)}-hint`].filter(Boolean).join(" ");
    return (
      <div className={"checkout-field" + (opts.className ? " " + opts.className : "")}>
        <div className="checkout-label">
          <label htmlFor={id(f)}>{label}</label>
          {opts.brand && (
            <span className="checkout-brand" id="checkout-brand" data-testid="card-brand" data-brand={brand ?? undefined}>
              {brand ? t[BRAND_KEYS[brand]] : ""}
            </span>
          )}
        </div>
        <input
          ref={(el) => {
            inputs.current[f] = el;
          }}
          id={id(f)}
          className="checkout-input"
          data-testid={TESTID[f]}
          data-field={f}
          type="text"
          value={values[f]}
          onChange={(e) => update(f, e.target.value)}
          onBlur={onBlur}
          readOnly={working}
          aria-required="true"
          aria-invalid={err ? true : undefined}
          aria-describedby={describedBy || undefined}
          spellCheck={false}
          {...attrs}
        />
        {err && (
          <p className="checkout-error" id={errorId(f)} data-testid={`${TESTID[f]}-error`}>
            {err}
          </p>
        )}
        {opts.hint && (
          <p className="checkout-hint" id={`${id(f)}-hint`}>
            {opts.hint}
          </p>
        )}
      </div>
    );
  }

  const status =
    phase === "creating" ? t.creating
    : phase === "confirming" ? t.confirming
    : phase === "redirecting" ? t.verifying
    : phase === "succeeded" ? t.succeeded
    : "";
  const cvcDigits = cvcLength(brand);
  // Not next to a decline: the card may be complete, it is not accepted.
  const showComplete = !working && !failure && cardComplete;

  return (
    <div className="checkout">
      <h2 className="checkout-title">
        <Lock /> {t.title}
      </h2>
      <form
        className="checkout-form"
        noValidate
        aria-busy={working || undefined}
        onSubmit={(e) => {
          e.preventDefault();
          void pay();
        }}
      >
        {field(
          "email",
          t.email,
          { type: "email", autoComplete: "email", inputMode: "email", autoCapitalize: "none", maxLength: 254 },
          { hint: t.email_hint },
        )}
        <fieldset className="checkout-card">
          <legend className="checkout-legend">{t.card_details}</legend>
          {field(
            "number",
            t.card_number,
            {
              autoComplete: "cc-number",
              inputMode: "numeric",
              autoCorrect: "off",
              placeholder: "1234 1234 1234 1234",
              maxLength: maxFormattedLength(brand),
              onChange: onNumber,
            },
            { brand: true, className: "checkout-number" },
          )}
          <div className="checkout-row">
            {field("expiry", t.expiry, {
              autoComplete: "cc-exp",
              inputMode: "numeric",
              autoCorrect: "off",
              placeholder: t.expiry_placeholder,
              maxLength: 7,
              onChange: onExpiry,
            })}
            {field(
              "cvc",
              t.cvc,
              {
                autoComplete: "cc-csc",
                inputMode: "numeric",
                autoCorrect: "off",
                placeholder: cvcDigits === 4 ? "1234" : "123",
                maxLength: cvcDigits,
                onChange: (e) => update("cvc", onlyDigits(e.target.value).slice(0, 4)),
              },
              { hint: cvcDigits === 4 ? t.cvc_hint_amex : t.cvc_hint },
            )}
          </div>
          {field("name", t.name, { autoComplete: "cc-name", autoCapitalize: "words", maxLength: 100 })}
          {props.postal !== false &&
            field("postal", t.postal_code, { autoComplete: "postal-code", autoCapitalize: "characters", maxLength: 10 }, { className: "checkout-postal" })}
        </fieldset>
        <div className="checkout-alert" role="alert" data-testid="pay-error" tabIndex={-1} ref={alertBox}>
          {failure && (
            <>
              <p>{failure.text}</p>
              {failure.kind === "network" && (
                <button type="button" className="btn btn-secondary" data-testid="pay-retry" onClick={() => void pay()}>
                  {t.retry}
                </button>
              )}
            </>
          )}
        </div>
        <button type="submit" className="btn btn-primary checkout-pay" data-testid="pay-button" disabled={working}>
          {working ? (
            <>
              <span className="checkout-spinner" aria-hidden="true" />
              {t.processing}
            </>
          ) : (
            format(t.pay, { Total: props.totalDisplay })
          )}
        </button>
        <p className="checkout-status" role="status" data-testid="pay-status" data-complete={showComplete ? "" : undefined}>
          {status || (showComplete ? t.card_complete : "")}
        </p>
        <p className="checkout-safe">
          <Lock /> {t.safe}
        </p>
      </form>
    </div>
  );
}

const host = document.getElementById("checkout-island");
if (host) {
  const props = readProps<Props>("checkout-props");
  // Keep what was typed into the server's copy before the island loaded, and
  // where the visitor was typing.
  const early: Partial<Values> = {};
  let focus: Field | null = null;
  for (const f of FIELDS) {
    const el = host.querySelector<HTMLInputElement>(`input[data-testid="${TESTID[f]}"]`);
    if (el) early[f] = el.value;
    if (el && el === document.activeElement) focus = f;
  }
  createRoot(host).render(<Checkout props={props} early={early} focus={focus} />);
}
