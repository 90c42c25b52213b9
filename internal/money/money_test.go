package money

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// testCase is one row of testdata/cases.json, the table islands/money.test.ts
// checks too.
type testCase struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	Tenths   int    `json:"tenths"` // 0: no discount
	Want     string `json:"want"`
	Error    bool   `json:"error"`
	Note     string `json:"note"`
}

func loadCases(t testing.TB) []testCase {
	t.Helper()
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields() // a misspelt key would silently test nothing
	var cases []testCase
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("testdata/cases.json: %v", err)
	}
	if len(cases) < 40 {
		t.Fatalf("testdata/cases.json has %d cases, want at least 40", len(cases))
	}
	return cases
}

func TestSharedCases(t *testing.T) {
	for _, c := range loadCases(t) {
		name := strconv.FormatInt(c.Amount, 10) + "_" + c.Currency + "_" + strconv.Itoa(c.Tenths)
		t.Run(name, func(t *testing.T) {
			if !c.Error && c.Want == "" {
				t.Fatal("case has neither want nor error")
			}
			got, err := FormatDiscounted(c.Amount, c.Currency, c.Tenths)
			if c.Error {
				if err == nil {
					t.Fatalf("FormatDiscounted(%d, %q, %d) = %q, want an error", c.Amount, c.Currency, c.Tenths, got)
				}
				if !errors.Is(err, ErrCurrency) && !errors.Is(err, ErrDiscount) {
					t.Errorf("error %v wraps neither ErrCurrency nor ErrDiscount", err)
				}
				return
			}
			if err != nil || got != c.Want {
				t.Fatalf("FormatDiscounted(%d, %q, %d) = %q, %v; want %q (%s)", c.Amount, c.Currency, c.Tenths, got, err, c.Want, c.Note)
			}
			if c.Tenths == 0 {
				if got, err := Format(c.Amount, c.Currency); err != nil || got != c.Want {
					t.Errorf("Format(%d, %q) = %q, %v; want %q", c.Amount, c.Currency, got, err, c.Want)
				}
			}
		})
	}
}

// TestInt64Extremes covers amounts the shared table cannot hold, since a JS
// number is exact only up to 2^53.
func TestInt64Extremes(t *testing.T) {
	for _, c := range []testCase{
		{Amount: math.MaxInt64, Currency: "USD", Want: "$92,233,720,368,547,758.07"},
		{Amount: math.MinInt64, Currency: "USD", Want: "-$92,233,720,368,547,758.08"},
		{Amount: math.MinInt64, Currency: "EUR", Tenths: 10, Want: "-€92.233.720.368.547.758,08"},
		{Amount: math.MaxInt64, Currency: "JPY", Want: "¥92,233,720,368,547,758"},
		{Amount: math.MinInt64, Currency: "JPY", Want: "-¥92,233,720,368,547,758"},
		{Amount: math.MaxInt64, Currency: "USD", Tenths: 5, Want: "$46,116,860,184,273,879.04"},
		{Amount: math.MinInt64, Currency: "USD", Tenths: 5, Want: "-$46,116,860,184,273,879.04"},
	} {
		if got, err := FormatDiscounted(c.Amount, c.Currency, c.Tenths); err != nil || got != c.Want {
			t.Errorf("FormatDiscounted(%d, %q, %d) = %q, %v; want %q", c.Amount, c.Currency, c.Tenths, got, err, c.Want)
		}
	}
}

func TestDiscount(t *testing.T) {
	for _, c := range []struct {
		amount int64
		tenths int
		want   int64
	}{
		{1999, 7, 1399},
		{1999, 5, 1000},
		{-1999, 5, -1000},
		{5, 1, 1},
		{-5, 1, -1},
		{4, 1, 0},
		{1999, 0, 1999},
		{1999, 10, 1999},
		{math.MaxInt64, 10, math.MaxInt64},
		{math.MinInt64, 10, math.MinInt64},
		{math.MaxInt64, 5, 4611686018427387904},
		{math.MinInt64, 5, -4611686018427387904},
	} {
		if got := Discount(c.amount, c.tenths); got != c.want {
			t.Errorf("Discount(%d, %d) = %d, want %d", c.amount, c.tenths, got, c.want)
		}
	}
	for _, tenths := range []int{-1, 11} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Discount(1, %d) did not panic", tenths)
				}
			}()
			Discount(1, tenths)
		}()
	}
}

func TestZeroDecimal(t *testing.T) {
	for _, c := range strings.Fields("CNY JPY KRW INR THB VND IDR MXN RUB TRY HUF CLP COP TWD PKR NGN") {
		if !ZeroDecimal(c) {
			t.Errorf("ZeroDecimal(%q) = false", c)
		}
	}
	for _, c := range []string{"USD", "EUR", "CHF", "SEK", "jpy", ""} {
		if ZeroDecimal(c) {
			t.Errorf("ZeroDecimal(%q) = true", c)
		}
	}
}

// numberShape returns the pattern of what is left of a result once the sign
// and the symbol are removed.
func numberShape(currency string) *regexp.Regexp {
	group, dec := ",", `\.`
	if commaDecimal[currency] {
		group, dec = `\.`, ","
	}
	frac := dec + "[0-9]{2}"
	if ZeroDecimal(currency) {
		frac = ""
	}
	return regexp.MustCompile("^[0-9]{1,3}(" + group + "[0-9]{3})*" + frac + "$")
}

// FuzzFormat checks FormatDiscounted against math/big arithmetic: it never
// panics, fails exactly for malformed codes and discounts, and otherwise
// returns a sign, symbol and grouped number whose digits are the rounded
// amount.
func FuzzFormat(f *testing.F) {
	for _, c := range loadCases(f) {
		f.Add(c.Amount, c.Currency, c.Tenths)
	}
	f.Add(int64(math.MaxInt64), "USD", 9)
	f.Add(int64(math.MinInt64), "JPY", 3)
	f.Fuzz(func(t *testing.T, amount int64, currency string, tenths int) {
		got, err := FormatDiscounted(amount, currency, tenths)
		wantErr := !validCode(currency) || tenths < 0 || tenths > 10
		if wantErr {
			if err == nil {
				t.Fatalf("FormatDiscounted(%d, %q, %d) = %q, want an error", amount, currency, tenths, got)
			}
			return
		}
		if err != nil || got == "" {
			t.Fatalf("FormatDiscounted(%d, %q, %d) = %q, %v", amount, currency, tenths, got, err)
		}

		// The amount shown, computed independently in arbitrary precision.
		shown := big.NewInt(amount)
		if tenths != 0 {
			shown = roundHalfAway(shown.Mul(shown, big.NewInt(int64(tenths))), 10)
		}
		if ZeroDecimal(currency) {
			shown = roundHalfAway(shown, 100)
		}

		rest, neg := strings.CutPrefix(got, "-")
		if neg != (shown.Sign() < 0) {
			t.Fatalf("FormatDiscounted(%d, %q, %d) = %q: sign wrong for %v", amount, currency, tenths, got, shown)
		}
		var digits strings.Builder
		for _, r := range rest {
			if r >= '0' && r <= '9' {
				digits.WriteRune(r)
			}
		}
		parsed, perr := strconv.ParseUint(digits.String(), 10, 64)
		if perr != nil || new(big.Int).SetUint64(parsed).Cmp(shown.Abs(shown)) != 0 {
			t.Fatalf("FormatDiscounted(%d, %q, %d) = %q: digits %q, want %v", amount, currency, tenths, got, digits.String(), shown)
		}

		sym, ok := symbols[currency]
		if !ok {
			sym = currency + "\u00a0"
		}
		var num string
		if suffix[currency] {
			num, ok = strings.CutSuffix(rest, "\u00a0"+sym)
		} else {
			num, ok = strings.CutPrefix(rest, sym)
		}
		if !ok || !numberShape(currency).MatchString(num) {
			t.Fatalf("FormatDiscounted(%d, %q, %d) = %q: number part %q is malformed", amount, currency, tenths, got, num)
		}
	})
}

// roundHalfAway returns x/d rounded half away from zero.
func roundHalfAway(x *big.Int, d int64) *big.Int {
	q, r := new(big.Int).QuoRem(x, big.NewInt(d), new(big.Int))
	if r.Abs(r).Mul(r, big.NewInt(2)).Cmp(big.NewInt(d)) >= 0 {
		q.Add(q, big.NewInt(int64(x.Sign())))
	}
	return q
}

// BenchmarkFormat formats a price of each kind: two decimals, comma
// decimals, zero-decimal.
func BenchmarkFormat(b *testing.B) {
	for b.Loop() {
		for _, c := range []string{"USD", "EUR", "JPY"} {
			if _, err := Format(123456, c); err != nil {
				b.Fatal(err)
			}
		}
	}
}
