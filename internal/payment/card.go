package payment

import (
	"strings"
	"time"
)

// CardInput is a card form as sent to the sandbox. It is checked, used and
// dropped: no field is stored or logged but the brand and last four digits.
type CardInput struct {
	Number     string `json:"number"`
	ExpMonth   int    `json:"expMonth"`
	ExpYear    int    `json:"expYear"`
	CVC        string `json:"cvc"`
	Name       string `json:"name"`
	PostalCode string `json:"postalCode"`
	// NoPostalCode is set by the server for a buyer whose country has no
	// postal codes (geo.UsesPostalCode): the field is then not asked for.
	NoPostalCode bool `json:"-"`
}

// Brand names the card network from the number's prefix, "" when unknown.
func Brand(number string) string {
	n := number
	prefix := func(lo, hi string) bool {
		p := n[:min(len(n), len(lo))]
		return len(n) >= len(lo) && p >= lo && p <= hi
	}
	switch {
	case strings.HasPrefix(n, "4"):
		return "visa"
	case prefix("51", "55"), prefix("2221", "2720"):
		return "mastercard"
	case strings.HasPrefix(n, "34"), strings.HasPrefix(n, "37"):
		return "amex"
	case strings.HasPrefix(n, "6011"), strings.HasPrefix(n, "65"), prefix("644", "649"):
		return "discover"
	case prefix("3528", "3589"):
		return "jcb"
	case strings.HasPrefix(n, "62"):
		return "unionpay"
	}
	return ""
}

// Luhn reports whether a string of digits passes the mod-10 check.
func Luhn(digits string) bool {
	if len(digits) < 12 || len(digits) > 19 {
		return false
	}
	sum := 0
	for i := range len(digits) {
		c := digits[len(digits)-1-i]
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// CVCLength is how many digits the security code of a card number has:
// four for American Express, three for the others. Messages about the code
// say it ({{.Digits}}).
func CVCLength(number string) int {
	if Brand(strings.NewReplacer(" ", "", "-", "").Replace(number)) == "amex" {
		return 4
	}
	return 3
}

// Check validates a card form the way the card island does, so a forged
// request gets the same answers: it returns the cleaned number and a message
// id per invalid field.
func (c CardInput) Check(now time.Time) (string, map[string]string) {
	errs := map[string]string{}
	number := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, c.Number)
	brand := Brand(number)
	if !Luhn(number) || brand == "" {
		errs["number"] = "checkout.invalid_number"
	}
	year, month := c.ExpYear, c.ExpMonth
	if year < 100 {
		year += 2000
	}
	expiry := time.Date(year, time.Month(month)+1, 1, 0, 0, 0, 0, time.UTC)
	if month < 1 || month > 12 || !now.Before(expiry) || year > now.Year()+20 {
		errs["expiry"] = "checkout.invalid_expiry"
	}
	if len(c.CVC) != CVCLength(number) || strings.Trim(c.CVC, "0123456789") != "" {
		errs["cvc"] = "checkout.invalid_cvc"
	}
	if strings.TrimSpace(c.Name) == "" || len(c.Name) > 100 {
		errs["name"] = "checkout.required"
	}
	if pc := strings.TrimSpace(c.PostalCode); (pc == "" && !c.NoPostalCode) || len(pc) > 12 {
		errs["postalCode"] = "checkout.required"
	}
	return number, errs
}
