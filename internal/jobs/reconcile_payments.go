package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
)

// ReconcileAge is how long a payment may stay pending before the provider
// is asked about it: longer than a 3-D Secure step normally takes.
const ReconcileAge = 2 * time.Minute

// ReconcilePaymentsArgs asks for pending payments to be settled with the
// provider.
type ReconcilePaymentsArgs struct{}

// Kind names the job in the queue table.
func (ReconcilePaymentsArgs) Kind() string { return "reconcile_payments" }

// InsertOpts keeps one such job waiting at a time across instances.
func (ReconcilePaymentsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: time.Minute}}
}

// ReconcilePaymentsWorker settles payments whose webhook never arrived.
type ReconcilePaymentsWorker struct {
	river.WorkerDefaults[ReconcilePaymentsArgs]
	Reconcile func(ctx context.Context, age time.Duration) (int, error)
	Logger    *slog.Logger
}

// Work runs one reconciliation.
func (w *ReconcilePaymentsWorker) Work(ctx context.Context, _ *river.Job[ReconcilePaymentsArgs]) error {
	n, err := w.Reconcile(ctx, ReconcileAge)
	if n > 0 {
		w.Logger.InfoContext(ctx, "jobs: reconciled payments", "count", n)
	}
	return err
}
