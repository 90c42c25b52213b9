package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// Through the payment calls as the card island makes them: a tampered
// amount is ignored, a bad card field is refused in the buyer's language,
// 4242 pays, the order and payment info say so, the receipt is in the dev
// outbox, a stranger sees none of it, and a forged webhook writes nothing.
func TestPaymentCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		b := &browser{t: t, e: newServer(t, s), cookies: map[string]*http.Cookie{}}
		token := b.csrfToken("/de/")
		rec := b.postJSON("/api/exam/order/info", token, submission(t, func(i int) int { return i%5 + 1 }))
		var sub struct {
			Data struct{ ResultID, OrderNumber string }
		}
		json.Unmarshal(rec.Body.Bytes(), &sub) //nolint:errcheck // checked below
		order := sub.Data.OrderNumber
		if order == "" {
			t.Fatalf("submission: %s", rec.Body.String())
		}

		rec = b.postJSON("/pay/pay/order/create?hl=DE", token, map[string]any{"orderNumber": order, "skuId": "mbti-report",
			"email": "kim@example.com", "amount": 1, "total": 1, "currency": "EUR"})
		var created struct {
			Data struct {
				AttemptID string
				Total     int64
				Currency  string
			}
		}
		json.Unmarshal(rec.Body.Bytes(), &created) //nolint:errcheck // checked below
		if rec.Code != 200 || created.Data.Total != 999 || created.Data.Currency != "USD" {
			t.Fatalf("create with a tampered amount: %d %s", rec.Code, rec.Body.String())
		}

		rec = b.postJSON("/pay/sandbox/confirm?hl=DE", token, map[string]any{"attemptId": created.Data.AttemptID, "number": "4242424242424241",
			"expMonth": 12, "expYear": 2030, "cvc": "123", "name": "Kim", "postalCode": "10115"})
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), `"result":400`) || strings.Contains(rec.Body.String(), "checkout.") {
			t.Fatalf("a bad card number: %d %s", rec.Code, rec.Body.String())
		}
		rec = b.postJSON("/pay/sandbox/confirm?hl=DE", token, map[string]any{"attemptId": created.Data.AttemptID, "number": "4242424242424242",
			"expMonth": 12, "expYear": 2030, "cvc": "12", "name": "Kim", "postalCode": "10115"})
		if rec.Code != 400 || strings.Contains(rec.Body.String(), "no value") || !strings.Contains(rec.Body.String(), "3") {
			t.Fatalf("a short security code: %d %s", rec.Code, rec.Body.String())
		}

		// A stranger can neither pay nor read this order.
		other := &browser{t: t, e: b.e, cookies: map[string]*http.Cookie{}}
		otherToken := other.csrfToken("/")
		for path, body := range map[string]any{
			"/pay/sandbox/confirm":   map[string]any{"attemptId": created.Data.AttemptID, "number": "4242424242424242", "expMonth": 12, "expYear": 2030, "cvc": "123", "name": "X", "postalCode": "1"},
			"/pay/pay/check/status":  map[string]string{"orderNumber": order},
			"/pay/pay/check/payInfo": map[string]string{"orderNumber": order},
			"/pay/pay/order/create":  map[string]string{"orderNumber": order, "skuId": "mbti-report", "email": "x@example.com"},
		} {
			if rec := other.postJSON(path, otherToken, body); rec.Code != 404 {
				t.Errorf("a stranger's %s: %d %s", path, rec.Code, rec.Body.String())
			}
		}

		rec = b.postJSON("/pay/sandbox/confirm", token, map[string]any{"attemptId": created.Data.AttemptID, "number": "4242 4242 4242 4242",
			"expMonth": 12, "expYear": 30, "cvc": "123", "name": "Kim", "postalCode": "10115"})
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"succeeded"`) {
			t.Fatalf("pay: %d %s", rec.Code, rec.Body.String())
		}
		for path, want := range map[string]string{
			"/pay/pay/check/status":  `"status":"paid"`,
			"/pay/pay/check/payInfo": `"cardLast4":"4242"`,
		} {
			if rec := b.postJSON(path, token, map[string]string{"orderNumber": order}); !strings.Contains(rec.Body.String(), want) {
				t.Errorf("%s: %s", path, rec.Body.String())
			}
		}
		if rec := b.do(httptest.NewRequest("GET", "/api/exam/order/sku/check/"+order, nil)); !strings.Contains(rec.Body.String(), `"paid":true`) {
			t.Errorf("sku check: %s", rec.Body.String())
		}
		mail := b.do(httptest.NewRequest("GET", "/dev/mail", nil)).Body.String()
		if !strings.Contains(mail, "kim@example.com") || !strings.Contains(mail, order) {
			t.Errorf("no receipt in the dev outbox")
		}

		// A forged webhook delivery is refused and changes nothing.
		req := httptest.NewRequest("POST", "/pay/webhook/sandbox", strings.NewReader(`{"id":"evt_x","type":"payment.succeeded"}`))
		req.Header.Set("Sandbox-Signature", "t=1,v1=00")
		if rec := b.do(req); rec.Code != 400 {
			t.Errorf("forged webhook: %d", rec.Code)
		}
		req = httptest.NewRequest("POST", "/pay/webhook/stripe", strings.NewReader(`{}`))
		if rec := b.do(req); rec.Code != 404 {
			t.Errorf("webhook of a provider not in use: %d", rec.Code)
		}
	})
}
