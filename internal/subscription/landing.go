package subscription

import (
	"context"

	"selfmap/internal/geo"
	"selfmap/internal/store"
)

// LandingInput is what the subscription landing is asked to show: the plan
// chosen ("" for the first) and the promo code typed.
type LandingInput struct {
	Visitor
	PlanID string
	Promo  string
}

// Landing is the subscription landing as the server decides it: the plans
// priced for the visitor, which is chosen, whether trials are offered,
// the report offer's countdown and the first charge of the chosen plan.
type Landing struct {
	Plans []Offer
	// Chosen is the plan asked for, else the first; zero when there are
	// no plans.
	Chosen Offer
	// TrialsOffered: the customer never paid for a trial and their
	// report's offer, if any, has not ended; the plans then start with
	// their trials.
	TrialsOffered bool
	// Trial is whether the chosen plan starts with its trial; TrialUsed
	// whether it has one the customer already had.
	Trial, TrialUsed bool
	// ReportOffer is the countdown of the newest unpaid report; nil when
	// there is none.
	ReportOffer *ReportOffer
	// Live is the customer's subscription still running, if any.
	Live *Subscription
	// Country prices the plans; AskPostal is whether its cards have a
	// postal code.
	Country   string
	AskPostal bool
	// Stripe is whether the card is typed into Stripe's own element.
	Stripe bool
	// Promo is the code kept on the form ("" with Stripe, which bills its
	// own prices); PromoError the message id of a code refused.
	Promo      string
	PromoError string
	// Quote is the chosen plan's first charge, with the promo when it
	// applies.
	Quote Quote
	// PayNow is what paying now charges for the chosen plan's first full
	// period (the same as Quote when the trial is not offered), so the
	// button that skips the trial can say it.
	PayNow Quote
}

// Landing reads the subscription landing for a visitor. The trial is
// offered once per customer, and for a report only until its offer ends;
// the plans then read as pay now.
func (s *Service) Landing(ctx context.Context, in LandingInput) (Landing, error) {
	now := s.now()
	used, err := s.Store.HadTrial(ctx, s.Store.DB, in.CustomerID, in.Email)
	if err != nil {
		return Landing{}, err
	}
	v := s.look(ctx, in.Visitor, now, true)
	plans, err := s.Store.ListPlans(ctx, s.Store.DB, v.country)
	if err != nil {
		return Landing{}, err
	}
	l := Landing{Plans: offers(plans, now), TrialsOffered: !used && v.trialsOffered(), Country: v.country,
		AskPostal: geo.UsesPostalCode(v.country), Stripe: s.stripeCards(), Promo: in.Promo}
	l.Chosen = chosen(l.Plans, in.PlanID)
	l.Trial, l.TrialUsed = l.Chosen.HasTrial() && l.TrialsOffered, l.Chosen.HasTrial() && used
	if v.hasOffer {
		l.ReportOffer = &v.offer
	}
	if l.Live, err = s.live(ctx, in.CustomerID); err != nil {
		return Landing{}, err
	}
	if l.Stripe {
		// Stripe bills its own prices: no promo code is offered or priced.
		l.Promo = ""
	}
	if l.Quote, l.PromoError, err = s.quote(ctx, l.Chosen.PricedPlan, l.Promo, !l.Trial); err != nil {
		return Landing{}, err
	}
	l.PayNow = l.Quote
	if l.Trial {
		if l.PayNow, _, err = s.quote(ctx, l.Chosen.PricedPlan, l.Promo, true); err != nil {
			return Landing{}, err
		}
	}
	return l, nil
}

// chosen is the plan of id among plans, else the first; zero when there
// are none.
func chosen(plans []Offer, id string) Offer {
	for _, p := range plans {
		if p.ID == id {
			return p
		}
	}
	if len(plans) > 0 {
		return plans[0]
	}
	return Offer{}
}

// quote prices a plan's first charge with a promo code. A code refused
// (unknown, or outside its dates) is named by its message id and the
// charge priced without it.
func (s *Service) quote(ctx context.Context, plan PricedPlan, code string, payNow bool) (Quote, string, error) {
	now := s.now()
	var promo *store.PlanPromo
	refused := ""
	if code != "" && plan.ID != "" {
		var err error
		if promo, err = FindPromo(ctx, s.Store, code, plan.ID); err != nil {
			if refused, err = refusalID(err); err != nil {
				return Quote{}, "", err
			}
		}
	}
	q, err := FirstCharge(plan, promo, payNow, now)
	if err != nil {
		if refused, err = refusalID(err); err != nil {
			return Quote{}, "", err
		}
		q, _ = FirstCharge(plan, nil, payNow, now)
	}
	return q, refused, nil
}

// live is the customer's subscription that is still running (incomplete,
// trialing, active or past due), nil when there is none.
func (s *Service) live(ctx context.Context, customerID string) (*Subscription, error) {
	subs, err := s.Store.CustomerSubscriptions(ctx, s.Store.DB, customerID)
	if err != nil {
		return nil, err
	}
	for i := range subs {
		if subs[i].Live() {
			return &subs[i], nil
		}
	}
	return nil, nil
}
