package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// bankAsksStripe answers, over HTTP as Stripe would, the calls a
// subscription start makes, for a card whose bank asks for 3-D Secure: the
// subscription is created incomplete, its first invoice's PaymentIntent
// requires_action, and a cancel ends it. It keeps the calls it got.
type bankAsksStripe struct {
	mu    sync.Mutex
	calls []string
	ended bool
}

func (f *bankAsksStripe) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	_ = r.ParseForm()
	subscription := func() map[string]any {
		status := "incomplete"
		if f.ended {
			status = "incomplete_expired"
		}
		return map[string]any{"id": "sub_sca", "object": "subscription", "status": status,
			"metadata": map[string]any{"subscription_id": "ours"},
			"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_1", "object": "subscription_item",
				"price": map[string]any{"id": "price_1", "object": "price", "currency": "usd", "unit_amount": 1999}}}},
			"latest_invoice": map[string]any{"id": "in_sca", "object": "invoice", "status": "open", "currency": "usd",
				"amount_due": 149, "billing_reason": "subscription_create",
				"payments": map[string]any{"object": "list", "data": []any{map[string]any{"id": "inpay_1", "object": "invoice_payment",
					"payment": map[string]any{"type": "payment_intent", "payment_intent": "pi_sca"}}}}}}
	}
	var out any
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/customers":
		out = map[string]any{"id": "cus_sca", "object": "customer"}
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/payment_methods/"):
		out = map[string]any{"id": strings.Split(r.URL.Path, "/")[3], "object": "payment_method", "type": "card",
			"card": map[string]any{"brand": "visa", "last4": "3220"}}
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/customers/"):
		out = map[string]any{"id": "cus_sca", "object": "customer"}
	case r.Method == http.MethodGet && r.URL.Path == "/v1/prices":
		out = map[string]any{"object": "list", "data": []any{}, "has_more": false, "url": "/v1/prices"}
	case r.Method == http.MethodPost && r.URL.Path == "/v1/products":
		out = map[string]any{"id": r.PostForm.Get("id"), "object": "product"}
	case r.Method == http.MethodPost && r.URL.Path == "/v1/prices":
		out = map[string]any{"id": "price_" + r.PostForm.Get("lookup_key"), "object": "price"}
	case r.URL.Path == "/v1/subscriptions" || r.URL.Path == "/v1/subscriptions/sub_sca" && r.Method == http.MethodGet:
		out = subscription()
	case r.Method == http.MethodDelete && r.URL.Path == "/v1/subscriptions/sub_sca":
		f.ended = true
		out = subscription()
	case r.Method == http.MethodGet && r.URL.Path == "/v1/payment_intents/pi_sca":
		status := "requires_action"
		if f.ended {
			status = "canceled"
		}
		out = map[string]any{"id": "pi_sca", "object": "payment_intent", "status": status, "client_secret": "pi_sca_secret_abc"}
	default:
		w.WriteHeader(http.StatusNotFound)
		out = map[string]any{"error": map[string]any{"type": "invalid_request_error", "message": "no such call " + r.URL.Path}}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

func (f *bankAsksStripe) called(call string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		if c == call {
			return true
		}
	}
	return false
}

// A card whose bank asks for 3-D Secure: the start waits (incomplete), the
// check page gives Stripe.js the payment's client secret instead of
// refreshing, only to the subscription's owner; when the authentication
// fails the page's form ends the start at Stripe and here, and the form
// comes back saying nothing was charged.
func TestSubscribeWithStripeWaitsForAuthentication(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		fake := &bankAsksStripe{}
		api := httptest.NewServer(fake)
		defer api.Close()
		e := apptest.New(t, s, apptest.WithEnv(map[string]string{"PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_test_secret",
			"STRIPE_WEBHOOK_SECRET": "whsec_test", "STRIPE_PUBLISHABLE_KEY": "pk_test_public", "STRIPE_API_BASE": api.URL})).Handler
		b := newBrowser(t, e)
		b.register("sca@example.com")
		id := userID(t, s, "sca@example.com")
		rec := b.subscribePost(landingPage, url.Values{"plan": {"basic-weekly"}, "mode": {"trial"}, "agree": {"1"},
			"payment_method": {"pm_card_threeDSecure2Required"}})
		if rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), checkPage+"?s=") {
			t.Fatalf("start: %d %s %.600s", rec.Code, rec.Header().Get("Location"), text(rec))
		}
		check := rec.Header().Get("Location")
		subs := liveSubs(t, s, id)
		if len(subs) != 1 || subs[0].Status != "incomplete" || subs[0].ProviderRef.String != "sub_sca" {
			t.Fatalf("after the start: %+v", subs)
		}

		page := b.Get(check)
		body := text(page)
		if page.Code != http.StatusOK || !strings.Contains(body, `data-testid="sub-authenticate"`) ||
			!strings.Contains(body, "Your bank asks you to confirm this payment") || !strings.Contains(body, "pi_sca_secret_abc") ||
			strings.Contains(body, `http-equiv="refresh"`) || !strings.Contains(page.Header().Get("Content-Security-Policy"), "https://js.stripe.com") {
			t.Fatalf("check page: %d %.3000s", page.Code, body)
		}
		other := newBrowser(t, e)
		other.register("eve@example.com")
		if rec := other.Get(check); rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "pi_sca_secret_abc") {
			t.Fatalf("another user's check page: %d", rec.Code)
		}
		abandon := strings.Replace(check, "/paying/subscribe/check/", "/paying/subscribe/abandon/", 1)
		if rec := other.Submit("/", abandon, url.Values{}); rec.Code != http.StatusNotFound || fake.called("DELETE /v1/subscriptions/sub_sca") {
			t.Fatalf("another user abandoned it: %d", rec.Code)
		}

		// The island posts the page's form when Stripe.js reports a failure.
		rec = b.Submit(check, abandon, url.Values{})
		if rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), landingPage+"?plan=basic-weekly") {
			t.Fatalf("abandon: %d %s %.600s", rec.Code, rec.Header().Get("Location"), text(rec))
		}
		if !fake.called("DELETE /v1/subscriptions/sub_sca") {
			t.Fatal("the start was not cancelled at Stripe")
		}
		if got := liveSubs(t, s, id); got[0].Status != "expired" {
			t.Fatalf("after abandoning: %+v", got[0])
		}
		if l := text(b.Get(landingPage)); !strings.Contains(l, "Your bank did not confirm the payment, so nothing was charged") ||
			!strings.Contains(l, `data-testid="subscribe-form"`) {
			t.Fatalf("landing after abandoning: %.3000s", l)
		}
	})
}
