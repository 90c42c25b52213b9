package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"selfmap/internal/mail"
	"selfmap/internal/store"
)

// SendMailArgs asks for the outbox to be delivered.
type SendMailArgs struct{}

// Kind names the job in the queue table.
func (SendMailArgs) Kind() string { return "send_mail" }

// InsertOpts keeps one such job waiting at a time across instances.
func (SendMailArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: 15 * time.Second}}
}

// SendMailWorker hands queued messages to the SMTP server. A message that
// fails stays queued and is tried again at the next run; the job itself
// fails, so River records the error and backs off.
type SendMailWorker struct {
	river.WorkerDefaults[SendMailArgs]
	Store  *store.Store
	Sender mail.Sender
	Logger *slog.Logger
	Now    func() time.Time
}

// Work sends what is queued.
func (w *SendMailWorker) Work(ctx context.Context, _ *river.Job[SendMailArgs]) error {
	return SendQueued(ctx, w.Store, w.Sender, w.Logger, w.Now)
}

// SendQueued delivers the queued messages, up to 50 a run.
func SendQueued(ctx context.Context, st *store.Store, sender mail.Sender, logger *slog.Logger, now func() time.Time) error {
	queued, err := st.QueuedMail(ctx, 50)
	if err != nil {
		return err
	}
	var firstErr error
	for _, m := range queued {
		if err := sender.Send(ctx, mail.Message{ID: m.ID, To: m.To, Subject: m.Subject, Body: m.Body}); err != nil {
			logger.WarnContext(ctx, "jobs: mail not sent; will retry", "mail", m.ID, "kind", m.Kind, "err", err)
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if _, err := st.MarkMailSent(ctx, m.ID, now()); err != nil {
			return err
		}
	}
	return firstErr
}
