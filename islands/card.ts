// Card rules of the checkout island (islands/checkout.tsx, docs/payments.md):
// brand from the number's prefix, grouping and lengths per brand, the Luhn
// check, expiry parsing and the other field checks. Pure functions with no
// DOM, so islands/card.test.ts runs them under node:test. The server checks
// the card again; these only spare the visitor a round trip.

export type Brand = "visa" | "mastercard" | "amex" | "discover" | "jcb" | "unionpay";

export type BrandInfo = {
  /** Valid numbers of digits. */
  lengths: number[];
  /** Digits per group as the number is shown ("4242 4242 4242 4242"). */
  groups: number[];
  /** Digits of the security code. */
  cvc: number;
  /** Whether the last digit is a Luhn check digit (not always for UnionPay). */
  luhn: boolean;
};

const LONG = [4, 4, 4, 4, 3];

export const BRANDS: Record<Brand, BrandInfo> = {
  visa: { lengths: [13, 16, 19], groups: LONG, cvc: 3, luhn: true },
  mastercard: { lengths: [16], groups: LONG, cvc: 3, luhn: true },
  amex: { lengths: [15], groups: [4, 6, 5], cvc: 4, luhn: true },
  discover: { lengths: [16, 17, 18, 19], groups: LONG, cvc: 3, luhn: true },
  jcb: { lengths: [16, 17, 18, 19], groups: LONG, cvc: 3, luhn: true },
  unionpay: { lengths: [16, 17, 18, 19], groups: LONG, cvc: 3, luhn: false },
};

/** A number whose brand is not (yet) known: any length a card can have. */
const UNKNOWN: BrandInfo = { lengths: [12, 13, 14, 15, 16, 17, 18, 19], groups: LONG, cvc: 3, luhn: true };

// [brand, first, last]: the number starts with a prefix from first to last,
// all of first's length. No two ranges overlap, so the order does not matter.
const PREFIXES: [Brand, number, number][] = [
  ["visa", 4, 4],
  ["mastercard", 51, 55],
  ["mastercard", 2221, 2720],
  ["amex", 34, 34],
  ["amex", 37, 37],
  ["discover", 6011, 6011],
  ["discover", 65, 65],
  ["discover", 644, 649],
  ["jcb", 3528, 3589],
  ["unionpay", 62, 62],
];

/** The ASCII digits of s. Full-width digits (typed with a Japanese, Chinese or
 * Korean input method) count as digits. */
export function onlyDigits(s: string): string {
  return s.normalize("NFKC").replace(/\D/g, "");
}

/** The brand of a (possibly partial) card number, or null while the prefix
 * does not decide it ("5", "2", "60") or matches no brand we know. */
export function detectBrand(number: string): Brand | null {
  const d = onlyDigits(number);
  for (const [brand, first, last] of PREFIXES) {
    const n = String(first).length;
    if (d.length < n) continue;
    const p = Number(d.slice(0, n));
    if (p >= first && p <= last) return brand;
  }
  return null;
}

export function brandInfo(brand: Brand | null): BrandInfo {
  return brand ? BRANDS[brand] : UNKNOWN;
}

/** The Luhn (mod 10) check of a string of digits; false for anything else. */
export function luhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let v = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
  }
  return sum % 10 === 0;
}

/** Most digits a number of this brand can have. */
export function maxDigits(brand: Brand | null): number {
  const l = brandInfo(brand).lengths;
  return l[l.length - 1];
}

/** Characters of the longest formatted number of this brand: the input's maxlength. */
export function maxFormattedLength(brand: Brand | null): number {
  return formatCardNumber("9".repeat(maxDigits(brand)), brand).length;
}

/** The number's digits in the brand's groups, cut to its longest length:
 * "4242424242424242" is "4242 4242 4242 4242", "378282246310005" is
 * "3782 822463 10005". brand defaults to the number's own. */
export function formatCardNumber(number: string, brand: Brand | null = detectBrand(number)): string {
  const d = onlyDigits(number).slice(0, maxDigits(brand));
  const out: string[] = [];
  let at = 0;
  for (const g of brandInfo(brand).groups) {
    if (at >= d.length) break;
    out.push(d.slice(at, at + g));
    at += g;
  }
  if (at < d.length) out.push(d.slice(at));
  return out.join(" ");
}

/** Where the caret goes in a formatted value so that n digits are before it. */
export function caretAfterDigits(formatted: string, n: number): number {
  if (n <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/.test(formatted[i]) && ++seen === n) return i + 1;
  }
  return formatted.length;
}

/** A whole, plausible card number: a length its brand has and, where the
 * brand uses one, a correct Luhn check digit. */
export function validCardNumber(number: string): boolean {
  const d = onlyDigits(number);
  const info = brandInfo(detectBrand(d));
  return info.lengths.includes(d.length) && (!info.luhn || luhn(d));
}

/** Digits of the security code for this brand (4 for American Express). */
export function cvcLength(brand: Brand | null): number {
  return brandInfo(brand).cvc;
}

export function validCvc(cvc: string, brand: Brand | null): boolean {
  const c = cvc.normalize("NFKC").trim();
  return /^\d+$/.test(c) && c.length === cvcLength(brand);
}

export type Expiry = { ok: true; month: number; year: number } | { ok: false; reason: "format" | "month" | "past" | "far" };

/** How many years ahead an expiry date may be; later ones are typing mistakes. */
export const MAX_YEARS_AHEAD = 20;

/**
 * Reads an expiry date: "MM / YY", "MM/YY", "M/YY", "MM-YY", "MMYY",
 * "MM/YYYY" (two-digit years are 20YY). A card is valid to the end of its
 * month, so the current month is not past. now is the visitor's clock.
 */
export function parseExpiry(input: string, now: Date = new Date()): Expiry {
  const s = input.normalize("NFKC").trim();
  const m = /^(\d{1,2})\s*[/\-.]\s*(\d{2}|\d{4})$/.exec(s) ?? /^(\d{2})(\d{2}|\d{4})$/.exec(s);
  if (!m) return { ok: false, reason: "format" };
  const month = Number(m[1]);
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (month < 1 || month > 12) return { ok: false, reason: "month" };
  const y = now.getFullYear();
  const mo = now.getMonth() + 1;
  if (year < y || (year === y && month < mo)) return { ok: false, reason: "past" };
  if (year > y + MAX_YEARS_AHEAD) return { ok: false, reason: "far" };
  return { ok: true, month, year };
}

/**
 * Formats the expiry field as it is typed: "1225" is "12 / 25", "4" is
 * "04 / " (no month starts with 4), "13" is "01 / 3", "1/" is "01 / ", a
 * pasted "12/2030" is "12 / 30". deleting (the visitor pressed Backspace)
 * leaves "12" alone rather than putting back the separator just removed.
 */
export function formatExpiry(raw: string, deleting = false): string {
  const s = raw.normalize("NFKC");
  const full = /^\s*(\d{1,2})\s*[/\-.]\s*(\d{4})\s*$/.exec(s);
  if (full) return full[1].padStart(2, "0") + " / " + full[2].slice(2);
  let d = s.replace(/\D/g, "");
  // A single month digit followed by a separator: "1/" or "1/3".
  if (/^\s*\d\s*[/\-.]/.test(s)) d = "0" + d;
  else if ((d.length > 0 && d[0] > "1") || /^1[3-9]/.test(d)) d = "0" + d;
  d = d.slice(0, 4);
  if (d.length > 2 || (d.length === 2 && !deleting)) return d.slice(0, 2) + " / " + d.slice(2);
  return d;
}

/** An e-mail address as the form takes it: something@domain.tld, no spaces. */
export function validEmail(email: string): boolean {
  const e = email.normalize("NFKC").trim();
  return e.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(e);
}

/** A postal code of any country's shape: 2 to 10 letters, digits, spaces or
 * hyphens, starting with a letter or digit. Full-width input is accepted. */
export function normalizePostal(postal: string): string {
  return postal.normalize("NFKC").replace(/[‐‑‒–—―ー−]/g, "-").trim().toUpperCase();
}

export function validPostal(postal: string): boolean {
  return /^[A-Z0-9][A-Z0-9 -]{1,9}$/.test(normalizePostal(postal));
}

/** The card form's fields as typed. */
export type CardValues = { email: string; number: string; expiry: string; cvc: string; name: string; postal: string };

/**
 * What the form keeps after the bank declined the card: the buyer's e-mail,
 * name and postal code, so that another card is quick to enter. The card's
 * own details (number, expiry, security code) are emptied: they are never
 * kept beyond the attempt they were typed for.
 */
export function keptAfterDecline(v: CardValues): CardValues {
  return { email: v.email, name: v.name, postal: v.postal, number: "", expiry: "", cvc: "" };
}
