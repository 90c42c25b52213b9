// Package app wires the service together from its configuration and
// database, so that the serve command and the HTTP tests build the very same
// handler.
package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"selfmap/handlers"
	"selfmap/internal/account"
	"selfmap/internal/assets"
	"selfmap/internal/catalogue"
	"selfmap/internal/checkout"
	"selfmap/internal/config"
	"selfmap/internal/content"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/islands"
	"selfmap/internal/jobs"
	"selfmap/internal/mail"
	"selfmap/internal/notice"
	"selfmap/internal/packs"
	"selfmap/internal/payment"
	"selfmap/internal/ratelimit"
	"selfmap/internal/result"
	"selfmap/internal/retrieve"
	"selfmap/internal/site"
	"selfmap/internal/social"
	"selfmap/internal/store"
	"selfmap/internal/subscription"
	"selfmap/internal/support"
	"selfmap/internal/theme"
	"selfmap/internal/unsubscribe"
	"selfmap/locales"
	"selfmap/static"
	"selfmap/themes"
)

// sitesTTL bounds how long a new or changed site takes to reach every
// instance.
const sitesTTL = 30 * time.Second

// socialTTL is how often the landing pages' counters, notices and reviews
// are read from the database.
const socialTTL = time.Minute

// App is the wired service: its HTTP handler and the services background
// jobs need too.
type App struct {
	Handler  *echo.Echo
	Checkout *checkout.Service
	// Subscriptions sells the plans: renewed by our job on the sandbox,
	// by Stripe Billing with stripe (docs/subscriptions.md).
	Subscriptions *subscription.Service
	// Jobs is the job queue, built by NewWithJobs and started and stopped
	// by its caller (serve); nil from New, where a PDF is printed in the
	// request that asks for it.
	Jobs *jobs.Queue
	// Metrics serves /metrics alone, for the private listener
	// (METRICS_ADDR) that serve starts apart from the public port.
	Metrics http.Handler
}

// Option changes how New builds the service.
type Option func(*options)

type options struct{ now func() time.Time }

// WithClock gives every service, and the handlers, one clock instead of the
// wall clock: tests walk through a trial, a renewal or midnight by moving it.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// New builds the service without a job queue: a report's PDF is printed in
// the request that asks for it (the HTTP tests, tools).
func New(cfg config.Config, logger *slog.Logger, st *store.Store, opts ...Option) (*App, error) {
	return build(cfg, logger, st, false, opts)
}

// NewWithJobs builds the service with its job queue (App.Jobs), which the
// caller starts and stops: serve.
func NewWithJobs(cfg config.Config, logger *slog.Logger, st *store.Store, opts ...Option) (*App, error) {
	return build(cfg, logger, st, true, opts)
}

// build wires the service once, in order: the services, the report side
// with its job queue when withJobs (wireReports), then the HTTP layer.
func build(cfg config.Config, logger *slog.Logger, st *store.Store, withJobs bool, opts []Option) (*App, error) {
	o := options{now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	now := o.now
	embedded, err := loadEmbedded()
	if err != nil {
		return nil, err
	}
	catalog, exams := embedded.catalog, embedded.exams
	secret, err := sessionSecret(cfg)
	if err != nil {
		return nil, err
	}
	sites := site.NewDirectory(siteLoader(st), sitesTTL, logger)
	if err := sites.Load(context.Background()); err != nil {
		logger.Error("app: sites not loaded yet; serving the home theme until they are", "err", err)
	}
	templates, err := mail.LoadTemplates()
	if err != nil {
		return nil, err
	}
	mails := &mailer{templates: templates, catalog: catalog, exams: exams, baseURL: cfg.BaseURL, store: st}
	pay, err := newCheckout(cfg, secret, st, mails, logger, now)
	if err != nil {
		return nil, err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	a := &App{Checkout: pay, Metrics: handlers.MetricsHandler(reg)}
	_, billing := pay.Provider.(payment.Billing)
	if _, ok := pay.Provider.(payment.Recurring); ok || billing {
		a.Subscriptions = &subscription.Service{Store: st, Provider: pay.Provider, Logger: logger, Now: now}
	}
	deps := handlers.Deps{
		Config:    cfg,
		Logger:    logger,
		Catalog:   catalog,
		Themes:    embedded.themes,
		Assets:    embedded.assets,
		Islands:   embedded.islands,
		Exams:     exams,
		Sites:     sites,
		Sessions:  newSessionStore(secret, cfg.SecureCookies()),
		Metrics:   reg,
		Now:       now,
		Results:   &result.Service{Store: st, Exams: exams, Now: now},
		Checkout:  pay,
		Packs:     pay.Packs,
		Social:    social.New(socialSource{st}, now, socialTTL, logger),
		Support:   &support.Service{Store: st, Now: now, To: cfg.SupportEmail},
		Retrieval: &retrieve.Service{Store: st, Now: now, Compose: mails.retrieval, PerHour: retrieve.DefaultPerHour},
		Accounts:  &account.Service{Store: st, Now: now, Compose: mails.accountCode},
	}
	deps.Notices = &notice.Service{Store: st, Now: now}
	deps.Content = &content.Service{Store: st}
	deps.Catalogue = &catalogue.Service{Store: st}
	deps.Outbox = &mail.Outbox{Store: st}
	// Limits in the database are shared on PostgreSQL only: see routes.go.
	deps.Limits = &ratelimit.Limits{Buckets: ratelimit.InDatabase(st), Now: now, Shared: st.Dialect == store.Postgres}
	deps.Ping = st.Ping
	if err := a.wireSubscriptions(cfg, st, &deps, templates, mails, now); err != nil {
		return nil, err
	}
	if err := a.wireReports(st, &deps, withJobs); err != nil {
		return nil, err
	}
	// A member's plan opens their own reports (Premium, Basic's free ones).
	deps.Reports.Members = a.Subscriptions
	wireBilling(st, &deps)
	if a.Handler, err = handlers.New(deps); err != nil {
		return nil, err
	}
	return a, nil
}

// embedded is what the service reads from the binary itself: messages,
// stylesheets and themes, island bundles and the exams.
type embedded struct {
	catalog *i18n.Catalog
	assets  *assets.Assets
	themes  *theme.Set
	islands *islands.Manifest
	exams   *exam.Registry
}

func loadEmbedded() (embedded, error) {
	var e embedded
	var err error
	if e.catalog, err = i18n.Load(locales.Files); err != nil {
		return e, err
	}
	css, err := fs.Sub(static.CSS, "css")
	if err != nil {
		return e, err
	}
	if e.assets, err = assets.New(map[string]fs.FS{"themes": themes.Files, "static/css": css}); err != nil {
		return e, err
	}
	if e.themes, err = theme.Load(themes.Files, e.assets); err != nil {
		return e, err
	}
	dist, err := fs.Sub(static.Dist, "dist")
	if err != nil {
		return e, err
	}
	if e.islands, err = islands.Load(dist); err != nil {
		return e, err
	}
	e.exams, err = exam.LoadRegistry()
	return e, err
}

// wireSubscriptions finishes the subscription service (its mails, the
// report check, the card attempt limit) and the one-click cancel links;
// nothing when the provider cannot run subscriptions.
func (a *App) wireSubscriptions(cfg config.Config, st *store.Store, d *handlers.Deps, templates *mail.Templates, mails *mailer, now func() time.Time) error {
	d.Subscriptions = a.Subscriptions
	if a.Subscriptions == nil {
		return nil
	}
	d.Unsubscribe = &unsubscribe.Service{Store: st, Subscriptions: a.Subscriptions, Now: now, Compose: mails.cancelLink,
		PerHour: unsubscribe.DefaultPerHour, ValidFor: unsubscribe.DefaultValidFor}
	a.Subscriptions.Mail = &subscription.Mailer{Templates: templates, Catalog: d.Catalog, BaseURL: cfg.BaseURL}
	a.Subscriptions.ReportPaid = d.Results.Paid
	// Five cards at once, then one every ten minutes, per account.
	scale := cfg.RateLimitScale
	cards := ratelimit.Limit{Name: "card", Rate: scale / 600, Burst: max(1, int(5*scale))}
	var err error
	if a.Subscriptions.CardAttempts, err = ratelimit.New(ratelimit.InDatabase(st), cards, now); err != nil {
		return fmt.Errorf("app: card attempt limit: %w", err)
	}
	return nil
}

// newCheckout picks the payment provider. The sandbox's webhook secret is
// derived from the session secret: it never leaves the process.
func newCheckout(cfg config.Config, secret string, st *store.Store, mails *mailer, logger *slog.Logger, now func() time.Time) (*checkout.Service, error) {
	svc := &checkout.Service{Store: st, Logger: logger, Now: now, Mails: mails.paidOrder, Packs: &packs.Service{Store: st}}
	switch cfg.PaymentProvider {
	case "stripe":
		var opts []payment.StripeOption
		if cfg.StripeAPIBase != "" {
			opts = append(opts, payment.WithStripeBaseURL(cfg.StripeAPIBase))
		}
		svc.Provider = payment.NewStripe(cfg.StripeSecretKey, cfg.StripeWebhookSecret, opts...)
	default:
		key := sha256.Sum256([]byte("selfmap sandbox webhook\x00" + secret))
		svc.Provider = &payment.Sandbox{Store: st, Secret: hex.EncodeToString(key[:]), Deliver: svc.Receive, Now: now}
	}
	return svc, nil
}

// newSessionStore keeps sessions in cookies that are signed and encrypted
// with keys derived from one secret, so no instance holds session state.
func newSessionStore(secret string, secure bool) sessions.Store {
	hashKey := sha256.Sum256([]byte("selfmap session signing\x00" + secret))
	blockKey := sha256.Sum256([]byte("selfmap session encryption\x00" + secret))
	store := sessions.NewCookieStore(hashKey[:], blockKey[:])
	store.Options = &sessions.Options{
		Path: "/", MaxAge: int((30 * 24 * time.Hour).Seconds()),
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode,
	}
	return store
}

// sessionSecret returns SESSION_SECRET or, in development, a secret made
// once and kept in DataDir so sessions survive a restart.
func sessionSecret(cfg config.Config) (string, error) {
	if cfg.SessionSecret != "" {
		return cfg.SessionSecret, nil
	}
	if !cfg.Dev() {
		return "", errors.New("app: SESSION_SECRET is required outside dev")
	}
	path := filepath.Join(cfg.DataDir, "session.key")
	if buf, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(buf))) >= 32 {
		return strings.TrimSpace(string(buf)), nil
	}
	b := make([]byte, 32)
	rand.Read(b) //nolint:errcheck // crypto/rand never fails
	secret := hex.EncodeToString(b)
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return "", fmt.Errorf("app: create data folder: %w", err)
	}
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("app: keep dev session secret: %w", err)
	}
	return secret, nil
}
