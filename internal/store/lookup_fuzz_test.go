package store_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// FuzzRequestKeys looks up order numbers, promo codes and SKU ids as
// requests send them (path, query and JSON values), on SQLite and, with
// TEST_DATABASE_URL, on PostgreSQL: each finds its row or answers
// ErrNotFound, never another error (a 500 for a key with a NUL byte or
// broken UTF-8 was one on PostgreSQL); what is found is the key asked for.
func FuzzRequestKeys(f *testing.F) {
	f.Add("SM261122-K7Q2X9MD")
	f.Add("mbti-report")
	f.Add("WELCOME10")
	f.Add("A\x00B")
	f.Add("\xff\xfe")
	f.Add("' OR 1=1 --")
	stores := []*store.Store{storetest.SQLite(f)}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		stores = append(stores, storetest.Postgres(f))
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, key string) {
		for _, s := range stores {
			o, err := s.GetOrderByNumber(ctx, s.DB, key)
			if err == nil && o.OrderNumber != key || err != nil && !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("%s: order %q: %v", s.Dialect, key, err)
			}
			p, err := s.GetPromo(ctx, s.DB, key)
			if err == nil && p.Code != key || err != nil && !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("%s: promo %q: %v", s.Dialect, key, err)
			}
			k, err := s.GetSKU(ctx, s.DB, 1807, key, "*")
			if err == nil && k.SKU.ID != key || err != nil && !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("%s: sku %q: %v", s.Dialect, key, err)
			}
		}
	})
}
