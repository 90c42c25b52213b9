package subscription

import (
	"context"
	"time"
)

// Tier is what a customer may use.
type Tier string

// The tiers, from least to most.
const (
	TierGuest   Tier = "guest"
	TierBasic   Tier = "basic"
	TierPremium Tier = "premium"
)

func (t Tier) rank() int {
	switch t {
	case TierBasic:
		return 1
	case TierPremium:
		return 2
	}
	return 0
}

// Entitlement is a customer's tier at a time. ValidUntil is the date to
// show: the end of the paid (or trial) period, or for a past-due
// subscription the last retry of its renewal; zero for a guest.
// PeriodStart is the start of the subscription's current billing period,
// where a Basic plan's free reports start again.
type Entitlement struct {
	Tier              Tier
	ValidUntil        time.Time
	PeriodStart       time.Time
	SubscriptionID    string
	Status            Status
	CancelAtPeriodEnd bool
}

// grace is how long past its period's end a renewing subscription keeps
// its access while the renewal and its retries run: until the last retry.
func (s *Service) grace() time.Duration {
	var d time.Duration
	for _, r := range s.retryDelays() {
		d += r
	}
	return d
}

// Entitlement says what a customer may use at a time: the best tier among
// their subscriptions that cover it. A trialing or active subscription
// covers its current period; one that renews (not cancelled) and a
// past-due one also cover the retries after it, so a card declined once
// does not cut access before its last retry. Anyone else is a guest.
func (s *Service) Entitlement(ctx context.Context, customerID string, at time.Time) (Entitlement, error) {
	best := Entitlement{Tier: TierGuest}
	subs, err := s.Store.CustomerSubscriptions(ctx, s.Store.DB, customerID)
	if err != nil {
		return best, err
	}
	for _, sub := range subs {
		until, shown := sub.CurrentPeriodEnd, sub.CurrentPeriodEnd
		switch sub.Status {
		case Trialing, Active:
			if !sub.CancelAtPeriodEnd {
				until = until.Add(s.grace())
			}
		case PastDue:
			until = until.Add(s.grace())
			shown = until
		default:
			continue
		}
		if at.Before(sub.CurrentPeriodStart) || !at.Before(until) {
			continue
		}
		plan, err := s.Store.GetPlan(ctx, s.Store.DB, sub.PlanID, sub.Country)
		if err != nil {
			return Entitlement{Tier: TierGuest}, err
		}
		e := Entitlement{Tier: Tier(plan.Tier), ValidUntil: shown, PeriodStart: sub.CurrentPeriodStart, SubscriptionID: sub.ID,
			Status: sub.Status, CancelAtPeriodEnd: sub.CancelAtPeriodEnd}
		if e.Tier.rank() > best.Tier.rank() || (e.Tier == best.Tier && e.ValidUntil.After(best.ValidUntil)) {
			best = e
		}
	}
	return best, nil
}

// Renews reports whether the plan renews at ValidUntil: a trialing or
// active subscription not cancelled. A cancelled one ends there; a
// past-due one ends there unless its renewal is paid first.
func (e Entitlement) Renews() bool {
	return e.Tier != TierGuest && !e.CancelAtPeriodEnd && (e.Status == Trialing || e.Status == Active)
}
