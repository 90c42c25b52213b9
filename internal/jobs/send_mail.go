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

// Delivery retries: a message that fails waits MailBackoff before the next
// try, and after MaxMailAttempts failures it is marked failed and left.
const (
	MaxMailAttempts = 10
	firstMailRetry  = time.Minute
	maxMailRetry    = time.Hour
)

// MailBackoff is the wait after a message's nth failed delivery: 1 minute,
// then doubling (2, 4, 8 ...), at most an hour.
func MailBackoff(failures int) time.Duration {
	d := firstMailRetry
	for i := 1; i < failures && d < maxMailRetry; i++ {
		d *= 2
	}
	return min(d, maxMailRetry)
}

// SendMailWorker hands due messages to the SMTP server. A delivery failure
// is recorded on its message (attempts, last error, next attempt time), so
// the job itself succeeds unless the database fails.
type SendMailWorker struct {
	river.WorkerDefaults[SendMailArgs]
	Store  *store.Store
	Sender mail.Sender
	Logger *slog.Logger
	Now    func() time.Time
}

// Work sends what is due.
func (w *SendMailWorker) Work(ctx context.Context, _ *river.Job[SendMailArgs]) error {
	_, err := SendQueued(ctx, w.Store, w.Sender, w.Logger, w.Now)
	return err
}

// Sent counts the outcome of one run.
type Sent struct {
	Delivered, Failed int
}

// mailLease is how long a run holds a message it is sending.
const mailLease = 5 * time.Minute

// SendQueued delivers the messages due now, up to 50 a run.
func SendQueued(ctx context.Context, st *store.Store, sender mail.Sender, logger *slog.Logger, now func() time.Time) (Sent, error) {
	var out Sent
	due, err := st.QueuedMail(ctx, st.DB, now(), 50)
	if err != nil {
		return out, err
	}
	for _, m := range due {
		// Another run may be sending the same batch: send only what this
		// run claims.
		claimed, err := st.ClaimMail(ctx, st.DB, m.ID, now(), mailLease)
		if err != nil {
			return out, err
		}
		if !claimed {
			continue
		}
		err = sender.Send(ctx, mail.Message{ID: m.ID, To: m.To, Subject: m.Subject, Body: m.Body, HTML: m.HTMLBody.String})
		if err != nil {
			out.Failed++
			failures := m.Attempts + 1
			giveUp := failures >= MaxMailAttempts
			next := now().Add(MailBackoff(failures))
			if giveUp {
				logger.ErrorContext(ctx, "jobs: mail not sent; giving up", "mail", m.ID, "kind", m.Kind, "attempts", failures, "err", err)
			} else {
				logger.WarnContext(ctx, "jobs: mail not sent; will retry", "mail", m.ID, "kind", m.Kind, "attempts", failures, "next", next, "err", err)
			}
			if err := st.MarkMailFailed(ctx, st.DB, m.ID, m.Attempts, err.Error(), next, giveUp); err != nil {
				return out, err
			}
			continue
		}
		if _, err := st.MarkMailSent(ctx, st.DB, m.ID, now()); err != nil {
			return out, err
		}
		out.Delivered++
	}
	return out, nil
}
