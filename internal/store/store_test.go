package store_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"selfmap/internal/exam"
	"selfmap/internal/site"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/tracking"
)

func TestMigrateIsIdempotentAndRefusesNewerSchema(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		all, err := store.Migrations(s.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		last := all[len(all)-1].Version
		v, err := s.SchemaVersion(ctx)
		if err != nil || v != last {
			t.Fatalf("schema version = %d, %v; want %d", v, err, last)
		}
		again, err := s.Migrate(ctx)
		if err != nil || len(again) != 0 {
			t.Fatalf("second migrate applied %v, %v; want nothing", again, err)
		}
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`),
			last+1, "from_the_future", time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		_, err = s.Migrate(ctx)
		var tooNew store.ErrSchemaTooNew
		if !errors.As(err, &tooNew) || tooNew.Database != last+1 {
			t.Fatalf("migrate on a newer schema = %v; want ErrSchemaTooNew", err)
		}
	})
}

func TestSites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		relax := site.Site{Host: "relax.example", Theme: "relax", Home: exam.DefaultPair}
		if err := s.SaveSite(ctx, s.DB, relax); err != nil {
			t.Fatal(err)
		}
		relax.Theme = "young"
		relax.Tracking = tracking.Config{Pixels: map[string]string{"meta": "1234567890"}, TagManager: "GTM-ABC123"}
		if err := s.SaveSite(ctx, s.DB, relax); err != nil {
			t.Fatal(err)
		}
		got, err := s.ListSites(ctx, s.DB)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0], relax) {
			t.Fatalf("sites = %+v; want [%+v]", got, relax)
		}
	})
}

func TestPruneEmailCodes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		for id, expires := range map[string]time.Time{
			"expired": now.Add(-time.Minute),
			"fresh":   now.Add(9 * time.Minute),
		} {
			if err := s.InsertEmailCode(ctx, s.DB, store.EmailCode{ID: id, Email: "a@example.com", Purpose: "login", CodeHash: "h", ExpiresAt: expires}); err != nil {
				t.Fatal(err)
			}
		}
		n, err := s.PruneEmailCodes(ctx, s.DB, now)
		if err != nil || n != 1 {
			t.Fatalf("pruned %d, %v; want 1", n, err)
		}
		if _, err := s.GetEmailCode(ctx, s.DB, "expired"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("expired code still there: %v", err)
		}
		fresh, err := s.GetEmailCode(ctx, s.DB, "fresh")
		if err != nil || !fresh.ExpiresAt.Equal(now.Add(9*time.Minute)) {
			t.Fatalf("fresh code = %+v, %v", fresh, err)
		}
	})
}
