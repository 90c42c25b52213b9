package jobs_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"selfmap/internal/jobs"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// The prune job deletes the buckets that filled up again and keeps a
// client's bucket that is still draining.
func TestPruneRateLimitsKeepsDrainingBuckets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		if _, err := s.TakeToken(ctx, s.DB, "auth", "203.0.113.1", now.Add(-time.Hour), time.Minute, 5); err != nil {
			t.Fatal(err)
		}
		if _, err := s.TakeToken(ctx, s.DB, "auth", "203.0.113.2", now, time.Minute, 5); err != nil {
			t.Fatal(err)
		}
		w := &jobs.PruneRateLimitsWorker{Store: s, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: func() time.Time { return now }}
		if err := w.Work(ctx, nil); err != nil {
			t.Fatal(err)
		}
		var subjects []string
		if err := s.DB.SelectContext(ctx, &subjects, `SELECT subject FROM rate_limits`); err != nil {
			t.Fatal(err)
		}
		if len(subjects) != 1 || subjects[0] != "203.0.113.2" {
			t.Fatalf("left %v, want only the draining bucket", subjects)
		}
	})
}
