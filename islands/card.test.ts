// Checks the card rules of the checkout island (islands/card.ts). Run by
// `npm test` (islands/test.mjs).
//
// The project has no @types/node (see islands/money.test.ts): each node:
// import is untyped, its TS2307 suppressed, and given the minimal type used.

// @ts-expect-error TS2307: no @types/node (see islands/money.test.ts)
import { test as untypedTest } from "node:test";
// @ts-expect-error TS2307: no @types/node (see islands/money.test.ts)
import untypedAssert from "node:assert/strict";

import {
  caretAfterDigits,
  cvcLength,
  detectBrand,
  formatCardNumber,
  formatExpiry,
  keptAfterDecline,
  luhn,
  maxFormattedLength,
  parseExpiry,
  validCardNumber,
  validCvc,
  validEmail,
  validPostal,
  type Brand,
  type Expiry,
} from "./card";

const test = untypedTest as (name: string, fn: () => void) => void;
const assert = untypedAssert as {
  equal(actual: unknown, expected: unknown, message?: string): void;
  deepEqual(actual: unknown, expected: unknown, message?: string): void;
};

// The sandbox's test cards (docs/payments.md).
const SANDBOX = ["4242424242424242", "4000000000000002", "4000000000009995", "4000002760003184"];

test("Luhn accepts the four sandbox test cards", () => {
  for (const n of SANDBOX) {
    assert.equal(luhn(n), true, n);
    assert.equal(validCardNumber(n), true, n);
    assert.equal(detectBrand(n), "visa", n);
  }
});

test("Luhn accepts well-known test numbers of every brand", () => {
  for (const n of ["5555555555554444", "2223003122003222", "378282246310005", "6011111111111117", "3530111333300000", "79927398713"]) {
    assert.equal(luhn(n), true, n);
  }
});

test("Luhn rejects wrong check digits and anything but digits", () => {
  for (const n of ["4242424242424241", "4000000000000003", "4000002760003185", "1234567812345678", "79927398710"]) {
    assert.equal(luhn(n), false, n);
  }
  for (const n of ["", "4242 4242 4242 4242", "4242-4242", "abcd", "４２４２"]) {
    assert.equal(luhn(n), false, JSON.stringify(n));
  }
});

test("validCardNumber wants the brand's length and the check digit", () => {
  assert.equal(validCardNumber("4242 4242 4242 4242"), true, "spaces are ignored");
  assert.equal(validCardNumber("４２４２４２４２４２４２４２４２"), true, "full-width digits count");
  assert.equal(validCardNumber("424242424242424"), false, "15-digit Visa");
  assert.equal(validCardNumber("4242424242424241"), false, "bad check digit");
  assert.equal(validCardNumber("378282246310005"), true, "15-digit American Express");
  assert.equal(validCardNumber("3782822463100050"), false, "16-digit American Express");
  assert.equal(validCardNumber("5555555555554444"), true);
  assert.equal(validCardNumber(""), false);
  assert.equal(validCardNumber("0000"), false);
  // Some UnionPay numbers have no Luhn check digit: only the length counts.
  assert.equal(validCardNumber("6200000000000005"), true);
  assert.equal(validCardNumber("6200000000000006"), true);
  assert.equal(validCardNumber("620000000000000"), false, "15-digit UnionPay");
});

test("detectBrand reads the prefix", () => {
  const table: [string, Brand | null][] = [
    ["4", "visa"],
    ["4242424242424242", "visa"],
    ["5", null],
    ["50", null],
    ["51", "mastercard"],
    ["55", "mastercard"],
    ["56", null],
    ["2", null],
    ["222", null],
    ["2220", null],
    ["2221", "mastercard"],
    ["2720", "mastercard"],
    ["2721", null],
    ["3", null],
    ["34", "amex"],
    ["37", "amex"],
    ["35", null],
    ["36", null],
    ["3527", null],
    ["3528", "jcb"],
    ["3589", "jcb"],
    ["3590", null],
    ["6", null],
    ["60", null],
    ["6011", "discover"],
    ["6012", null],
    ["65", "discover"],
    ["643", null],
    ["644", "discover"],
    ["649", "discover"],
    ["62", "unionpay"],
    ["6200 0000", "unionpay"],
    ["", null],
    ["x", null],
    ["9", null],
  ];
  for (const [n, want] of table) assert.equal(detectBrand(n), want, JSON.stringify(n));
});

test("formatCardNumber groups by brand and cuts to its longest length", () => {
  assert.equal(formatCardNumber("4242424242424242"), "4242 4242 4242 4242");
  assert.equal(formatCardNumber("42424"), "4242 4");
  assert.equal(formatCardNumber("4242"), "4242");
  assert.equal(formatCardNumber("378282246310005"), "3782 822463 10005");
  assert.equal(formatCardNumber("3782822463100059999"), "3782 822463 10005", "American Express has 15 digits");
  assert.equal(formatCardNumber("4242424242424242424"), "4242 4242 4242 4242 424", "19-digit Visa");
  assert.equal(formatCardNumber("42424242424242424249"), "4242 4242 4242 4242 424");
  assert.equal(formatCardNumber("5555 5555-5555 4444 1"), "5555 5555 5555 4444", "Mastercard has 16 digits");
  assert.equal(formatCardNumber(""), "");
  assert.equal(maxFormattedLength("amex"), 17);
  assert.equal(maxFormattedLength("mastercard"), 19);
  assert.equal(maxFormattedLength("visa"), 23);
  assert.equal(maxFormattedLength(null), 23);
});

test("caretAfterDigits skips the spaces", () => {
  assert.equal(caretAfterDigits("4242 4242", 0), 0);
  assert.equal(caretAfterDigits("4242 4242", 4), 4);
  assert.equal(caretAfterDigits("4242 4242", 5), 6);
  assert.equal(caretAfterDigits("4242 4242", 8), 9);
  assert.equal(caretAfterDigits("4242 4242", 20), 9);
  assert.equal(caretAfterDigits("12 / 30", 3), 6);
});

test("security code: 3 digits, 4 for American Express", () => {
  assert.equal(cvcLength("visa"), 3);
  assert.equal(cvcLength("amex"), 4);
  assert.equal(cvcLength(null), 3);
  assert.equal(validCvc("123", "visa"), true);
  assert.equal(validCvc("１２３", "visa"), true);
  assert.equal(validCvc("1234", "visa"), false);
  assert.equal(validCvc("12", "mastercard"), false);
  assert.equal(validCvc("1234", "amex"), true);
  assert.equal(validCvc("123", "amex"), false);
  assert.equal(validCvc("12a", "visa"), false);
  assert.equal(validCvc("", null), false);
});

// Tuesday 15 July 2025, 10:00 local time.
const NOW = new Date(2025, 6, 15, 10);
const ok = (month: number, year: number): Expiry => ({ ok: true, month, year });
const bad = (reason: "format" | "month" | "past" | "far"): Expiry => ({ ok: false, reason });

test("parseExpiry reads the usual spellings", () => {
  const table: [string, Expiry][] = [
    ["12 / 30", ok(12, 2030)],
    ["12/30", ok(12, 2030)],
    ["1/30", ok(1, 2030)],
    ["01/30", ok(1, 2030)],
    [" 1 / 30 ", ok(1, 2030)],
    ["1230", ok(12, 2030)],
    ["12-30", ok(12, 2030)],
    ["12.30", ok(12, 2030)],
    ["12/2030", ok(12, 2030)],
    ["122030", ok(12, 2030)],
    ["１２／３０", ok(12, 2030)],
  ];
  for (const [s, want] of table) assert.deepEqual(parseExpiry(s, NOW), want, JSON.stringify(s));
});

test("parseExpiry: a card is valid to the end of its month", () => {
  assert.deepEqual(parseExpiry("07/25", NOW), ok(7, 2025), "this month");
  assert.deepEqual(parseExpiry("08/25", NOW), ok(8, 2025));
  assert.deepEqual(parseExpiry("06/25", NOW), bad("past"), "last month");
  assert.deepEqual(parseExpiry("12/24", NOW), bad("past"), "last year");
  assert.deepEqual(parseExpiry("01/2000", NOW), bad("past"));
  assert.deepEqual(parseExpiry("07/25", new Date(2025, 6, 31, 23, 59)), ok(7, 2025), "last minute of the month");
  assert.deepEqual(parseExpiry("07/25", new Date(2025, 7, 1, 0, 0)), bad("past"), "first minute of the next");
  assert.deepEqual(parseExpiry("12/45", NOW), ok(12, 2045), "20 years ahead");
  assert.deepEqual(parseExpiry("01/46", NOW), bad("far"), "more than 20 years ahead");
  assert.deepEqual(parseExpiry("12/99", NOW), bad("far"), "two-digit years are 20YY");
});

test("parseExpiry rejects garbage and impossible months", () => {
  for (const s of ["", " ", "abc", "ab/cd", "12", "12/", "/30", "1/3", "123", "12/3", "12/300", "12//30", "1a/30", "12 30 1", "12/30/40"]) {
    assert.deepEqual(parseExpiry(s, NOW), bad("format"), JSON.stringify(s));
  }
  for (const s of ["00/30", "13/30", "0/30", "99/30"]) assert.deepEqual(parseExpiry(s, NOW), bad("month"), s);
});

test("formatExpiry shapes the field as it is typed", () => {
  const table: [string, boolean, string][] = [
    ["", false, ""],
    ["1", false, "1"],
    ["0", false, "0"],
    ["12", false, "12 / "],
    ["12", true, "12"],
    ["12 /", true, "12"],
    ["12 / 3", false, "12 / 3"],
    ["12 / 30", false, "12 / 30"],
    ["12 / 301", false, "12 / 30"],
    ["1230", false, "12 / 30"],
    ["4", false, "04 / "],
    ["13", false, "01 / 3"],
    ["1/", false, "01 / "],
    ["1/3", false, "01 / 3"],
    ["1/30", false, "01 / 30"],
    ["12/2030", false, "12 / 30"],
    ["1/2030", false, "01 / 30"],
    ["ab", false, ""],
    ["１２３０", false, "12 / 30"],
  ];
  for (const [raw, deleting, want] of table) assert.equal(formatExpiry(raw, deleting), want, `${JSON.stringify(raw)} deleting=${deleting}`);
});

test("formatExpiry puts the slash in as the digits come, one keystroke at a time", () => {
  let field = "";
  for (const key of "1229") field = formatExpiry(field + key);
  assert.equal(field, "12 / 29");
  assert.equal(parseExpiry(field, NOW).ok, true);
  // Letters and punctuation typed into the field are dropped.
  assert.equal(formatExpiry("1a2b"), "12 / ");
  // Backspace over the slash leaves the month, and typing on puts it back.
  assert.equal(formatExpiry("12 /", true), "12");
  assert.equal(formatExpiry("123"), "12 / 3");
});

test("after a decline the form keeps the buyer's details, never the card's", () => {
  const typed = { email: "ana@example.com", number: "4000 0000 0000 0002", expiry: "12 / 30", cvc: "123", name: "Ana Lima", postal: "01310-100" };
  assert.deepEqual(keptAfterDecline(typed), { email: "ana@example.com", number: "", expiry: "", cvc: "", name: "Ana Lima", postal: "01310-100" });
});

test("e-mail and postal code", () => {
  for (const e of ["a@b.co", " ana.lima@example.com.br ", "x+tag@sub.example.org"]) assert.equal(validEmail(e), true, e);
  for (const e of ["", "a", "a@b", "a@b.", "a b@c.de", "@c.de", "a@@c.de", "a@.de", "a@b..de"]) assert.equal(validEmail(e), false, e);
  for (const p of ["94107", "SW1A 1AA", "k1a 0b1", "100-0001", "１００－０００１", "75008", "10115"]) assert.equal(validPostal(p), true, p);
  for (const p of ["", " ", "1", "-1234", "12345678901", "75008!", "東京"]) assert.equal(validPostal(p), false, p);
});
