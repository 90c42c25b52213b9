// Package apptest is the shared test kit, in the spirit of GoToSocial's
// testrig: the real app (app.New, as serve builds it) over a fresh
// database, on SQLite and on PostgreSQL (Each), with the sandbox payment
// provider, one settable clock fixed at Epoch, a test browser, and the rows
// tests keep needing (a verified user, a paid report, a subscription) made
// the way the product makes them. Only tests import it.
//
// A service tested without the app (a package under internal/, whose
// tests must not pull the HTTP layer in) takes the lower-level pieces of
// internal/store/storetest instead: storetest.Sandbox and
// storetest.GoodCard.
package apptest

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/app"
	"selfmap/internal/config"
	"selfmap/internal/content"
	"selfmap/internal/exam"
	"selfmap/internal/payment"
	"selfmap/internal/site"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// BaseURL is the kit's BASE_URL: the host of every link the app writes.
const BaseURL = "http://selfmap.test"

// SiteHost is the one site the kit adds (theme relax), so host-based
// theming can be tested.
const SiteHost = "relax.example"

// Kit is the real app over a test database, with its clock.
type Kit struct {
	Store   *store.Store
	App     *app.App
	Handler *echo.Echo
	Clock   *Clock
	Config  config.Config
}

// Option changes how New builds the kit.
type Option func(*options)

type options struct {
	env    map[string]string
	clock  *Clock
	logger *slog.Logger
	jobs   bool
}

// WithEnv adds environment variables to the kit's configuration, over its
// own (DATA_DIR, a temporary folder, and BASE_URL).
func WithEnv(env map[string]string) Option {
	return func(o *options) {
		for k, v := range env {
			o.env[k] = v
		}
	}
}

// WithClock gives the app a clock the test already holds: two instances of
// the app, or a second one over the same database, on one time.
func WithClock(c *Clock) Option { return func(o *options) { o.clock = c } }

// WithWallClock runs the app on the wall clock (until the test sets it).
func WithWallClock() Option { return func(o *options) { o.clock = WallClock() } }

// WithLogger keeps what the app logs (default: nothing is kept).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithJobs builds the app with its job queue (app.NewWithJobs), migrated
// and started, and stopped when the test ends.
func WithJobs() Option { return func(o *options) { o.jobs = true } }

// New builds the app over st as serve does, on a clock fixed at Epoch
// unless an option says otherwise, with the site SiteHost and the built-in
// content stored first.
func New(t testing.TB, st *store.Store, opts ...Option) *Kit {
	t.Helper()
	o := options{env: map[string]string{"DATA_DIR": t.TempDir(), "BASE_URL": BaseURL}, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, opt := range opts {
		opt(&o)
	}
	if o.clock == nil {
		o.clock = NewClock(Epoch)
	}
	cfg, err := config.Load(func(k string) string { return o.env[k] })
	if err != nil {
		t.Fatalf("apptest: config: %v", err)
	}
	ctx := context.Background()
	if err := st.SaveSite(ctx, st.DB, site.Site{Host: SiteHost, Theme: "relax", Home: exam.DefaultPair}); err != nil {
		t.Fatalf("apptest: save the site: %v", err)
	}
	if _, err := content.Sync(ctx, st, o.clock.Now()); err != nil {
		t.Fatalf("apptest: sync the content: %v", err)
	}
	build := app.New
	if o.jobs {
		build = app.NewWithJobs
	}
	a, err := build(cfg, o.logger, st, app.WithClock(o.clock.Now))
	if err != nil {
		t.Fatalf("apptest: build the app: %v", err)
	}
	if o.jobs {
		startJobs(t, a)
	}
	return &Kit{Store: st, App: a, Handler: a.Handler, Clock: o.clock, Config: cfg}
}

// startJobs migrates and starts the app's job queue, and stops it when the
// test ends.
func startJobs(t testing.TB, a *app.App) {
	t.Helper()
	ctx := context.Background()
	if err := a.Jobs.Migrate(ctx); err != nil {
		t.Fatalf("apptest: migrate the job queue: %v", err)
	}
	if err := a.Jobs.Start(ctx); err != nil {
		t.Fatalf("apptest: start the job queue: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		a.Jobs.Stop(ctx) //nolint:errcheck // the test is over
	})
}

// Each runs fn with a kit on each available database (storetest.Each):
// SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
func Each(t *testing.T, fn func(t *testing.T, k *Kit), opts ...Option) {
	t.Helper()
	storetest.Each(t, func(t *testing.T, st *store.Store) { fn(t, New(t, st, opts...)) })
}

// Sandbox is the app's payment provider, the built-in sandbox; it fails
// the test when the kit was configured with another.
func (k *Kit) Sandbox(t testing.TB) *payment.Sandbox {
	t.Helper()
	sb, ok := k.App.Checkout.Provider.(*payment.Sandbox)
	if !ok {
		t.Fatalf("apptest: the app's payment provider is %s, not the sandbox", k.App.Checkout.Provider.Name())
	}
	return sb
}

// Browser is a new browser, with no cookies, on the kit's app.
func (k *Kit) Browser(t testing.TB) *Browser { return NewBrowser(t, k.Handler) }
