package storetest

import (
	"context"
	"net/http"
	"testing"
	"time"

	"selfmap/internal/payment"
	"selfmap/internal/store"
)

// SandboxSecret signs the events of a Sandbox made here, so a test can sign
// a delivery of its own (a replay, a stale signature).
const SandboxSecret = "whsec_test"

// Sandbox is the built-in payment provider over a test database, on the
// test's clock. It delivers its events nowhere: charges of saved cards
// (subscriptions) need no webhook, and a test of card payments points
// Deliver at the service that receives them. The app's own sandbox is
// apptest's Kit.Sandbox; this one is for a service tested without the app
// (the store's kit cannot import the services whose tests use it).
func Sandbox(st *store.Store, now func() time.Time) *payment.Sandbox {
	return &payment.Sandbox{Store: st, Secret: SandboxSecret, Now: now,
		Deliver: func(context.Context, []byte, http.Header) error { return nil }}
}

// GoodCard saves the sandbox's test card that always succeeds (4242 4242
// 4242 4242), good until three years after the sandbox's clock.
func GoodCard(t testing.TB, sb *payment.Sandbox) payment.SavedCard {
	t.Helper()
	card, err := sb.SaveCard(context.Background(), payment.Card{Number: "4242424242424242", ExpMonth: 12, ExpYear: sb.Now().Year() + 3})
	if err != nil {
		t.Fatalf("storetest: save the sandbox's good card: %v", err)
	}
	return card
}
