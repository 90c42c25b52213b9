package subscription_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

func TestFirstChargeWithPromo(t *testing.T) {
	basic := store.PricedPlan{Plan: store.Plan{ID: "basic-weekly", TrialDays: 7}, Currency: "USD", Price: 1999,
		TrialPrice: sql.NullInt64{Int64: 149, Valid: true}}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	welcome := &store.PlanPromo{Code: "WELCOME20", PercentOff: 20, StartsOn: "2026-01-01"}
	for _, tc := range []struct {
		name                   string
		promo                  *store.PlanPromo
		payNow                 bool
		trial                  bool
		list, discount, amount int64
		err                    error
	}{
		{"trial", nil, false, true, 149, 0, 149, nil},
		{"pay now", nil, true, false, 1999, 0, 1999, nil},
		{"trial with 20%", welcome, false, true, 149, 30, 119, nil},
		{"pay now with 20%", welcome, true, false, 1999, 400, 1599, nil},
		{"not started", &store.PlanPromo{PercentOff: 10, StartsOn: "2026-11-23"}, true, false, 0, 0, 0, subscription.ErrPromoExpired},
		{"ended", &store.PlanPromo{PercentOff: 10, StartsOn: "2026-06-01", EndsOn: sql.NullString{String: "2026-11-22", Valid: true}}, true, false,
			0, 0, 0, subscription.ErrPromoExpired},
		{"last day", &store.PlanPromo{Code: "X", PercentOff: 10, StartsOn: "2026-06-01", EndsOn: sql.NullString{String: "2026-11-23", Valid: true}},
			true, false, 1999, 200, 1799, nil},
	} {
		q, err := subscription.FirstCharge(basic, tc.promo, tc.payNow, now)
		if !errors.Is(err, tc.err) || q.Trial != tc.trial || q.List != tc.list || q.Discount != tc.discount || q.Amount != tc.amount {
			t.Errorf("%s: %+v %v", tc.name, q, err)
		}
	}
	// A plan without a trial is priced as pay now either way.
	premium := store.PricedPlan{Plan: store.Plan{ID: "premium-monthly"}, Currency: "USD", Price: 3999}
	if q, _ := subscription.FirstCharge(premium, nil, false, now); q.Trial || q.Amount != 3999 {
		t.Errorf("premium: %+v", q)
	}
}

func TestFindPromo(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		p, err := subscription.FindPromo(ctx, s, " welcome20 ", "premium-monthly")
		if err != nil || p.Code != "WELCOME20" || p.PercentOff != 20 || p.EndsOn.Valid {
			t.Fatalf("WELCOME20: %+v %v", p, err)
		}
		for _, tc := range []struct{ code, plan string }{{"SUMMER26", "premium-monthly"}, {"NOPE", "basic-weekly"}, {"WELCOME20;--", "basic-weekly"},
			{"A234567890123456789012345678901234", "basic-weekly"}} {
			if _, err := subscription.FindPromo(ctx, s, tc.code, tc.plan); !errors.Is(err, subscription.ErrPromoUnknown) {
				t.Errorf("%s on %s: %v", tc.code, tc.plan, err)
			}
		}
		summer, err := subscription.FindPromo(ctx, s, "summer26", "basic-weekly")
		if err != nil || summer.EndsOn.String != "2026-09-01" {
			t.Fatalf("SUMMER26: %+v %v", summer, err)
		}
	})
}
