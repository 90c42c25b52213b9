package handlers_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/payment"
	"selfmap/internal/store"
)

// With PAYMENT_PROVIDER=stripe the one webhook hands a subscription's
// events (Stripe Billing) to the subscription service and everything else
// to checkout; a forged delivery is refused either way.
func TestStripeWebhookDispatchesSubscriptionEvents(t *testing.T) {
	const secret = "whsec_dispatch"
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		now := k.Clock.Now().UTC().Truncate(time.Second)
		sub := store.Subscription{ID: "sub_ours", CustomerID: "user_1", Email: "a@example.com", Locale: "en", Country: "*",
			PlanID: "basic-weekly", Status: "trialing", Price: 1999, Currency: "USD", CurrentPeriodStart: now.Add(-time.Hour),
			CurrentPeriodEnd: now.AddDate(0, 0, 7), Provider: "stripe", ProviderRef: sql.NullString{String: "sub_stripe", Valid: true},
			CreatedAt: now, UpdatedAt: now}
		if ok, err := s.InsertSubscription(context.Background(), s.DB, sub); err != nil || !ok {
			t.Fatalf("insert: %v %v", ok, err)
		}
		event := func(id, typ string, obj map[string]any) []byte {
			b, err := json.Marshal(map[string]any{"id": id, "object": "event", "created": now.Unix(), "type": typ,
				"data": map[string]any{"object": obj}})
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		post := func(payload []byte, key string) int {
			req := httptest.NewRequest(http.MethodPost, "/pay/webhook/stripe", strings.NewReader(string(payload)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Stripe-Signature", payment.Sign(key, payload, k.Clock.Now()))
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			return rec.Code
		}
		cancelled := event("evt_sub", "customer.subscription.updated", map[string]any{"id": "sub_stripe", "object": "subscription",
			"status": "trialing", "cancel_at_period_end": true, "metadata": map[string]any{"subscription_id": "sub_ours"}})
		if code := post(cancelled, "whsec_forged"); code != http.StatusBadRequest {
			t.Fatalf("forged delivery: %d", code)
		}
		if got, _ := s.GetSubscription(context.Background(), s.DB, "sub_ours"); got.CancelAtPeriodEnd {
			t.Fatal("a forged delivery changed the subscription")
		}
		if code := post(cancelled, secret); code != http.StatusOK {
			t.Fatalf("subscription event: %d", code)
		}
		if got, _ := s.GetSubscription(context.Background(), s.DB, "sub_ours"); !got.CancelAtPeriodEnd {
			t.Fatal("the subscription event was not applied")
		}
		// A payment's event still reaches checkout (an unknown attempt is
		// acknowledged and logged there), and an event of no interest is
		// acknowledged.
		pi := event("evt_pi", "payment_intent.succeeded", map[string]any{"id": "pi_1", "object": "payment_intent", "amount": 999,
			"currency": "usd", "status": "succeeded", "metadata": map[string]any{"attempt_id": "att_unknown"}})
		if code := post(pi, secret); code != http.StatusOK {
			t.Fatalf("payment event: %d", code)
		}
		var kind string
		if err := s.DB.Get(&kind, s.DB.Rebind(`SELECT kind FROM payment_events WHERE event_id = ?`), "evt_pi"); err != nil ||
			kind != string(payment.EventSucceeded) {
			t.Fatalf("checkout did not record the payment event: %q %v", kind, err)
		}
		other := event("evt_other", "customer.created", map[string]any{"id": "cus_1", "object": "customer"})
		if code := post(other, secret); code != http.StatusOK {
			t.Fatalf("ignored event: %d", code)
		}
	}, apptest.WithEnv(map[string]string{"PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_test_123",
		"STRIPE_WEBHOOK_SECRET": secret, "STRIPE_PUBLISHABLE_KEY": "pk_test_123"}))
}
