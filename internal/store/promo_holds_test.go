package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// Ten payments start at once, on ten orders, with the last use of a code:
// one holds it and the others are refused before any of them starts. The
// hold no longer counts once it runs out.
func TestPromoLastUseIsHeldOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		if err := s.SavePromo(ctx, s.DB, store.Promo{Code: "LAST", Kind: "percent", Value: 10, ValidFrom: now.Add(-time.Hour),
			MaxUses: sql.NullInt64{Int64: 1, Valid: true}}); err != nil {
			t.Fatal(err)
		}
		hold := now.Add(30 * time.Minute)
		var wg sync.WaitGroup
		results := make([]error, 10)
		started := make([]bool, len(results))
		for i := range results {
			storetest.Buy(t, s, storetest.Purchase{ResultID: fmt.Sprintf("r%d", i), Code: "INTJ-A", At: now})
			wg.Add(1)
			go func() {
				defer wg.Done()
				o := store.PricedOrder{ID: fmt.Sprintf("o-r%d", i), SKUID: "mbti-report", Currency: "USD", Country: "*", Email: "a@example.com",
					Subtotal: 999, Discount: 100, Total: 899, Promo: sql.NullString{String: "LAST", Valid: true}}
				a := store.Attempt{ID: fmt.Sprintf("a%d", i), OrderID: o.ID, Provider: "sandbox", Status: store.AttemptStarted, Amount: 899,
					Currency: "USD", CreatedAt: now, UpdatedAt: now, PromoCode: o.Promo, HoldUntil: sql.NullTime{Time: hold, Valid: true}}
				results[i] = s.InTx(ctx, func(tx *sqlx.Tx) error {
					var err error
					started[i], _, err = s.StartPayment(ctx, tx, o, []store.OrderStatus{store.OrderCreated}, a)
					return err
				})
			}()
		}
		wg.Wait()
		holders := 0
		for i, err := range results {
			switch {
			case err == nil && started[i]:
				holders++
			case !errors.Is(err, store.ErrPromoTaken):
				t.Errorf("payment %d: started %v, %v", i, started[i], err)
			}
		}
		var attempts, pending int
		if err := s.DB.Get(&attempts, `SELECT COUNT(*) FROM payment_attempts`); err != nil {
			t.Fatal(err)
		}
		if err := s.DB.Get(&pending, `SELECT COUNT(*) FROM orders WHERE status = 'pending'`); err != nil {
			t.Fatal(err)
		}
		if holders != 1 || attempts != 1 || pending != 1 {
			t.Fatalf("%d payments hold the last use, %d attempts, %d orders pending; want 1, 1, 1", holders, attempts, pending)
		}
		left := func(at time.Time) bool {
			t.Helper()
			var ok bool
			if err := s.InTx(ctx, func(tx *sqlx.Tx) error {
				var err error
				_, ok, err = s.PromoLeft(ctx, tx, "LAST", "", at)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if left(hold.Add(-time.Second)) || !left(hold) {
			t.Error("a hold does not last exactly until its end")
		}
	})
}

// Migration 0020 repairs what the old code left: a payment that a late
// failure marked failed after its success is succeeded again, and a payment
// still open carries its order's promo code (without a hold, so its success
// counts the use only if one is left). Its data steps are run again here on
// rows written as the old code wrote them.
func TestMigration0020RepairsPayments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		exec := func(query string, args ...any) {
			t.Helper()
			if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(query), args...); err != nil {
				t.Fatal(err)
			}
		}
		attempt := func(id, order, status, failure string) {
			t.Helper()
			exec(`INSERT INTO payment_attempts (id, order_id, provider, provider_ref, status, amount, currency, failure_code, created_at, updated_at)
				VALUES (?, ?, 'sandbox', ?, ?, 999, 'USD', ?, ?, ?)`, id, order, "sbx_"+id, status, sql.NullString{String: failure, Valid: failure != ""}, now, now)
		}
		storetest.Buy(t, s, storetest.Purchase{ResultID: "paid", Code: "INTJ-A", Report: "paid", At: now})
		attempt("downgraded", "o-paid", store.AttemptFailed, "card_declined")
		exec(`INSERT INTO payment_events (provider, event_id, kind, attempt_id, received_at) VALUES ('sandbox', 'evt_ok', 'payment.succeeded', 'downgraded', ?)`, now)
		storetest.Buy(t, s, storetest.Purchase{ResultID: "declined", Code: "INTJ-A", Report: "failed", At: now})
		attempt("declined", "o-declined", store.AttemptFailed, "card_declined")
		storetest.Buy(t, s, storetest.Purchase{ResultID: "open", Code: "INTJ-A", Report: "pending", At: now})
		exec(`UPDATE orders SET promo_code = 'HALF' WHERE id = 'o-open'`)
		attempt("open", "o-open", store.AttemptStarted, "")

		all, err := store.Migrations(s.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range all {
			if m.Version != 20 {
				continue
			}
			for _, stmt := range strings.Split(m.SQL, ";") {
				var code []string
				for _, line := range strings.Split(stmt, "\n") {
					if !strings.HasPrefix(strings.TrimSpace(line), "--") {
						code = append(code, line)
					}
				}
				if body := strings.TrimSpace(strings.Join(code, "\n")); strings.HasPrefix(body, "UPDATE") {
					exec(body)
				}
			}
		}
		for id, want := range map[string][2]string{
			"downgraded": {store.AttemptSucceeded, ""},
			"declined":   {store.AttemptFailed, ""},
			"open":       {store.AttemptStarted, "HALF"},
		} {
			a, err := s.GetAttempt(ctx, s.DB, id)
			if err != nil || a.Status != want[0] || a.PromoCode.String != want[1] || a.HoldUntil.Valid || (id == "downgraded" && a.FailureCode.Valid) {
				t.Errorf("%s after the migration: %+v (%v); want %s with code %q and no hold", id, a, err, want[0], want[1])
			}
		}
	})
}
