package store_test

import (
	"context"
	"testing"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// Every report on sale is priced wherever the 16-type report is, in the
// same currency and not above it: a visitor who sees one report in yen
// never sees another in dollars.
func TestEveryReportPricedWhereThe16TypeIs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var reference []store.Price
		if err := s.DB.SelectContext(ctx, &reference, `SELECT sku_id, country, currency, amount FROM sku_prices WHERE sku_id = 'mbti-report' ORDER BY country`); err != nil {
			t.Fatal(err)
		}
		if len(reference) < 2 {
			t.Fatalf("the 16-type report has %d prices", len(reference))
		}
		var reports []string
		if err := s.DB.SelectContext(ctx, &reports, `SELECT id FROM skus WHERE kind = 'report' AND active = 1 ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"deps-report", "ydgx-report"} {
			found := false
			for _, id := range reports {
				found = found || id == want
			}
			if !found {
				t.Errorf("no report SKU %s in %v", want, reports)
			}
		}
		for _, id := range reports {
			sku, err := s.SKUByID(ctx, s.DB, id)
			if err != nil {
				t.Fatal(err)
			}
			for _, ref := range reference {
				p, err := s.GetSKU(ctx, s.DB, sku.ExamID, id, ref.Country)
				switch {
				case err != nil:
					t.Errorf("%s in %s: %v", id, ref.Country, err)
				case p.Country != ref.Country || p.Currency != ref.Currency:
					t.Errorf("%s in %s: priced as %s in %s; want a price of its own in %s", id, ref.Country, p.Country, p.Currency, ref.Currency)
				case p.Amount <= 0 || p.Amount > ref.Amount:
					t.Errorf("%s in %s: %d %s; want a positive price not above the 16-type's %d", id, ref.Country, p.Amount, p.Currency, ref.Amount)
				}
			}
		}
	})
}
