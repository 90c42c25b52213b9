// The exam-dependent rules of the question flow (islands/quiz.tsx), kept
// apart from React so `npm test` can check them (quiz_flow.test.ts). Nothing
// here names an exam: what differs between exams arrives in the props (the
// paging, the scale, and the exam's own texts from quiz.exam_<report>).

/** A tip shown after a part: its heading, a line of praise and a hint. */
export type PartTip = { title: string; text: string; hint: string };

/** The exam's own words (views.QuizTexts): title, intro, the screen note,
 * the tips after parts 1, 2, …, and the calculating screen's text, trait
 * meters (none for a screen) and what the report includes. */
export type ExamTexts = {
  title: string;
  intro?: string;
  notice?: string;
  tips: PartTip[] | null;
  calcText: string;
  meters: string[] | null;
  includes: string[] | null;
};

/** The instrument's answer scale in the page's locale (exam.Scale). */
export type Scale = { min: number; max: number; labels: string[]; stem?: string; frequency?: boolean };

/** The paging of an exam: items, items a page, parts of equal length. */
export type Paging = { total: number; pageSize: number; parts: number };

/** What follows page p (0-based) when the visitor moves forwards: the tip of
 * the part just finished (index into tips), "almost" when the last few
 * statements begin, or null. One part has no tip between parts, and a part
 * whose exam has no tip for it shows none. */
export function tipAfter(p: number, g: Paging, tips: PartTip[] | null, almostLeft: number): number | "almost" | null {
  const partSize = Math.ceil(g.total / g.parts);
  const from = p * g.pageSize;
  const to = Math.min(from + g.pageSize, g.total);
  const boundary = Math.floor(to / partSize) * partSize;
  if (g.parts > 1 && boundary > from && boundary < g.total) {
    const i = boundary / partSize - 1;
    if (tips?.[i]) return i;
  }
  if (from < g.total - almostLeft && to >= g.total - almostLeft) return "almost";
  return null;
}

/** The words above the first statement: the scale's stem when the
 * instrument has one (it completes each item), else the exam's intro. */
export function introOf(texts: ExamTexts, scale: Scale): string {
  return scale.stem || texts.intro || "";
}

/** How long the calculating screen stays at least, so its meters can fill
 * one after another (meterMs each); a screen without meters waits briefly. */
export function calcMillis(meters: number, meterMs: number, reducedMotion: boolean): number {
  if (reducedMotion) return 0;
  return Math.max(1200, meterMs * meters + 300);
}
