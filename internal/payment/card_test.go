package payment

import (
	"testing"
	"time"
)

func TestCardCheck(t *testing.T) {
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	ok := CardInput{Number: "4242 4242 4242 4242", ExpMonth: 11, ExpYear: 26, CVC: "123", Name: "Ana", PostalCode: "10115"}
	if n, errs := ok.Check(now); n != "4242424242424242" || len(errs) != 0 {
		t.Fatalf("a good card: %s %v", n, errs)
	}
	for _, tc := range []struct {
		mutate func(*CardInput)
		field  string
	}{
		{func(c *CardInput) { c.Number = "4242 4242 4242 4241" }, "number"},
		{func(c *CardInput) { c.Number = "1234" }, "number"},
		{func(c *CardInput) { c.ExpMonth, c.ExpYear = 10, 2026 }, "expiry"},
		{func(c *CardInput) { c.ExpMonth = 13 }, "expiry"},
		{func(c *CardInput) { c.CVC = "12" }, "cvc"},
		{func(c *CardInput) { c.Number, c.CVC = "378282246310005", "123" }, "cvc"},
		{func(c *CardInput) { c.Name = " " }, "name"},
		{func(c *CardInput) { c.PostalCode = "" }, "postalCode"},
	} {
		c := ok
		tc.mutate(&c)
		if _, errs := c.Check(now); errs[tc.field] == "" {
			t.Errorf("%+v: no error on %s (%v)", c, tc.field, errs)
		}
	}
	for number, brand := range map[string]string{"4000002760003184": "visa", "5555555555554444": "mastercard", "2223003122003222": "mastercard",
		"378282246310005": "amex", "6011111111111117": "discover", "3566002020360505": "jcb", "6200000000000005": "unionpay", "9999": ""} {
		if got := Brand(number); got != brand {
			t.Errorf("Brand(%s) = %q, want %q", number, got, brand)
		}
	}
	for _, n := range []string{"4242424242424242", "4000000000000002", "4000000000009995", "4000002760003184"} {
		if !Luhn(n) {
			t.Errorf("test card %s fails Luhn", n)
		}
	}
}
