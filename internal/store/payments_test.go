package store_test

import (
	"testing"

	"selfmap/internal/store"
)

// Every stored order status answers Paid, Bought and Unpaid as the payment
// screens read them: paid unlocks; paid or refunded is not sold again;
// created, failed and expired have no payment on its way.
func TestOrderStatusQuestions(t *testing.T) {
	for _, tc := range []struct {
		status               store.OrderStatus
		paid, bought, unpaid bool
	}{
		{status: store.OrderCreated, unpaid: true},
		{status: store.OrderPending},
		{status: store.OrderPaid, paid: true, bought: true},
		{status: store.OrderFailed, unpaid: true},
		{status: store.OrderExpired, unpaid: true},
		{status: store.OrderRefunded, bought: true},
	} {
		o := store.Order{Status: tc.status}
		if o.Paid() != tc.paid || o.Bought() != tc.bought || o.Unpaid() != tc.unpaid {
			t.Errorf("%s: Paid %v, Bought %v, Unpaid %v; want %v, %v, %v", tc.status, o.Paid(), o.Bought(), o.Unpaid(), tc.paid, tc.bought, tc.unpaid)
		}
	}
}
