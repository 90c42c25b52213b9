package payment

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzSignatureHeader reads webhook signature headers (the sandbox's and
// Stripe's scheme): no panic; a header it accepts carries the payload's
// HMAC for a timestamp within the tolerance; a header it made itself is
// accepted within the tolerance, with any other parts around it, and
// refused for another payload or outside the tolerance.
func FuzzSignatureHeader(f *testing.F) {
	now := time.Unix(1_790_000_000, 0)
	payload := []byte(`{"id":"evt_1"}`)
	f.Add(payload, Sign("whsec_test", payload, now), int64(0), "v0=1")
	f.Add(payload, "t=1790000000,v1=zz,v1=", int64(299), "t=5")
	f.Add([]byte{}, " t = 1 , v1 = 00 ", int64(-301), ",,,")
	f.Add([]byte("x"), "t=+1790000000,v1="+strings.Repeat("0", 64), int64(1<<62), "=")
	f.Fuzz(func(t *testing.T, payload []byte, header string, skew int64, extra string) {
		if err := Verify("whsec_test", payload, header, now); err == nil {
			ok := false
			for _, part := range strings.Split(header, ",") {
				k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
				if k != "t" {
					continue
				}
				ts, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					continue
				}
				if d := now.Sub(time.Unix(ts, 0)); d <= SignatureTolerance && d >= -SignatureTolerance &&
					strings.Contains(header, "v1="+mac("whsec_test", v, payload)) {
					ok = true
				}
			}
			if !ok {
				t.Fatalf("accepted %q without the payload's signature", header)
			}
		} else if !errors.Is(err, ErrBadSignature) {
			t.Fatalf("refusal without ErrBadSignature: %v", err)
		}

		skew %= int64(2 * SignatureTolerance / time.Second)
		at := now.Add(time.Duration(skew) * time.Second)
		signed := Sign("whsec_test", payload, at)
		within := skew <= int64(SignatureTolerance/time.Second) && skew >= -int64(SignatureTolerance/time.Second)
		if err := Verify("whsec_test", payload, signed, now); (err == nil) != within {
			t.Fatalf("own header at skew %ds: %v", skew, err)
		}
		harmless := true
		for _, part := range strings.Split(extra, ",") {
			if k, _, _ := strings.Cut(strings.TrimSpace(part), "="); k == "t" || k == "v1" {
				harmless = false
			}
		}
		if harmless {
			if err := Verify("whsec_test", payload, extra+","+signed+","+extra, now); (err == nil) != within {
				t.Fatalf("own header between %q: %v", extra, err)
			}
		}
		if err := Verify("whsec_test", append(bytes.Clone(payload), '!'), signed, now); err == nil {
			t.Fatal("a signature was accepted for another payload")
		}
		if err := Verify("whsec_other", payload, signed, now); err == nil {
			t.Fatal("a signature was accepted under another secret")
		}
	})
}

// FuzzStripeEvent reads Stripe webhook bodies that carry a good
// signature: no panic; an event it accepts is the payload's own (same id)
// and names what it is about; the same body unsigned or signed with another
// secret is refused.
func FuzzStripeEvent(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	f.Add([]byte(`{"id":"evt_ok","type":"payment_intent.succeeded","data":{"object":{"id":"pi_ok","amount":999,"currency":"usd","metadata":{"attempt_id":"att_1"}}}}`))
	f.Add([]byte(`{"id":"evt_fail","type":"payment_intent.payment_failed","data":{"object":{"id":"pi_fail","amount":1500,"currency":"jpy","metadata":{"attempt_id":"att_1"},"last_payment_error":{"code":"card_declined"}}}}`))
	f.Add([]byte(`{"id":"evt_ref","type":"charge.refunded","data":{"object":{"id":"ch_1"}}}`))
	f.Add([]byte(`{"id":"","type":"payment_intent.succeeded","data":null}`))
	f.Add([]byte(`{"id":"e","type":"payment_intent.succeeded","data":{"object":{"id":"pi","amount":-1e400,"currency":"kwd","metadata":{"attempt_id":"a"}}}}`))
	f.Add([]byte(`[]`))
	s := NewStripe("sk_test_123", "whsec_fuzz")
	f.Fuzz(func(t *testing.T, payload []byte) {
		h := http.Header{}
		h.Set("Stripe-Signature", Sign("whsec_fuzz", payload, now))
		ev, err := s.ParseEvent(payload, h, now)
		if err == nil {
			var top struct {
				ID string `json:"id"`
			}
			if jerr := json.Unmarshal(payload, &top); jerr != nil || ev.ID == "" || ev.ID != top.ID || ev.Kind == "" {
				t.Fatalf("accepted %+v from %q (%v)", ev, payload, jerr)
			}
		}
		for _, bad := range []string{"", Sign("whsec_other", payload, now), Sign("whsec_fuzz", payload, now.Add(-time.Hour))} {
			h.Set("Stripe-Signature", bad)
			if _, err := s.ParseEvent(payload, h, now); !errors.Is(err, ErrBadSignature) {
				t.Fatalf("header %q: %v", bad, err)
			}
		}
	})
}
