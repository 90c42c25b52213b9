package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"selfmap/internal/store"
)

// PruneRateLimitsArgs asks for the rate-limit buckets that are full again
// to be deleted.
type PruneRateLimitsArgs struct{}

// Kind names the job in the queue table.
func (PruneRateLimitsArgs) Kind() string { return "prune_rate_limits" }

// InsertOpts makes at most one such job wait at a time, however many
// instances schedule it.
func (PruneRateLimitsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: 5 * time.Minute}}
}

// PruneRateLimitsWorker deletes full buckets: a client not seen for a while
// keeps no row.
type PruneRateLimitsWorker struct {
	river.WorkerDefaults[PruneRateLimitsArgs]
	Store  *store.Store
	Logger *slog.Logger
	Now    func() time.Time
}

// Work runs one prune.
func (w *PruneRateLimitsWorker) Work(ctx context.Context, _ *river.Job[PruneRateLimitsArgs]) error {
	n, err := w.Store.PruneRateLimits(ctx, w.Store.DB, w.Now())
	if err != nil {
		return err
	}
	w.Logger.DebugContext(ctx, "jobs: pruned full rate-limit buckets", "count", n)
	return nil
}
