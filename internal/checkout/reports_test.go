package checkout_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"selfmap/internal/checkout"
	"selfmap/internal/ids"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// addExamFlow stores a result of an exam, priced in country, and its
// report order number.
func (f *fixture) addExamFlow(t *testing.T, examID int, code, country, number string) string {
	t.Helper()
	r := store.Result{ID: ids.New(), ExamID: examID, PageCode: code, Locale: "ja", Answers: "[]", ExamVersion: "v", ItemsVersion: "i",
		NormsVersion: "n", NormGroup: "pooled", Scores: "{}", ResultCode: "7", CreatedAt: f.now, UpdatedAt: f.now,
		Email: sql.NullString{String: "d@example.com", Valid: true}, Country: sql.NullString{String: country, Valid: country != ""}}
	o := store.Order{ID: "order-" + number, OrderNumber: number, ResultID: r.ID, ExamID: examID, Status: store.OrderCreated, CreatedAt: f.now, UpdatedAt: f.now}
	if err := f.s.CreateResultWithOrder(context.Background(), f.s.DB, r, o); err != nil {
		t.Fatal(err)
	}
	return r.ID
}

// A result's report is the report its exam sells: a depression screen is
// priced and paid as deps-report, in the buyer's currency, and the 16-type
// report cannot pay for it.
func TestEachExamSellsItsOwnReport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		for _, tc := range []struct {
			exam          int
			code, country string
			sku, currency string
			amount        int64
		}{
			{2001, "BDEPS", "JP", "deps-report", "JPY", 80000},
			{2002, "BYDGX", "", "ydgx-report", "USD", 499},
			{1807, "BMBTI", "DE", "mbti-report", "EUR", 999},
		} {
			number := "SM" + tc.code
			id := f.addExamFlow(t, tc.exam, tc.code, tc.country, number)
			p, err := f.svc.Payment(ctx, id, "", mine)
			if err != nil || p.Quote.SKUID != tc.sku || p.Quote.Currency != tc.currency || p.Quote.Total != tc.amount {
				t.Errorf("exam %d: quote %+v, %v; want %s %s %d", tc.exam, p.Quote, err, tc.sku, tc.currency, tc.amount)
			}
			if tc.exam == 1807 {
				continue
			}
			if _, err := f.svc.Create(ctx, checkout.CreateInput{OrderNumber: number, SKUID: "mbti-report", Email: "d@example.com"}, mine); err == nil {
				t.Errorf("exam %d: the 16-type report paid its order", tc.exam)
			}
			c, err := f.svc.Create(ctx, checkout.CreateInput{OrderNumber: number, SKUID: tc.sku, Email: "d@example.com"}, mine)
			if err != nil {
				t.Fatalf("exam %d: %v", tc.exam, err)
			}
			f.startAndPay(t, c, "4242424242424242")
			o, err := s.GetOrderByNumber(ctx, s.DB, number)
			if err != nil || !o.Paid() || o.SKUID.String != tc.sku || o.Total != tc.amount {
				t.Errorf("exam %d: order %+v, %v", tc.exam, o, err)
			}
		}
	})
}

// An exam with no report on sale has nothing to price.
func TestReportSKUOfAnExamWithoutOne(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		if _, err := f.svc.ReportSKU(context.Background(), 4242, "US"); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("exam without a report: %v", err)
		}
	})
}
