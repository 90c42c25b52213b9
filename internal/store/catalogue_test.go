package store_test

import (
	"context"
	"database/sql"
	"errors"
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
			p, err := s.GetSKU(ctx, 1807, "mbti-report", country)
			if err != nil || p.Currency != want[0] || p.Amount != want[1] {
				t.Errorf("%s: %s %d, %v; want %v", country, p.Currency, p.Amount, err, want)
			}
		}
		packs, err := s.ListSKUs(ctx, 1807, "pack", "DE")
		if err != nil || len(packs) != 3 || packs[0].Currency != "EUR" || packs[0].Step.String != "add_packs" {
			t.Fatalf("packs %+v, %v", packs, err)
		}
		if _, err := s.GetSKU(ctx, 1807, "nope", "US"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown sku: %v", err)
		}
		if _, err := s.GetSKU(ctx, 42, "mbti-report", "US"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("sku of another exam: %v", err)
		}
	})
}

// Ten buyers race for the last use of a promo code: one gets it.
func TestPromoLastUseIsTakenOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SavePromo(ctx, store.Promo{Code: "LAST", Kind: "percent", Value: 10, ValidFrom: time.Now().UTC(), MaxUses: sql.NullInt64{Int64: 1, Valid: true}}); err != nil {
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
		p, _ := s.GetPromo(ctx, "LAST")
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
		if err := s.CreateResultWithOrder(ctx, r, o); err != nil {
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
		got, _ := s.GetOrderByNumber(ctx, "SM1")
		if wins != 1 || got.Status != "paid" {
			t.Fatalf("%d moves won; status %s", wins, got.Status)
		}
	})
}
