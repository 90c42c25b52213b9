package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"selfmap/internal/store"
)

// PruneEmailCodesArgs asks for expired one-time e-mail codes to be deleted.
type PruneEmailCodesArgs struct{}

// Kind names the job in the queue table.
func (PruneEmailCodesArgs) Kind() string { return "prune_email_codes" }

// InsertOpts makes at most one such job wait at a time, however many
// instances schedule it.
func (PruneEmailCodesArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: 10 * time.Minute}}
}

// PruneEmailCodesWorker deletes the codes that expired.
type PruneEmailCodesWorker struct {
	river.WorkerDefaults[PruneEmailCodesArgs]
	Store  *store.Store
	Logger *slog.Logger
	Now    func() time.Time
}

// Work runs one prune.
func (w *PruneEmailCodesWorker) Work(ctx context.Context, _ *river.Job[PruneEmailCodesArgs]) error {
	n, err := w.Store.PruneEmailCodes(ctx, w.Store.DB, w.Now())
	if err != nil {
		return err
	}
	w.Logger.InfoContext(ctx, "jobs: pruned expired email codes", "count", n)
	return nil
}
