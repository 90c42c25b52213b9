package subscription

import (
	"context"
)

// Stage is where a subscription just started or upgraded stands, as its
// check page shows it.
type Stage string

// The stages of the check page.
const (
	// StagePending: the first charge is not settled yet; look again.
	StagePending Stage = "pending"
	// StageAuthenticate: the bank asks the customer to authenticate the
	// first payment (CheckView.ClientSecret).
	StageAuthenticate Stage = "authenticate"
	// StageSuccess: trialing, active or past due.
	StageSuccess Stage = "success"
	// StageEnded: over, after a cancel or the last declined renewal.
	StageEnded Stage = "ended"
	// StageDeclined: ended by a declined first charge (no invoice was
	// ever paid); CheckView.DeclineReason says why.
	StageDeclined Stage = "declined"
)

// CheckView is a customer's subscription as its check page shows it.
type CheckView struct {
	Subscription Subscription
	Stage        Stage
	// Tier is the tier of the subscription's plan ("" when the plan is
	// gone); set at StageSuccess.
	Tier Tier
	// ClientSecret lets the customer's browser authenticate the first
	// payment at StageAuthenticate.
	ClientSecret string
	// Charged is the newest paid invoice, nil when none was paid;
	// ChargedTrial whether it paid for the trial.
	Charged      *Invoice
	ChargedTrial bool
	// Outcome is what the newest paid charge did, at StageSuccess: the
	// invoice kind (KindTrial, KindPayNow, KindUpgrade, KindRenewal), ""
	// when none was paid.
	Outcome string
	// Plan is the subscription's plan at the subscription's own price and
	// currency (fixed when it started or upgraded), for "then X every
	// period"; zero when the plan is gone.
	Plan Offer
	// TrialCut is whether an upgrade ended the trial early (else it
	// replaced a paid period).
	TrialCut bool
	// CanUpgrade is whether the plan may still be upgraded to premium.
	CanUpgrade bool
	// DeclineReason is the message id of why the first charge was
	// declined, at StageDeclined.
	DeclineReason string
}

// Check reads a customer's subscription id for its check page; another
// customer's answers ErrNotFound, as a missing one.
func (s *Service) Check(ctx context.Context, customerID, id string) (CheckView, error) {
	sub, err := s.owned(ctx, customerID, id)
	if err != nil {
		return CheckView{}, err
	}
	invs, err := s.Store.SubscriptionInvoices(ctx, s.Store.DB, sub.ID)
	if err != nil {
		return CheckView{}, err
	}
	v := CheckView{Subscription: sub}
	switch st := sub.Status; {
	case st == Incomplete:
		v.Stage = StagePending
		if v.ClientSecret = s.pendingSecret(ctx, sub); v.ClientSecret != "" {
			v.Stage = StageAuthenticate
		}
	case st.Live():
		v.Stage, v.Plan = StageSuccess, s.pricedAsSubscribed(ctx, sub)
		v.Tier = Tier(v.Plan.Tier)
		v.Charged = lastPaid(invs)
		if paid := v.Charged; paid != nil {
			v.Outcome, v.ChargedTrial = paid.Kind, paid.Kind == KindTrial
			v.TrialCut = paid.Kind == KindUpgrade && sub.TrialEnd.Valid && !sub.TrialEnd.Time.Before(paid.PeriodStart)
		}
		v.CanUpgrade = v.Tier != TierPremium && st != PastDue
	default:
		v.Stage = StageEnded
		if lastPaid(invs) == nil {
			v.Stage, v.DeclineReason = StageDeclined, declineReasonOf(invs)
		}
	}
	return v, nil
}

// pendingSecret is the client secret of a start's first payment that
// waits for the customer's authentication, "" when nothing waits for them.
// The provider is asked on each view; when it cannot answer, the page goes
// on waiting (and asks again at its next refresh).
func (s *Service) pendingSecret(ctx context.Context, sub Subscription) string {
	if !sub.ProviderRef.Valid {
		return ""
	}
	secret, err := s.PendingAction(ctx, sub.CustomerID, sub.ID)
	if err != nil {
		s.Logger.WarnContext(ctx, "subscription: reading a start's pending authentication", "subscription", sub.ID, "err", err)
		return ""
	}
	return secret
}

// planTier is the tier of a subscription's plan ("" when the plan is gone).
func (s *Service) planTier(ctx context.Context, sub Subscription) Tier {
	p, err := s.Store.GetPlan(ctx, s.Store.DB, sub.PlanID, sub.Country)
	if err != nil {
		return ""
	}
	return Tier(p.Tier)
}

// pricedAsSubscribed is a subscription's plan at the subscription's price
// and currency; zero when the plan is gone.
func (s *Service) pricedAsSubscribed(ctx context.Context, sub Subscription) Offer {
	p, err := s.Store.GetPlan(ctx, s.Store.DB, sub.PlanID, sub.Country)
	if err != nil {
		return Offer{}
	}
	p.Price, p.Currency = sub.Price, sub.Currency
	return offers([]PricedPlan{p}, s.now())[0]
}

// lastPaid is the newest paid invoice of a subscription's invoices (in
// the order the store lists them), nil when none was paid.
func lastPaid(invs []Invoice) *Invoice {
	var paid *Invoice
	for i := range invs {
		if invs[i].Paid() {
			paid = &invs[i]
		}
	}
	return paid
}
