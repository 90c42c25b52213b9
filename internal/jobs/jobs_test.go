package jobs_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"selfmap/internal/jobs"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// The queue migrates, starts, runs the prune job it schedules on start, and
// stops cleanly, on both databases.
func TestPruneEmailCodesRunsThroughTheQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		if err := s.InsertEmailCode(ctx, s.DB, store.EmailCode{ID: "old", Email: "a@example.com", Purpose: "login", CodeHash: "h", ExpiresAt: now.Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := s.InsertEmailCode(ctx, s.DB, store.EmailCode{ID: "new", Email: "a@example.com", Purpose: "login", CodeHash: "h", ExpiresAt: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		q, err := jobs.New(jobs.Deps{Store: s, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := q.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer func() {
			stopCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			if err := q.Stop(stopCtx); err != nil {
				t.Errorf("stop: %v", err)
			}
		}()
		if err := q.Insert(ctx, jobs.PruneEmailCodesArgs{}, nil); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			_, err := s.GetEmailCode(ctx, s.DB, "old")
			if errors.Is(err, store.ErrNotFound) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("expired code not pruned by the queue: %v", err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if _, err := s.GetEmailCode(ctx, s.DB, "new"); err != nil {
			t.Fatalf("live code was pruned: %v", err)
		}
	})
}
