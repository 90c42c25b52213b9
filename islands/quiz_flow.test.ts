// Checks the exam-dependent rules of the question flow (quiz_flow.ts) on the
// shapes of the three exams: the 16-type test (120 statements in pages of 5,
// three parts, two tips), the PHQ-9 (9 items, one part, a stem) and the K10
// (10 items in pages of 5, one part). Run by `npm test` (islands/test.mjs).
// No @types/node: see money.test.ts for why the node: imports are untyped.

// @ts-expect-error TS2307: no @types/node (see money.test.ts)
import { test as untypedTest } from "node:test";
// @ts-expect-error TS2307: no @types/node (see money.test.ts)
import untypedAssert from "node:assert/strict";

import { calcMillis, introOf, tipAfter, type ExamTexts, type Paging, type Scale } from "./quiz_flow";

const test = untypedTest as (name: string, fn: () => void) => void;
const assert = untypedAssert as {
  equal(actual: unknown, expected: unknown, message?: string): void;
  deepEqual(actual: unknown, expected: unknown, message?: string): void;
};

const ALMOST = 10;
const tip = (n: number) => ({ title: `Part ${n} done`, text: "t", hint: "h" });

const mbti: ExamTexts = {
  title: "16-type personality test",
  intro: "Rate how accurately each statement describes you.",
  tips: [tip(1), tip(2)],
  calcText: "Scoring the five traits",
  meters: ["Neuroticism", "Extraversion", "Openness", "Agreeableness", "Conscientiousness"],
  includes: ["a", "b", "c", "d"],
};
const deps: ExamTexts = {
  title: "Depression screen (PHQ-9)",
  notice: "This is a screen, not a diagnosis.",
  tips: null,
  calcText: "We’re scoring your answers.",
  meters: null,
  includes: ["a", "b", "c", "d"],
};

/** Every page the visitor leaves forwards, with the tip that follows it. */
function tipsOf(g: Paging, texts: ExamTexts): Record<number, number | "almost"> {
  const out: Record<number, number | "almost"> = {};
  for (let p = 0; p < Math.ceil(g.total / g.pageSize) - 1; p++) {
    const t = tipAfter(p, g, texts.tips, ALMOST);
    if (t !== null) out[p] = t;
  }
  return out;
}

test("the 16-type test shows its two part tips and the almost-done tip", () => {
  // Part 1 ends with statement 40 (page 8), part 2 with 80 (page 16); the
  // last ten statements begin on page 22 (111-115).
  assert.deepEqual(tipsOf({ total: 120, pageSize: 5, parts: 3 }, mbti), { 7: 0, 15: 1, 21: "almost" });
});

test("an exam of one part shows no tip between parts", () => {
  assert.deepEqual(tipsOf({ total: 9, pageSize: 9, parts: 1 }, deps), {});
  assert.deepEqual(tipsOf({ total: 9, pageSize: 3, parts: 1 }, deps), {});
  assert.deepEqual(tipsOf({ total: 10, pageSize: 5, parts: 1 }, deps), {});
  // Even with tips in its texts, one part has no boundary to show them at.
  assert.deepEqual(tipsOf({ total: 30, pageSize: 5, parts: 1 }, mbti), { 3: "almost" });
});

test("a part without its tip in the exam's texts shows none", () => {
  assert.deepEqual(tipsOf({ total: 120, pageSize: 5, parts: 3 }, { ...mbti, tips: [tip(1)] }), { 7: 0, 21: "almost" });
});

test("the stem of the scale comes before the exam's intro", () => {
  const ipip: Scale = { min: 1, max: 5, labels: ["1", "2", "3", "4", "5"] };
  const phq: Scale = { min: 0, max: 3, labels: ["0", "1", "2", "3"], stem: "Over the last 2 weeks…" };
  assert.equal(introOf(mbti, ipip), mbti.intro);
  assert.equal(introOf(deps, phq), "Over the last 2 weeks…");
  assert.equal(introOf(deps, ipip), "");
});

test("the calculating screen waits for its meters, briefly without any", () => {
  assert.equal(calcMillis(mbti.meters?.length ?? 0, 500, false), 2800);
  assert.equal(calcMillis(deps.meters?.length ?? 0, 500, false), 1200);
  assert.equal(calcMillis(5, 500, true), 0);
});
