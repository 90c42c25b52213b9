// Package money formats prices. The same rules are implemented in
// islands/money.ts, and both implementations are tested on the one table in
// testdata/cases.json, so a price reads the same whether the server or an
// island rendered it. Change a rule here, in money.ts and in the table
// together.
package money

import (
	"errors"
	"fmt"
	"strconv"
)

// Money is an amount in minor units (hundredths, for every currency) and the
// ISO 4217 code of its currency.
type Money struct {
	Amount   int64
	Currency string
}

// ErrCurrency is returned for a currency code that is not three uppercase
// ASCII letters; handlers can map it to a 400 with errors.Is.
var ErrCurrency = errors.New("money: currency code must be three uppercase letters")

// ErrDiscount is returned for a discount outside 0..10 tenths.
var ErrDiscount = errors.New("money: discount must be 0 (none) to 10 tenths")

// zeroDecimal lists the currencies shown without decimals. The stored amount
// is still in hundredths (the product spec divides by 100 for all currencies),
// so these are rounded to whole units for display only.
var zeroDecimal = map[string]bool{
	"CNY": true, "JPY": true, "KRW": true, "INR": true, "THB": true, "VND": true,
	"IDR": true, "MXN": true, "RUB": true, "TRY": true, "HUF": true, "CLP": true,
	"COP": true, "TWD": true, "PKR": true, "NGN": true,
}

// commaDecimal lists the currencies written "1.234,56" rather than "1,234.56".
var commaDecimal = map[string]bool{
	"EUR": true, "PLN": true, "BRL": true, "DKK": true, "HRK": true,
}

// suffix lists the currencies whose symbol follows the number, after a
// no-break space so the symbol never wraps onto a line of its own.
var suffix = map[string]bool{
	"PLN": true, "DKK": true, "HRK": true,
}

// symbols maps a code to the symbol the spec chose. Codes not listed are shown
// as the code itself followed by a no-break space ("SEK\u00a012.00"); the spec
// spells CHF the same way, so its symbol already ends with the space.
var symbols = map[string]string{
	"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CNY": "¥", "KRW": "₩",
	"INR": "₹", "BRL": "R$", "CAD": "CA$", "AUD": "A$", "HKD": "HK$",
	"TWD": "NT$", "CHF": "CHF\u00a0", "PLN": "zł", "DKK": "kr", "HRK": "kn",
	"THB": "฿", "VND": "₫", "IDR": "Rp", "MXN": "MX$", "RUB": "₽", "TRY": "₺",
}

// ZeroDecimal reports whether amounts in currency are displayed without
// decimals. It is false for codes it does not know, including malformed ones.
func ZeroDecimal(currency string) bool {
	return zeroDecimal[currency]
}

// Format renders amount (in hundredths of currency) for display, e.g.
// Format(123456, "USD") is "$1,234.56" and Format(150000, "JPY") is "¥1,500".
// It fails only for a currency code that is not three uppercase letters:
// well-formed codes the package does not know are shown by their code.
func Format(amount int64, currency string) (string, error) {
	return FormatDiscounted(amount, currency, 0)
}

// FormatDiscounted renders amount after a discount to tenths/10 of it (7 shows
// 70% of the price), rounded to the hundredth before formatting as Discount
// does; tenths 0 means no discount. Zero-decimal currencies are therefore
// rounded twice, to the hundredth and then to the unit, as the spec says: 0.99
// JPY at 5 tenths is 0.495, rounded to 0.50 and shown as "¥1", not "¥0".
func FormatDiscounted(amount int64, currency string, tenths int) (string, error) {
	if !validCode(currency) {
		return "", fmt.Errorf("%w: %q", ErrCurrency, currency)
	}
	if tenths < 0 || tenths > 10 {
		return "", fmt.Errorf("%w: %d", ErrDiscount, tenths)
	}
	if tenths != 0 {
		amount = Discount(amount, tenths)
	}

	var units, cents uint64 // magnitude of the amount shown
	neg := amount < 0
	if ZeroDecimal(currency) {
		whole := divRound(amount, 100)
		neg = whole < 0
		units = abs(whole)
	} else {
		units, cents = abs(amount)/100, abs(amount)%100
	}

	dec, group := ".", ","
	if commaDecimal[currency] {
		dec, group = ",", "."
	}
	num := grouped(units, group)
	if !ZeroDecimal(currency) {
		num += dec + strconv.FormatUint(cents/10, 10) + strconv.FormatUint(cents%10, 10)
	}

	sign := ""
	if neg { // an amount that rounds to zero is shown as zero, not "-¥0"
		sign = "-"
	}
	sym, ok := symbols[currency]
	if !ok {
		sym = currency + "\u00a0"
	}
	if suffix[currency] {
		return sign + num + "\u00a0" + sym, nil
	}
	return sign + sym + num, nil
}

// Discount returns tenths/10 of amount rounded half away from zero to the
// minor unit, e.g. Discount(1999, 7) is 1399 (13.993 rounded). tenths 0 means
// no discount and returns amount, the same convention as FormatDiscounted.
// Any other value outside 1..10 is a programming error and panics: callers
// taking the factor from a request validate it first (or use
// FormatDiscounted, which returns ErrDiscount). It never overflows, for any
// int64 amount.
func Discount(amount int64, tenths int) int64 {
	if tenths == 0 {
		return amount
	}
	if tenths < 1 || tenths > 10 {
		panic(fmt.Sprintf("money.Discount: tenths %d outside 0..10", tenths))
	}
	// amount*tenths can overflow, so scale the tens and the last digit
	// separately: q and r share amount's sign, so rounding r*n/10 alone
	// rounds the whole sum the same way, and |q*n| <= |amount|.
	n := int64(tenths)
	q, r := amount/10, amount%10
	return q*n + divRound(r*n, 10)
}

// divRound returns x/d rounded half away from zero, for d > 0 small enough
// that 2*(x%d) cannot overflow.
func divRound(x, d int64) int64 {
	q, r := x/d, x%d // Go truncates toward zero; r has x's sign
	switch {
	case r > 0 && 2*r >= d:
		q++
	case r < 0 && -2*r >= d:
		q--
	}
	return q
}

// abs returns |x| as a uint64, which holds |math.MinInt64| where int64 cannot.
func abs(x int64) uint64 {
	if x < 0 {
		return uint64(-(x + 1)) + 1
	}
	return uint64(x)
}

// grouped writes n in decimal with sep between groups of three digits.
func grouped(n uint64, sep string) string {
	digits := strconv.FormatUint(n, 10)
	out := make([]byte, 0, len(digits)+len(digits)/3*len(sep))
	for i := 0; i < len(digits); i++ {
		if i > 0 && (len(digits)-i)%3 == 0 {
			out = append(out, sep...)
		}
		out = append(out, digits[i])
	}
	return string(out)
}

// validCode reports whether code is three uppercase ASCII letters, the shape
// of an ISO 4217 code; anything else is most likely a bug upstream (a
// lowercased or empty field), so it is an error rather than shown as-is.
func validCode(code string) bool {
	if len(code) != 3 {
		return false
	}
	for i := 0; i < len(code); i++ {
		if code[i] < 'A' || code[i] > 'Z' {
			return false
		}
	}
	return true
}

// Plain writes an amount in hundredths with two decimals and no symbol, for
// the rare case where the currency code itself is unusable.
func Plain(amount int64) string {
	sign := ""
	if amount < 0 {
		sign = "-"
	}
	a := abs(amount)
	return fmt.Sprintf("%s%d.%02d", sign, a/100, a%100)
}
