package packs

import (
	"testing"

	"selfmap/internal/store"
)

// A pack's step shows the card form until the pack is bought; coming back
// from paying, it says the pack was added, waits for a pending payment, or
// shows the form again with the decline.
func TestOfferState(t *testing.T) {
	order := func(s store.OrderStatus) *store.Order { return &store.Order{Status: s} }
	for _, tc := range []struct {
		name     string
		order    *store.Order
		afterPay bool
		state    State
		failed   bool
	}{
		{name: "never ordered", state: StateOffer},
		{name: "never ordered, back from paying", afterPay: true, state: StateOffer},
		{name: "ordered, not paid", order: order(store.OrderCreated), state: StateOffer},
		{name: "paid before", order: order(store.OrderPaid), state: StateOwned},
		{name: "refunded is not sold again", order: order(store.OrderRefunded), state: StateOwned},
		{name: "just paid", order: order(store.OrderPaid), afterPay: true, state: StateAdded},
		{name: "payment on its way", order: order(store.OrderPending), afterPay: true, state: StateChecking},
		{name: "pending, not back from paying", order: order(store.OrderPending), state: StateOffer},
		{name: "just declined", order: order(store.OrderFailed), afterPay: true, state: StateOffer, failed: true},
		{name: "declined earlier", order: order(store.OrderFailed), state: StateOffer},
		{name: "expired, back from paying", order: order(store.OrderExpired), afterPay: true, state: StateOffer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, failed := Offer{Order: tc.order}.State(tc.afterPay)
			if state != tc.state || failed != tc.failed {
				t.Errorf("State = %s, %v; want %s, %v", state, failed, tc.state, tc.failed)
			}
		})
	}
}

func TestOwnedNeedsAPaidOrder(t *testing.T) {
	if (Offer{}).Owned() || (Offer{Order: &store.Order{Status: store.OrderRefunded}}).Owned() || !(Offer{Order: &store.Order{Status: store.OrderPaid}}).Owned() {
		t.Fatal("Owned is not: the buyer's order of the pack is paid")
	}
}
