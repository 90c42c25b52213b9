// Package jobs runs background work through River, a job queue kept in the
// same database as everything else, so every app instance shares it and a
// job survives a restart.
package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"selfmap/internal/mail"
	"selfmap/internal/store"
)

// Queue is the River client for the store's dialect, behind the few methods
// the rest of the service needs.
type Queue struct {
	start   func(context.Context) error
	stop    func(context.Context) error
	migrate func(context.Context) error
	insert  func(context.Context, river.JobArgs, *river.InsertOpts) error
}

// Deps are what the workers need.
type Deps struct {
	Store  *store.Store
	Logger *slog.Logger
	Now    func() time.Time
	// Reconcile settles payments left pending for longer than the age.
	Reconcile func(ctx context.Context, age time.Duration) (int, error)
	// RenewSubscriptions charges due subscription periods (sandbox
	// provider); nil when the provider renews on its side.
	RenewSubscriptions func(ctx context.Context) (int, error)
	// Mail delivers the outbox; nil keeps mail in the outbox.
	Mail mail.Sender
	// RenderPDF prints a paid report in a locale and keeps it.
	RenderPDF func(ctx context.Context, resultID, locale string) error
}

func register(d Deps) (*river.Workers, []*river.PeriodicJob) {
	workers := river.NewWorkers()
	river.AddWorker(workers, &PruneEmailCodesWorker{Store: d.Store, Logger: d.Logger, Now: d.Now})
	river.AddWorker(workers, &PruneRateLimitsWorker{Store: d.Store, Logger: d.Logger, Now: d.Now})
	periodic := []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(time.Hour),
			func() (river.JobArgs, *river.InsertOpts) { return PruneEmailCodesArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}),
		river.NewPeriodicJob(river.PeriodicInterval(10*time.Minute),
			func() (river.JobArgs, *river.InsertOpts) { return PruneRateLimitsArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}),
	}
	if d.Mail != nil {
		river.AddWorker(workers, &SendMailWorker{Store: d.Store, Sender: d.Mail, Logger: d.Logger, Now: d.Now})
		periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(15*time.Second),
			func() (river.JobArgs, *river.InsertOpts) { return SendMailArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}))
	}
	if d.Reconcile != nil {
		river.AddWorker(workers, &ReconcilePaymentsWorker{Reconcile: d.Reconcile, Logger: d.Logger})
		periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(time.Minute),
			func() (river.JobArgs, *river.InsertOpts) { return ReconcilePaymentsArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}))
	}
	if d.RenewSubscriptions != nil {
		river.AddWorker(workers, &RenewSubscriptionsWorker{Renew: d.RenewSubscriptions, Logger: d.Logger})
		periodic = append(periodic, river.NewPeriodicJob(river.PeriodicInterval(time.Minute),
			func() (river.JobArgs, *river.InsertOpts) { return RenewSubscriptionsArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true}))
	}
	if d.RenderPDF != nil {
		river.AddWorker(workers, &ReportPDFWorker{Render: d.RenderPDF, Logger: d.Logger})
	}
	return workers, periodic
}

// New builds the queue. With workers false the client can only insert jobs
// and migrate (the migrate and seed commands).
func New(d Deps, workers bool) (*Queue, error) {
	if d.Now == nil {
		d.Now = time.Now
	}
	cfg := &river.Config{Logger: quiet(d.Logger)}
	if workers {
		cfg.Workers, cfg.PeriodicJobs = register(d)
		cfg.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}}
	}
	switch d.Store.Dialect {
	case store.Postgres:
		driver := riverpgxv5.New(d.Store.PgPool)
		return newQueue[pgx.Tx](driver, cfg)
	case store.SQLite:
		driver := riversqlite.New(d.Store.QueueDB)
		return newQueue[*sql.Tx](driver, cfg)
	default:
		return nil, fmt.Errorf("jobs: unsupported dialect %q", d.Store.Dialect)
	}
}

func newQueue[TTx any](drv riverdriver.Driver[TTx], cfg *river.Config) (*Queue, error) {
	client, err := river.NewClient(drv, cfg)
	if err != nil {
		return nil, fmt.Errorf("jobs: new client: %w", err)
	}
	return &Queue{
		start: client.Start,
		stop:  client.Stop,
		migrate: func(ctx context.Context) error {
			m, err := rivermigrate.New(drv, &rivermigrate.Config{Logger: cfg.Logger})
			if err != nil {
				return err
			}
			_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
			return err
		},
		insert: func(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) error {
			_, err := client.Insert(ctx, args, opts)
			return err
		},
	}, nil
}

// Migrate applies River's own schema migrations.
func (q *Queue) Migrate(ctx context.Context) error {
	if err := q.migrate(ctx); err != nil {
		return fmt.Errorf("jobs: migrate: %w", err)
	}
	return nil
}

// Start runs the workers and the periodic jobs until Stop.
func (q *Queue) Start(ctx context.Context) error { return q.start(ctx) }

// Stop waits for running jobs to finish, or for ctx to end.
func (q *Queue) Stop(ctx context.Context) error { return q.stop(ctx) }

// Insert enqueues a job.
func (q *Queue) Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) error {
	if err := q.insert(ctx, args, opts); err != nil {
		return fmt.Errorf("jobs: insert %s: %w", args.Kind(), err)
	}
	return nil
}

// quiet keeps River's routine info lines (leader elections, queue pings) out
// of the service log while passing warnings and errors through. An error
// that is only a canceled context is River's maintenance being stopped
// mid-step by a normal shutdown (a stop right after start catches the
// periodic enqueuer opening a transaction): it is logged at info.
func quiet(l *slog.Logger) *slog.Logger {
	return slog.New(levelFloor{l.Handler(), slog.LevelWarn})
}

type levelFloor struct {
	slog.Handler
	min slog.Level
}

func (h levelFloor) Enabled(ctx context.Context, l slog.Level) bool {
	return (l >= h.min || l == slog.LevelInfo) && h.Handler.Enabled(ctx, l)
}

func (h levelFloor) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError && canceledOnly(r) {
		r.Level = slog.LevelInfo
		return h.Handler.Handle(ctx, r)
	}
	if r.Level < h.min {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h levelFloor) WithAttrs(attrs []slog.Attr) slog.Handler {
	return levelFloor{h.Handler.WithAttrs(attrs), h.min}
}

func (h levelFloor) WithGroup(name string) slog.Handler {
	return levelFloor{h.Handler.WithGroup(name), h.min}
}

// canceledOnly reports whether a record's error is a canceled context.
func canceledOnly(r slog.Record) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		switch v := a.Value.Any().(type) {
		case error:
			found = errors.Is(v, context.Canceled)
		case string: // River logs err.Error()
			found = a.Key == "error" && v == context.Canceled.Error()
		}
		return !found
	})
	return found
}
