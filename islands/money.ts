// Money formatting for islands. The same rules are implemented in Go
// (internal/money/money.go) and both are tested on the one table in
// internal/money/testdata/cases.json, so a price reads the same whether the
// server or an island rendered it. Intl.NumberFormat is deliberately not used:
// its output differs across browsers and ICU versions. Change a rule here, in
// money.go and in the table together.

// Shown without decimals; amounts are still in hundredths (the spec divides
// by 100 for all currencies), so these are rounded to whole units for display.
const ZERO_DECIMAL = new Set([
  "CNY", "JPY", "KRW", "INR", "THB", "VND", "IDR", "MXN",
  "RUB", "TRY", "HUF", "CLP", "COP", "TWD", "PKR", "NGN",
]);

// Written "1.234,56" rather than "1,234.56".
const COMMA_DECIMAL = new Set(["EUR", "PLN", "BRL", "DKK", "HRK"]);

// Symbol after the number, behind a no-break space so it never wraps alone.
const SUFFIX = new Set(["PLN", "DKK", "HRK"]);

// Codes not listed are shown as the code and a no-break space ("SEK\u00a012.00");
// the spec spells CHF the same way, so its symbol already ends with the space.
const SYMBOLS: Record<string, string> = {
  USD: "$", EUR: "€", GBP: "£", JPY: "¥", CNY: "¥", KRW: "₩", INR: "₹",
  BRL: "R$", CAD: "CA$", AUD: "A$", HKD: "HK$", TWD: "NT$", CHF: "CHF\u00a0",
  PLN: "zł", DKK: "kr", HRK: "kn", THB: "฿", VND: "₫", IDR: "Rp", MXN: "MX$",
  RUB: "₽", TRY: "₺",
};

/**
 * Formats amount, in hundredths of currency, for display: formatMoney(123456,
 * "USD") is "$1,234.56", formatMoney(150000, "JPY") is "¥1,500". tenths 1..10
 * shows tenths/10 of the price (7 is 70%), rounded half away from zero to the
 * hundredth before formatting; 0 means no discount. Throws for a currency
 * code that is not three uppercase letters, a tenths outside 0..10, or an
 * amount that is not a safe integer (a number beyond 2^53 has already lost
 * its last digits, so formatting it would show a wrong price).
 */
export function formatMoney(amount: number, currency: string, tenths = 0): string {
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new Error(`money: currency code must be three uppercase letters: ${JSON.stringify(currency)}`);
  }
  if (!Number.isInteger(tenths) || tenths < 0 || tenths > 10) {
    throw new Error(`money: discount must be 0 (none) to 10 tenths: ${tenths}`);
  }
  if (!Number.isSafeInteger(amount)) {
    throw new Error(`money: amount must be a safe integer of minor units: ${amount}`);
  }

  // BigInt keeps amount*tenths exact past 2^53, matching Go's int64 results.
  let minor = BigInt(amount);
  if (tenths !== 0) minor = divRound(minor * BigInt(tenths), 10n);

  const zero = ZERO_DECIMAL.has(currency);
  const shown = zero ? divRound(minor, 100n) : minor;
  const magnitude = shown < 0n ? -shown : shown;
  const [dec, group] = COMMA_DECIMAL.has(currency) ? [",", "."] : [".", ","];
  let num = zero ? grouped(magnitude, group) : grouped(magnitude / 100n, group);
  if (!zero) num += dec + String(magnitude % 100n).padStart(2, "0");

  // An amount that rounds to zero is shown as zero, not "-¥0".
  const sign = shown < 0n ? "-" : "";
  const sym = SYMBOLS[currency] ?? currency + "\u00a0";
  return SUFFIX.has(currency) ? `${sign}${num}\u00a0${sym}` : `${sign}${sym}${num}`;
}

// x/d rounded half away from zero (BigInt division truncates toward zero, and
// the remainder takes x's sign, as in Go).
function divRound(x: bigint, d: bigint): bigint {
  const q = x / d;
  const r = x % d;
  if (r > 0n && 2n * r >= d) return q + 1n;
  if (r < 0n && -2n * r >= d) return q - 1n;
  return q;
}

// n in decimal with sep between groups of three digits.
function grouped(n: bigint, sep: string): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, sep);
}
