package subscription

import (
	"context"
	"errors"
	"time"

	"selfmap/internal/store"
)

// UpgradeView is what the upgrade page offers a customer: their running
// subscription's plan and the premium plan priced for its country.
type UpgradeView struct {
	// Live is the customer's running subscription; nil when they have
	// none (there is nothing to upgrade).
	Live *Subscription
	// Tier is the tier of Live's plan ("" when the plan is gone).
	Tier Tier
	// Premium is the premium plan priced for Live's country; zero when
	// that country has none (NoPremium).
	Premium   Offer
	NoPremium bool
	// What confirming does, as the page says before the customer does:
	// Today is when Premium's price is charged, to Card (brand and last
	// four, "" when the provider told neither); Trialing is whether Live's
	// trial ends then (else its paid period); RenewsOn is the end of the
	// first Premium period, when Premium's price is charged again.
	Today    time.Time
	Card     string
	Trialing bool
	RenewsOn time.Time
}

// UpgradeOffer reads what the upgrade page offers a customer.
func (s *Service) UpgradeOffer(ctx context.Context, customerID string) (UpgradeView, error) {
	live, err := s.live(ctx, customerID)
	if err != nil || live == nil {
		return UpgradeView{}, err
	}
	now := s.now()
	v := UpgradeView{Live: live, Tier: s.planTier(ctx, *live), Today: now, Card: CardLabel(*live), Trialing: live.Status == Trialing}
	plans, err := s.Store.ListPlans(ctx, s.Store.DB, live.Country)
	if err != nil {
		return UpgradeView{}, err
	}
	for _, p := range offers(plans, now) {
		if Tier(p.Tier) == TierPremium {
			v.Premium = p
			if v.RenewsOn, err = AddPeriod(now, p.Interval, p.Period); err != nil {
				return UpgradeView{}, err
			}
			return v, nil
		}
	}
	v.NoPremium = true
	return v, nil
}

// UpgradeLive moves a customer's running subscription to the premium plan
// planID (see Upgrade). No running subscription answers ErrNotFound, a
// plan that is not premium ErrNoPremiumPlan, and another charge still in
// flight ErrUpgradeFailed.
func (s *Service) UpgradeLive(ctx context.Context, customerID, planID string) (Subscription, error) {
	live, err := s.live(ctx, customerID)
	if err != nil {
		return Subscription{}, err
	}
	if live == nil {
		return Subscription{}, ErrNotFound
	}
	if plan, err := s.Store.GetPlan(ctx, s.Store.DB, planID, live.Country); err != nil || Tier(plan.Tier) != TierPremium {
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return Subscription{}, err
		}
		return Subscription{}, ErrNoPremiumPlan
	}
	sub, err := s.Upgrade(ctx, customerID, live.ID, planID)
	if errors.Is(err, ErrBusy) {
		return Subscription{}, ErrUpgradeFailed
	}
	return sub, err
}
