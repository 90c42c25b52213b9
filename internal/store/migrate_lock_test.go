package store_test

import (
	"context"
	"sync"
	"testing"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// Instances that start at once on one new PostgreSQL database all come up:
// the start-up lock lets one migrate while the others wait and then find
// every step applied, once.
func TestInstancesStartingAtOnceMigrateOnce(t *testing.T) {
	url := storetest.PostgresURL(t)
	ctx := context.Background()
	const instances = 4
	stores := make([]*store.Store, instances)
	for i := range stores {
		s, err := store.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	var wg sync.WaitGroup
	errs := make([]error, instances)
	for i, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.WithStartupLock(ctx, func(ctx context.Context) error {
				_, err := s.Migrate(ctx)
				return err
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
		}
	}
	all, err := store.Migrations(store.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	var recorded int
	if err := stores[0].DB.GetContext(ctx, &recorded, `SELECT COUNT(*) FROM schema_migrations`); err != nil {
		t.Fatal(err)
	}
	if recorded != len(all) {
		t.Fatalf("%d migrations recorded, want %d", recorded, len(all))
	}
}
