package payment_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// A saved card is charged once per idempotency key; its outcome follows the
// test number and the expiry; the number is not kept.
func TestSandboxSavedCards(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 5, 20, 12, 0, 0, 0, time.UTC)
		sb := storetest.Sandbox(s, func() time.Time { return now })
		if _, err := sb.SaveCard(ctx, payment.Card{Number: "4242424242424242"}); !errors.Is(err, payment.ErrCardExpiry) {
			t.Fatalf("a card without expiry was saved: %v", err)
		}
		good, err := sb.SaveCard(ctx, payment.Card{Number: "4242424242424242", ExpMonth: 5, ExpYear: 2026})
		if err != nil {
			t.Fatal(err)
		}
		if good.Brand != "visa" || good.Last4 != "4242" {
			t.Fatalf("saved %+v", good)
		}
		var numbers int
		if err := s.DB.Get(&numbers, `SELECT COUNT(*) FROM sandbox_payment_methods WHERE last4 <> '4242' OR ref LIKE '%4242424242%'`); err != nil || numbers != 0 {
			t.Fatalf("more than the last four digits kept: %d %v", numbers, err)
		}
		req := payment.Request{AttemptID: "inv1", Amount: 1999, Currency: "USD", IdempotencyKey: "k1"}
		c1, err := sb.ChargeSaved(ctx, good.Ref, req)
		if err != nil || c1.State != payment.StateSucceeded {
			t.Fatalf("charge: %+v %v", c1, err)
		}
		c2, err := sb.ChargeSaved(ctx, good.Ref, req)
		if err != nil || c2 != c1 {
			t.Fatalf("the same key charged again: %+v %v", c2, err)
		}
		if _, err := sb.ChargeSaved(ctx, good.Ref, payment.Request{AttemptID: "inv1", Amount: 100, Currency: "USD", IdempotencyKey: "k1"}); !errors.Is(err, payment.ErrIdempotencyMismatch) {
			t.Fatalf("a key reused for another amount: %v", err)
		}
		now = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
		if c, err := sb.ChargeSaved(ctx, good.Ref, payment.Request{Amount: 1999, Currency: "USD", IdempotencyKey: "k2"}); err != nil ||
			c.State != payment.StateFailed || c.FailureCode != "expired_card" {
			t.Fatalf("an expired card: %+v %v", c, err)
		}
		master, err := sb.SaveCard(ctx, payment.Card{Number: "5555555555554444", ExpMonth: 12, ExpYear: 2030})
		if err != nil || master.Brand != "mastercard" || master.Last4 != "4444" {
			t.Fatalf("the Mastercard test number: %+v %v", master, err)
		}
		for _, key := range []string{"m1", "m2"} {
			if c, err := sb.ChargeSaved(ctx, master.Ref, payment.Request{Amount: 1999, Currency: "USD", IdempotencyKey: key}); err != nil ||
				c.State != payment.StateSucceeded {
				t.Fatalf("the Mastercard test number, charge %s: %+v %v", key, c, err)
			}
		}
		for number, code := range map[string]string{"4000000000000341": "card_declined", "4000000000009995": "insufficient_funds",
			"4000002760003184": "authentication_required", "4111111111111111": "card_not_supported"} {
			m, err := sb.SaveCard(ctx, payment.Card{Number: number, ExpMonth: 12, ExpYear: 2030})
			if err != nil {
				t.Fatal(err)
			}
			if c, err := sb.ChargeSaved(ctx, m.Ref, payment.Request{Amount: 1999, Currency: "USD", IdempotencyKey: "k-" + number}); err != nil ||
				c.State != payment.StateFailed || c.FailureCode != code {
				t.Fatalf("%s: %+v %v", number, c, err)
			}
		}
	})
}
