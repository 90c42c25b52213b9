// Checks formatMoney on the table the Go tests use
// (internal/money/testdata/cases.json). Run by `npm test` (islands/test.mjs),
// which bundles this file and sets import.meta.url to its place in islands/.
//
// The project has no @types/node and takes no new dependency for it, and an
// ambient `declare module "node:test"` is not allowed in a module file, so
// each node: import below is untyped (the expected TS2307 is suppressed) and
// immediately given the minimal type this file relies on. If @types/node is
// ever added, tsc reports the directives as unused: delete them and the casts.

// @ts-expect-error TS2307: no @types/node (see above)
import { test as untypedTest } from "node:test";
// @ts-expect-error TS2307: no @types/node (see above)
import { readFileSync as untypedReadFileSync } from "node:fs";
// @ts-expect-error TS2307: no @types/node (see above)
import untypedAssert from "node:assert/strict";

import { formatMoney } from "./money";

const test = untypedTest as (name: string, fn: () => void) => void;
const readFileSync = untypedReadFileSync as (path: URL, encoding: "utf8") => string;
const assert = untypedAssert as {
  equal(actual: unknown, expected: unknown, message?: string): void;
  ok(value: unknown, message?: string): void;
  throws(fn: () => unknown, expected?: RegExp, message?: string): void;
};

interface Case {
  amount: number;
  currency: string;
  tenths?: number; // 0 or absent: no discount
  want?: string;
  error?: boolean;
  note?: string;
}

const cases = JSON.parse(
  readFileSync(new URL("../internal/money/testdata/cases.json", import.meta.url), "utf8"),
) as Case[];

test("the shared table has at least 40 cases", () => {
  assert.ok(cases.length >= 40, `only ${cases.length} cases`);
});

for (const c of cases) {
  const tenths = c.tenths ?? 0;
  const call = `formatMoney(${c.amount}, ${JSON.stringify(c.currency)}, ${tenths})`;
  test(call, () => {
    assert.ok(Number.isSafeInteger(c.amount), "the table's amounts must be exact in JS");
    if (c.error) {
      assert.throws(() => formatMoney(c.amount, c.currency, tenths), /^Error: money: /);
      return;
    }
    assert.ok(c.want, "case has neither want nor error");
    assert.equal(formatMoney(c.amount, c.currency, tenths), c.want, c.note);
    if (tenths === 0) assert.equal(formatMoney(c.amount, c.currency), c.want, "default tenths");
  });
}

// JS-only inputs: Go's int64 and int types cannot express these.
test("formatMoney rejects amounts and discounts that are not exact integers", () => {
  assert.throws(() => formatMoney(19.99, "USD"), /amount/);
  assert.throws(() => formatMoney(Number.NaN, "USD"), /amount/);
  assert.throws(() => formatMoney(2 ** 53, "USD"), /amount/);
  assert.throws(() => formatMoney(1999, "USD", 7.5), /discount/);
});
