package payment

import (
	"net/http"
	"testing"
	"time"
)

// FuzzWebhookDelivery feeds the webhook parser payloads and signature
// headers from outside: it must never panic, and it must accept nothing
// it did not sign.
func FuzzWebhookDelivery(f *testing.F) {
	now := time.Unix(1_790_000_000, 0)
	good := []byte(`{"id":"evt_1","type":"payment.succeeded","ref":"sbx_1","attemptId":"a1","amount":999,"currency":"USD"}`)
	f.Add(good, Sign("whsec_test", good, now))
	f.Add(good, "t=1,v1=00")
	f.Add([]byte(`{}`), "")
	f.Add([]byte("not json"), "t=,v1=,v1=")
	s := &Sandbox{Secret: "whsec_test"}
	f.Fuzz(func(t *testing.T, payload []byte, sig string) {
		h := http.Header{}
		h.Set(SandboxSignatureHeader, sig)
		ev, err := s.ParseEvent(payload, h, now)
		if err == nil && Verify("whsec_test", payload, sig, now) != nil {
			t.Fatalf("accepted an unsigned delivery: %+v", ev)
		}
	})
}

// FuzzCardCheck checks card forms from outside: no panic, and a number it
// lets through is digits only and passes Luhn.
func FuzzCardCheck(f *testing.F) {
	f.Add("4242 4242 4242 4242", 12, 2030, "123", "Kim", "10115")
	f.Add("", 0, 0, "", "", "")
	f.Add("4000-0000-0000-0002", 13, 99, "12345", "\x00", "😀")
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, number string, month, year int, cvc, name, postal string) {
		got, errs := CardInput{Number: number, ExpMonth: month, ExpYear: year, CVC: cvc, Name: name, PostalCode: postal}.Check(now)
		if errs["number"] != "" {
			return
		}
		for _, r := range got {
			if r < '0' || r > '9' {
				t.Fatalf("number %q let through", got)
			}
		}
		if !Luhn(got) {
			t.Fatalf("number %q fails Luhn but was let through", got)
		}
	})
}
