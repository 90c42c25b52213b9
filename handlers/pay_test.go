package handlers_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"selfmap/app/apptest"
)

// Through the payment calls as the card island makes them: a tampered
// amount is ignored, a bad card field is refused in the buyer's language,
// 4242 pays, the order and payment info say so, the receipt is in the dev
// outbox, a stranger sees none of it, and a forged webhook writes nothing.
func TestPaymentCalls(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		token := b.CSRFToken("/de/")
		rec := b.PostJSON("/api/exam/order/info", token, apptest.Submission(t, func(i int) int { return i%5 + 1 }))
		var sub struct {
			Data struct{ ResultID, OrderNumber string }
		}
		json.Unmarshal(rec.Body.Bytes(), &sub) //nolint:errcheck // checked below
		order := sub.Data.OrderNumber
		if order == "" {
			t.Fatalf("submission: %s", rec.Body.String())
		}

		rec = b.PostJSON("/pay/pay/order/create?hl=DE", token, map[string]any{"orderNumber": order, "skuId": "mbti-report",
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

		rec = b.PostJSON("/pay/sandbox/confirm?hl=DE", token, map[string]any{"attemptId": created.Data.AttemptID, "number": "4242424242424241",
			"expMonth": 12, "expYear": 2030, "cvc": "123", "name": "Kim", "postalCode": "10115"})
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), `"result":400`) || strings.Contains(rec.Body.String(), "checkout.") {
			t.Fatalf("a bad card number: %d %s", rec.Code, rec.Body.String())
		}
		rec = b.PostJSON("/pay/sandbox/confirm?hl=DE", token, map[string]any{"attemptId": created.Data.AttemptID, "number": "4242424242424242",
			"expMonth": 12, "expYear": 2030, "cvc": "12", "name": "Kim", "postalCode": "10115"})
		if rec.Code != 400 || strings.Contains(rec.Body.String(), "no value") || !strings.Contains(rec.Body.String(), "3") {
			t.Fatalf("a short security code: %d %s", rec.Code, rec.Body.String())
		}

		// A stranger can neither pay nor read this order.
		other := newBrowser(t, b.Handler)
		otherToken := other.CSRFToken("/")
		for path, body := range map[string]any{
			"/pay/sandbox/confirm":   map[string]any{"attemptId": created.Data.AttemptID, "number": "4242424242424242", "expMonth": 12, "expYear": 2030, "cvc": "123", "name": "X", "postalCode": "1"},
			"/pay/pay/check/status":  map[string]string{"orderNumber": order},
			"/pay/pay/check/payInfo": map[string]string{"orderNumber": order},
			"/pay/pay/order/create":  map[string]string{"orderNumber": order, "skuId": "mbti-report", "email": "x@example.com"},
		} {
			if rec := other.PostJSON(path, otherToken, body); rec.Code != 404 {
				t.Errorf("a stranger's %s: %d %s", path, rec.Code, rec.Body.String())
			}
		}

		rec = b.PostJSON("/pay/sandbox/confirm", token, map[string]any{"attemptId": created.Data.AttemptID, "number": "4242 4242 4242 4242",
			"expMonth": 12, "expYear": 30, "cvc": "123", "name": "Kim", "postalCode": "10115"})
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"succeeded"`) {
			t.Fatalf("pay: %d %s", rec.Code, rec.Body.String())
		}
		for path, want := range map[string]string{
			"/pay/pay/check/status":  `"status":"paid"`,
			"/pay/pay/check/payInfo": `"cardLast4":"4242"`,
		} {
			if rec := b.PostJSON(path, token, map[string]string{"orderNumber": order}); !strings.Contains(rec.Body.String(), want) {
				t.Errorf("%s: %s", path, rec.Body.String())
			}
		}
		if rec := b.Get("/api/exam/order/sku/check/" + order); !strings.Contains(rec.Body.String(), `"paid":true`) {
			t.Errorf("sku check: %s", rec.Body.String())
		}
		mail := b.Get("/dev/mail").Body.String()
		if !strings.Contains(mail, "kim@example.com") || !strings.Contains(mail, order) {
			t.Errorf("no receipt in the dev outbox")
		}
		// The paid report's link arrives by e-mail, in the language the
		// test was taken in (English here).
		if !strings.Contains(mail, "Your report is ready") || !strings.Contains(mail, "http://selfmap.test/report/result/BMBTI-1807?t=") {
			t.Errorf("no report-ready mail with its link in the dev outbox")
		}

		// A forged webhook delivery is refused and changes nothing.
		req := httptest.NewRequest("POST", "/pay/webhook/sandbox", strings.NewReader(`{"id":"evt_x","type":"payment.succeeded"}`))
		req.Header.Set("Sandbox-Signature", "t=1,v1=00")
		if rec := b.Do(req); rec.Code != 400 {
			t.Errorf("forged webhook: %d", rec.Code)
		}
		req = httptest.NewRequest("POST", "/pay/webhook/stripe", strings.NewReader(`{}`))
		if rec := b.Do(req); rec.Code != 404 {
			t.Errorf("webhook of a provider not in use: %d", rec.Code)
		}
	})
}

// With Stripe, the payment page hands the Payment Element the publishable
// key (never the secret one) and lets only that page load Stripe.js and its
// frames; with the sandbox, no page allows another origin.
func TestStripePaymentPage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		b := newBrowser(t, e)
		token := b.CSRFToken("/ja/")
		rec := b.PostJSON("/api/exam/order/info", token, apptest.Submission(t, func(i int) int { return i%5 + 1 }))
		var sub struct{ Data struct{ ResultID string } }
		json.Unmarshal(rec.Body.Bytes(), &sub) //nolint:errcheck // checked below
		rec = b.Get("/ja/paying/payment/BMBTI-1807?r=" + sub.Data.ResultID)
		body, csp := rec.Body.String(), rec.Header().Get("Content-Security-Policy")
		if rec.Code != 200 || !strings.Contains(body, `"publishableKey":"pk_test_public"`) || !strings.Contains(body, `"stripeLocale":"ja"`) {
			t.Fatalf("payment page with Stripe: %d, props without the publishable key", rec.Code)
		}
		if strings.Contains(body, "sk_test_secret") || strings.Contains(body, "whsec_test") {
			t.Fatal("a Stripe secret reached the browser")
		}
		for _, want := range []string{"script-src 'self' 'nonce-", "https://js.stripe.com", "frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com", "connect-src 'self' https://api.stripe.com"} {
			if !strings.Contains(csp, want) {
				t.Errorf("CSP of the Stripe payment page lacks %q: %s", want, csp)
			}
		}
		if pp := rec.Header().Get("Permissions-Policy"); !strings.Contains(pp, `payment=(self "https://js.stripe.com")`) {
			t.Errorf("Permissions-Policy of the Stripe payment page: %s", pp)
		}
		if !strings.Contains(body, `"stripeAmount":`) || !strings.Contains(body, `"currency":"`) {
			t.Error("the Payment Element is not given the server's amount and currency")
		}
		if csp := b.Get("/ja/").Header().Get("Content-Security-Policy"); strings.Contains(csp, "stripe") {
			t.Errorf("a page without the Payment Element allows Stripe: %s", csp)
		}
	}, apptest.WithEnv(map[string]string{"PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_test_secret",
		"STRIPE_WEBHOOK_SECRET": "whsec_test", "STRIPE_PUBLISHABLE_KEY": "pk_test_public"}))
}
