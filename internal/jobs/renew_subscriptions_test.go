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
	"selfmap/internal/subscription"
)

// The periodic renew_subscriptions job runs through the queue on start and
// charges a trial that has ended, on both databases.
func TestRenewSubscriptionsRunsThroughTheQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		start := time.Now().UTC().Add(-8 * 24 * time.Hour)
		now := start
		clock := func() time.Time { return now }
		sb := storetest.Sandbox(s, clock)
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		svc := &subscription.Service{Store: s, Provider: sb, Logger: logger, Now: clock}
		sub, err := svc.StartTrial(ctx, subscription.StartInput{CustomerID: "c1", Email: "c1@example.com", PlanID: "basic-weekly",
			Method: storetest.GoodCard(t, sb)})
		if err != nil {
			t.Fatal(err)
		}
		// The worker runs on its own goroutine: from here on the clock is
		// only read.
		now = time.Now().UTC()
		q, err := jobs.New(jobs.Deps{Store: s, Logger: logger, RenewSubscriptions: svc.RenewDue}, true)
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
		deadline := time.Now().Add(20 * time.Second)
		for {
			got, err := s.GetSubscription(ctx, s.DB, sub.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status == subscription.Active {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the trial was not renewed by the queue: %+v", got)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}
