package order

import (
	"database/sql"
	"errors"
	"testing"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/store"
)

func sku(amount, list int64, currency string) store.PricedSKU {
	return store.PricedSKU{
		SKU:   store.SKU{ID: "mbti-report"},
		Price: store.Price{Currency: currency, Amount: amount, ListAmount: sql.NullInt64{Int64: list, Valid: list > 0}},
	}
}

func pack(amount int64) store.PricedSKU {
	return store.PricedSKU{SKU: store.SKU{ID: "mbti-pack-career", Kind: store.OrderPack}, Price: store.Price{Currency: "USD", Amount: amount}}
}

func TestPrice(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	open := func(kind string, value int64) *store.Promo {
		return &store.Promo{Code: "P", Kind: kind, Value: value, ValidFrom: now.Add(-day)}
	}
	usd := sql.NullString{String: "USD", Valid: true}
	for _, tc := range []struct {
		name                  string
		sku                   store.PricedSKU
		promo                 *store.Promo
		subtotal, disc, total int64
		list                  int64
		errID                 string
	}{
		{name: "no promo", sku: sku(999, 2999, "USD"), subtotal: 999, total: 999, list: 2999},
		{name: "list below price is not shown", sku: sku(999, 500, "USD"), subtotal: 999, total: 999},
		{name: "20 percent, rounded half up", sku: sku(999, 0, "USD"), promo: open("percent", 20), subtotal: 999, disc: 200, total: 799},
		{name: "100 percent", sku: sku(999, 0, "USD"), promo: open("percent", 100), subtotal: 999, disc: 999, total: 0},
		{name: "fixed in the same currency", sku: sku(999, 0, "USD"), promo: &store.Promo{Code: "F", Kind: "fixed", Value: 300, Currency: usd, ValidFrom: now}, subtotal: 999, disc: 300, total: 699},
		{name: "fixed above the price stops at zero", sku: sku(999, 0, "USD"), promo: &store.Promo{Code: "F", Kind: "fixed", Value: 5000, Currency: usd, ValidFrom: now}, subtotal: 999, disc: 999, total: 0},
		{name: "fixed in another currency", sku: sku(150000, 0, "JPY"), promo: &store.Promo{Code: "F", Kind: "fixed", Value: 300, Currency: usd, ValidFrom: now}, errID: "pay.promo.currency"},
		{name: "not yet valid", sku: sku(999, 0, "USD"), promo: &store.Promo{Code: "N", Kind: "percent", Value: 10, ValidFrom: now.Add(day)}, errID: "pay.promo.expired"},
		{name: "expired", sku: sku(999, 0, "USD"), promo: &store.Promo{Code: "E", Kind: "percent", Value: 10, ValidFrom: now.Add(-2 * day), ValidUntil: sql.NullTime{Time: now, Valid: true}}, errID: "pay.promo.expired"},
		{name: "used up", sku: sku(999, 0, "USD"), promo: &store.Promo{Code: "U", Kind: "percent", Value: 10, ValidFrom: now.Add(-day), MaxUses: sql.NullInt64{Int64: 3, Valid: true}, Uses: 3}, errID: "pay.promo.used_up"},
		{name: "no promo on a pack", sku: pack(499), promo: open("percent", 100), errID: "pay.promo.packs"},
		{name: "a pack at its own price", sku: pack(499), subtotal: 499, total: 499},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := Price(tc.sku, tc.promo, now)
			if tc.errID != "" {
				var ae *apperr.Error
				if !errors.As(err, &ae) || ae.ID != tc.errID {
					t.Fatalf("error %v, want %s", err, tc.errID)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if q.Subtotal != tc.subtotal || q.Discount != tc.disc || q.Total != tc.total || q.List != tc.list || q.Total != q.Subtotal-q.Discount {
				t.Errorf("quote %+v", q)
			}
		})
	}
}

func TestStateMachine(t *testing.T) {
	const (
		created, pending, paid    = store.OrderCreated, store.OrderPending, store.OrderPaid
		failed, expired, refunded = store.OrderFailed, store.OrderExpired, store.OrderRefunded
	)
	allowed := map[[2]store.OrderStatus]bool{
		{created, pending}: true, {created, expired}: true, {pending, paid}: true, {pending, failed}: true,
		{pending, expired}: true, {failed, pending}: true, {failed, paid}: true, {failed, expired}: true, {paid, refunded}: true,
	}
	all := []store.OrderStatus{created, pending, paid, failed, expired, refunded}
	for _, from := range all {
		for _, to := range all {
			if got := CanMove(from, to); got != allowed[[2]store.OrderStatus{from, to}] {
				t.Errorf("CanMove(%s, %s) = %v", from, to, got)
			}
		}
	}
}

// A payment holds its code's use for PromoHold, never past the code's end.
func TestHoldUntil(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	open := store.Promo{Code: "P", ValidFrom: now.Add(-time.Hour)}
	if got := HoldUntil(open, now); !got.Equal(now.Add(PromoHold)) {
		t.Errorf("open-ended code: hold until %s", got)
	}
	ending := open
	ending.ValidUntil = sql.NullTime{Time: now.Add(5 * time.Minute), Valid: true}
	if got := HoldUntil(ending, now); !got.Equal(now.Add(5 * time.Minute)) {
		t.Errorf("code ending in 5 minutes: hold until %s", got)
	}
	if !PromoOpen(ending, now) || PromoOpen(ending, now.Add(5*time.Minute)) || PromoOpen(open, now.Add(-2*time.Hour)) {
		t.Error("PromoOpen does not follow the window [valid_from, valid_until)")
	}
}
