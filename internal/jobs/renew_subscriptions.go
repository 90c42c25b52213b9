package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
)

// RenewSubscriptionsArgs asks for due subscriptions to be renewed (sandbox
// provider: we charge the saved card ourselves; Stripe Billing renews its
// own).
type RenewSubscriptionsArgs struct{}

// Kind names the job in the queue table.
func (RenewSubscriptionsArgs) Kind() string { return "renew_subscriptions" }

// InsertOpts keeps one such job waiting at a time across instances. Runs
// that overlap anyway charge each period once (subscription.RenewDue).
func (RenewSubscriptionsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: time.Minute}}
}

// RenewSubscriptionsWorker runs one renewal pass.
type RenewSubscriptionsWorker struct {
	river.WorkerDefaults[RenewSubscriptionsArgs]
	Renew  func(ctx context.Context) (int, error)
	Logger *slog.Logger
}

// Work renews what is due. An error is logged by the pass and returned, so
// River records it; the next minute's run picks up what is left.
func (w *RenewSubscriptionsWorker) Work(ctx context.Context, _ *river.Job[RenewSubscriptionsArgs]) error {
	n, err := w.Renew(ctx)
	if n > 0 {
		w.Logger.InfoContext(ctx, "jobs: subscription charges settled", "count", n)
	}
	return err
}
