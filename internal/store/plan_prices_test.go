package store_test

import (
	"context"
	"testing"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// Every country with a report or pack price has its plans priced in the
// same currency: a member never sees the report in yen and the plans in
// dollars (issue 16).
func TestPlansPricedInTheCataloguesCurrency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var prices []struct {
			Country  string `db:"country"`
			Currency string `db:"currency"`
		}
		if err := s.DB.SelectContext(ctx, &prices, `SELECT DISTINCT country, currency FROM sku_prices ORDER BY country, currency`); err != nil {
			t.Fatal(err)
		}
		if len(prices) < 10 {
			t.Fatalf("only %d catalogue countries: %+v", len(prices), prices)
		}
		plans, err := s.ListPlans(ctx, s.DB, "*")
		if err != nil || len(plans) == 0 {
			t.Fatalf("plans: %v, %v", plans, err)
		}
		for _, p := range prices {
			for _, plan := range plans {
				got, err := s.GetPlan(ctx, s.DB, plan.ID, p.Country)
				if err != nil {
					t.Errorf("%s in %s: %v", plan.ID, p.Country, err)
					continue
				}
				if got.Currency != p.Currency {
					t.Errorf("%s in %s is priced in %s, the catalogue in %s", plan.ID, p.Country, got.Currency, p.Currency)
				}
				if got.HasTrial() != plan.HasTrial() {
					t.Errorf("%s in %s: trial %v, elsewhere %v", plan.ID, p.Country, got.HasTrial(), plan.HasTrial())
				}
			}
		}
		listed, err := s.ListPlans(ctx, s.DB, "JP")
		if err != nil || len(listed) != len(plans) {
			t.Fatalf("JP plans: %+v, %v", listed, err)
		}
		for _, p := range listed {
			if p.Currency != "JPY" || p.Price%100 != 0 || (p.TrialPrice.Valid && p.TrialPrice.Int64%100 != 0) {
				t.Errorf("JP %s: %s %d (trial %v): want whole yen", p.ID, p.Currency, p.Price, p.TrialPrice)
			}
		}
	})
}
