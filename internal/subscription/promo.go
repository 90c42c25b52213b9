package subscription

import (
	"context"
	"errors"
	"strings"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/store"
)

// Errors of a promo code, shown beside the field.
var (
	ErrPromoUnknown = apperr.BadRequest("sub.promo.unknown", nil)
	ErrPromoExpired = apperr.BadRequest("sub.promo.expired", nil)
)

// Quote is what a plan's first charge costs, as the server prices it: the
// trial price of a trial, or the plan's price for "pay now", less a promo
// code's percentage.
type Quote struct {
	PlanID   string
	Currency string
	// Trial is true when the first charge is the trial price.
	Trial bool
	// List is the first charge before the promo; Amount is what is charged.
	List, Discount, Amount int64
	Promo                  string
}

// NormalizePromo is a typed code as it is looked up: trimmed, upper case.
func NormalizePromo(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

// FindPromo reads a promo code of a plan. A code that is malformed or that
// the plan does not have answers ErrPromoUnknown.
func FindPromo(ctx context.Context, st *store.Store, code, planID string) (*store.PlanPromo, error) {
	code = NormalizePromo(code)
	if code == "" || len(code) > 32 || strings.Trim(code, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
		return nil, ErrPromoUnknown
	}
	p, err := st.GetPlanPromo(ctx, st.DB, code, planID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrPromoUnknown
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// FirstCharge prices the first charge of a plan, with a promo when one is
// given. A promo outside its dates answers ErrPromoExpired.
func FirstCharge(plan store.PricedPlan, promo *store.PlanPromo, payNow bool, now time.Time) (Quote, error) {
	q := Quote{PlanID: plan.ID, Currency: plan.Currency, List: plan.Price}
	if !payNow && plan.HasTrial() {
		q.Trial, q.List = true, plan.TrialPrice.Int64
	}
	q.Amount = q.List
	if promo == nil {
		return q, nil
	}
	today := now.UTC().Format(time.DateOnly)
	if today < promo.StartsOn || (promo.EndsOn.Valid && today >= promo.EndsOn.String) {
		return Quote{}, ErrPromoExpired
	}
	q.Promo = promo.Code
	q.Discount = (q.List*promo.PercentOff + 50) / 100
	q.Amount = q.List - q.Discount
	return q, nil
}

// promoAmount is the first charge of a plan with a promo code.
func (s *Service) promoAmount(ctx context.Context, code string, plan store.PricedPlan, payNow bool, now time.Time) (int64, error) {
	promo, err := FindPromo(ctx, s.Store, code, plan.ID)
	if err != nil {
		return 0, err
	}
	q, err := FirstCharge(plan, promo, payNow, now)
	return q.Amount, err
}
