package subscription

import (
	"context"
	"time"
)

// Ending is what a customer's own cancel left.
type Ending struct {
	// None: nothing was left to cancel (a guest).
	None bool
	// Ended: the subscription ended at once (it was past due).
	Ended bool
	// Until is when the access ends otherwise.
	Until time.Time
}

// CancelOwn cancels the subscription that gives a customer their access
// now (Cancel): no further charge, access until the paid period ends. One
// already set to end is left as it is and answers the same end again, so
// a replayed cancel writes nothing.
func (s *Service) CancelOwn(ctx context.Context, customerID string) (Ending, error) {
	ent, err := s.Entitlement(ctx, customerID, s.now())
	if err != nil {
		return Ending{}, err
	}
	if ent.SubscriptionID == "" {
		return Ending{None: true}, nil
	}
	if ent.CancelAtPeriodEnd {
		return Ending{Until: ent.ValidUntil}, nil
	}
	sub, err := s.Cancel(ctx, customerID, ent.SubscriptionID)
	if err != nil {
		return Ending{}, err
	}
	if sub.Ended() {
		return Ending{Ended: true}, nil
	}
	return Ending{Until: sub.CurrentPeriodEnd}, nil
}
