package store_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

func TestCataloguePricesByCountry(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		for country, want := range map[string][2]any{"KR": {"KRW", int64(1300000)}, "JP": {"JPY", int64(150000)}, "US": {"USD", int64(999)}, "ZZ": {"USD", int64(999)}} {
			p, err := s.GetSKU(ctx, s.DB, 1807, "mbti-report", country)
			if err != nil || p.Currency != want[0] || p.Amount != want[1] {
				t.Errorf("%s: %s %d, %v; want %v", country, p.Currency, p.Amount, err, want)
			}
		}
		packs, err := s.ListSKUs(ctx, s.DB, 1807, "pack", "DE")
		if err != nil || len(packs) != 3 || packs[0].Currency != "EUR" || packs[0].Step.String != "add_packs" {
			t.Fatalf("packs %+v, %v", packs, err)
		}
		if _, err := s.GetSKU(ctx, s.DB, 1807, "nope", "US"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown sku: %v", err)
		}
		if _, err := s.GetSKU(ctx, s.DB, 42, "mbti-report", "US"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("sku of another exam: %v", err)
		}
	})
}

// Ten buyers race for the last use of a promo code: one gets it.
func TestPromoLastUseIsTakenOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SavePromo(ctx, s.DB, store.Promo{Code: "LAST", Kind: "percent", Value: 10, ValidFrom: time.Now().UTC(), MaxUses: sql.NullInt64{Int64: 1, Valid: true}}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.UsePromo(ctx, s.DB, "LAST")
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					won++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		p, _ := s.GetPromo(ctx, s.DB, "LAST")
		if won != 1 || p.Uses != 1 {
			t.Fatalf("%d buyers got the last use; uses = %d", won, p.Uses)
		}
	})
}

// Ten concurrent moves of one order from pending to paid: one wins.
func TestMoveOrderIsGuardedByState(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		r := store.Result{ID: "r1", ExamID: 1807, PageCode: "BMBTI", Locale: "en", Answers: "[]", ExamVersion: "v", ItemsVersion: "i",
			NormsVersion: "n", NormGroup: "pooled", Scores: "{}", ResultCode: "INTJ-A", CreatedAt: now, UpdatedAt: now}
		o := store.Order{ID: "o1", OrderNumber: "SM1", ResultID: "r1", ExamID: 1807, Status: "created", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateResultWithOrder(ctx, s.DB, r, o); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.MoveOrder(ctx, s.DB, "o1", "created", "pending", now); !ok || err != nil {
			t.Fatalf("created -> pending: %v %v", ok, err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		for range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.MoveOrder(ctx, s.DB, "o1", "pending", "paid", now)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		got, _ := s.GetOrderByNumber(ctx, s.DB, "SM1")
		if wins != 1 || got.Status != "paid" {
			t.Fatalf("%d moves won; status %s", wins, got.Status)
		}
	})
}

// A struck-through reference price is only one that was paid: the lowest
// price of the SKU paid in its currency in the 30 days before the current
// price took effect, and only when above it. The shipped catalogue has none.
func TestReferencePriceIsOnlyAPaidOne(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		p, err := s.GetSKU(ctx, s.DB, 1807, "mbti-report", "US")
		if err != nil || p.ListAmount.Valid {
			t.Fatalf("shipped catalogue: reference %+v, %v; want none", p.ListAmount, err)
		}
		hk, err := s.GetSKU(ctx, s.DB, 1807, "mbti-pack-growth", "HK")
		if err != nil || hk.Currency != "HKD" {
			t.Fatalf("a pack in Hong Kong: %s %d, %v; want HKD", hk.Currency, hk.Amount, err)
		}
		change := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		paid := func(id string, at time.Time, subtotal int64, currency string) {
			r := store.Result{ID: "r" + id, ExamID: 1807, PageCode: "BMBTI", Locale: "en", Answers: "[]", ExamVersion: "v", ItemsVersion: "i",
				NormsVersion: "n", NormGroup: "pooled", Scores: "{}", ResultCode: "INTJ-A", CreatedAt: at, UpdatedAt: at}
			o := store.Order{ID: "o" + id, OrderNumber: "SM" + id, ResultID: r.ID, ExamID: 1807, Status: "paid", CreatedAt: at, UpdatedAt: at}
			if err := s.CreateResultWithOrder(ctx, s.DB, r, o); err != nil {
				t.Fatal(err)
			}
			if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE orders SET sku_id = 'mbti-report', currency = ?, subtotal = ?, total = ? WHERE id = ?`),
				currency, subtotal, subtotal, o.ID); err != nil {
				t.Fatal(err)
			}
		}
		paid("1", change.Add(-40*24*time.Hour), 1999, "USD") // before the window
		paid("2", change.Add(-20*24*time.Hour), 2999, "USD")
		paid("3", change.Add(-10*24*time.Hour), 2499, "USD") // the lowest in the window
		paid("4", change.Add(-5*24*time.Hour), 1500, "EUR")  // another currency
		paid("5", change.Add(24*time.Hour), 999, "USD")      // after the change
		if err := s.SetPrice(ctx, s.DB, "mbti-report", "*", "USD", 999, change); err != nil {
			t.Fatal(err)
		}
		p, err = s.GetSKU(ctx, s.DB, 1807, "mbti-report", "ZZ")
		if err != nil || p.Amount != 999 || !p.ListAmount.Valid || p.ListAmount.Int64 != 2499 {
			t.Fatalf("after a reduction: %d, reference %+v, %v; want 999 and 2499", p.Amount, p.ListAmount, err)
		}
		// No sale in the 30 days before a change: nothing to strike through.
		if err := s.SetPrice(ctx, s.DB, "mbti-report", "*", "USD", 899, change.Add(-60*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if p, _ = s.GetSKU(ctx, s.DB, 1807, "mbti-report", "ZZ"); p.ListAmount.Valid {
			t.Errorf("no sale before the change: reference %+v", p.ListAmount)
		}
		if err := s.SetPrice(ctx, s.DB, "mbti-report", "*", "usd", 999, change); err == nil {
			t.Error("a price in currency 'usd' was taken")
		}
		if err := s.CheckPrices(ctx, s.DB); err != nil {
			t.Errorf("the shipped catalogue: %v", err)
		}
		if _, err := s.DB.ExecContext(ctx, `UPDATE sku_prices SET currency = '' WHERE sku_id = 'mbti-pack-career' AND country = 'HK'`); err != nil {
			t.Fatal(err)
		}
		if err := s.CheckPrices(ctx, s.DB); err == nil || !strings.Contains(err.Error(), "mbti-pack-career in HK (table sku_prices)") {
			t.Errorf("a price without a currency: %v", err)
		}
	})
}

// Only a reference above the current amount is a reduction to strike
// through.
func TestPriceReduced(t *testing.T) {
	for _, tc := range []struct {
		list sql.NullInt64
		want int64
		ok   bool
	}{
		{sql.NullInt64{}, 0, false},
		{sql.NullInt64{Int64: 999, Valid: true}, 0, false},
		{sql.NullInt64{Int64: 500, Valid: true}, 0, false},
		{sql.NullInt64{Int64: 2499, Valid: true}, 2499, true},
	} {
		got, ok := store.Price{Amount: 999, ListAmount: tc.list}.Reduced()
		if got != tc.want || ok != tc.ok {
			t.Errorf("reference %+v: Reduced() = %d, %v; want %d, %v", tc.list, got, ok, tc.want, tc.ok)
		}
	}
}
