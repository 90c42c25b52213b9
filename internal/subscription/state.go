// Package subscription sells plans that renew: a paid trial or a first
// period paid at once, renewals at each period's end, retries of a declined
// renewal, cancelling at the period's end, upgrades to premium, and what a
// customer is entitled to at a given time. It knows nothing of HTTP; its
// clock is injected so tests walk through time.
package subscription

import (
	"fmt"
	"time"

	"selfmap/internal/store"
)

// Status is a subscription's state: the store's typed status, named here
// beside the state machine that moves it (CanMove).
type Status = store.SubscriptionStatus

// The subscription states (see store.SubscriptionStatus).
const (
	Incomplete = store.SubscriptionIncomplete
	Trialing   = store.SubscriptionTrialing
	Active     = store.SubscriptionActive
	PastDue    = store.SubscriptionPastDue
	Canceled   = store.SubscriptionCanceled
	Expired    = store.SubscriptionExpired
)

// transitions lists where each state may go. A renewal paid keeps an
// active subscription active (a new period, not a move); canceled and
// expired are final.
var transitions = map[Status][]Status{
	Incomplete: {Trialing, Active, Expired},
	Trialing:   {Active, PastDue, Expired},
	Active:     {PastDue, Expired},
	PastDue:    {Active, Canceled},
}

// CanMove reports whether a subscription may go from one state to another.
func CanMove(from, to Status) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// Invoice kinds: what a charge pays for.
const (
	KindTrial   = "trial"
	KindPayNow  = "pay_now"
	KindRenewal = "renewal"
	KindUpgrade = "upgrade"
)

// Billing intervals of a plan.
const (
	Day   = "DAY"
	Week  = "WEEK"
	Month = "MONTH"
	Year  = "YEAR"
)

// AddPeriod returns the end of n billing intervals from t. Months and
// years follow the calendar (31 January plus a month is 3 March, as
// time.AddDate does). A plan with another interval, or a period below one,
// is an error in the plan's data.
func AddPeriod(t time.Time, interval string, n int) (time.Time, error) {
	if n < 1 {
		return time.Time{}, fmt.Errorf("subscription: plan period %d", n)
	}
	switch interval {
	case Day:
		return t.AddDate(0, 0, n), nil
	case Week:
		return t.AddDate(0, 0, 7*n), nil
	case Month:
		return t.AddDate(0, n, 0), nil
	case Year:
		return t.AddDate(n, 0, 0), nil
	}
	return time.Time{}, fmt.Errorf("subscription: unknown billing interval %q", interval)
}
