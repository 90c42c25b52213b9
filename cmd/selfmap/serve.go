package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"selfmap/app"
	"selfmap/internal/config"
	"selfmap/internal/store"
)

// serve migrates, starts the job queue and serves HTTP until ctx ends (on
// SIGINT or SIGTERM); it then stops taking connections, lets in-flight
// requests and jobs finish within the shutdown timeout, and closes the
// database.
func serve(ctx context.Context, cfg config.Config, logger *slog.Logger) error {
	softMemoryLimit(logger)
	st, err := openMigrated(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := refuseDemoInProduction(ctx, cfg, st); err != nil {
		return err
	}

	// The app comes wired in order: its services, the PDF renderer, the job
	// queue given the renderer, then the HTTP layer given the queue.
	a, err := app.NewWithJobs(cfg, logger, st)
	if err != nil {
		return err
	}
	e, queue := a.Handler, a.Jobs
	// The queue runs until Stop below, not until the signal: a context it
	// was started with that ends on SIGTERM would cut River's maintenance
	// off mid-transaction and log an ERROR for a normal stop.
	if err := queue.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}

	metrics, err := serveMetrics(cfg.MetricsAddr, a.Metrics, logger)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return errors.Join(fmt.Errorf("listen on %s: %w", cfg.Addr, err), metrics.Close())
	}
	e.Listener = ln
	url := cfg.BaseURL
	if strings.HasPrefix(cfg.Addr, ":") && cfg.Dev() {
		url = "http://localhost" + cfg.Addr
	}
	logger.Info("Selfmap is serving", "url", url, "addr", ln.Addr().String(), "env", cfg.Env, "database", st.Dialect)
	fmt.Printf("Selfmap is running at %s\n", url)

	served := make(chan error, 1)
	go func() { served <- e.Start("") }()
	select {
	case err := <-served:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
	}

	logger.Info("shutting down: draining requests and jobs", "timeout", cfg.ShutdownTimeout)
	drain, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	err = errors.Join(e.Shutdown(drain), metrics.Shutdown(drain))
	if qerr := queue.Stop(drain); qerr != nil {
		err = errors.Join(err, qerr)
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	logger.Info("stopped cleanly")
	return nil
}

// serveMetrics serves /metrics on addr (METRICS_ADDR), apart from the
// public port, so that in prod the figures reach the scraper and no
// visitor. With no addr it serves nothing, and the server it returns is an
// idle one, safe to shut down.
func serveMetrics(addr string, h http.Handler, logger *slog.Logger) (*http.Server, error) {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 90 * time.Second}
	if addr == "" {
		return srv, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on METRICS_ADDR %s: %w", addr, err)
	}
	srv.Addr = ln.Addr().String()
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics listener stopped", "addr", srv.Addr, "err", err)
		}
	}()
	logger.Info("metrics are served apart from the public port", "addr", srv.Addr)
	return srv, nil
}

// defaultMemoryLimit is the heap's soft limit when GOMEMLIMIT is not set.
// The live heap at rest is about 17 MB; under the visitor mix GOGC alone let
// the heap grow to twice what was live, 56-61 MB of private memory against
// the 60 MB budget (docs/performance.md). Near the limit the collector runs
// sooner; it is soft, so a heavier moment (a PDF, an export) still gets the
// memory it needs.
const defaultMemoryLimit = 48 << 20

// softMemoryLimit sets defaultMemoryLimit unless the operator chose one
// with GOMEMLIMIT (which Go reads itself).
func softMemoryLimit(logger *slog.Logger) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(defaultMemoryLimit)
	logger.Debug("soft memory limit", "bytes", defaultMemoryLimit)
}

// errDemoInProduction refuses to serve a database that holds demo data in
// production, where its figures would pass for real ones.
var errDemoInProduction = errors.New("serve: the database holds demo data (selfmap seed); refusing to serve it with APP_ENV=prod, where demo results, ratings and reviews would pass for real ones")

// refuseDemoInProduction is the second half of seed's refusal: a database
// seeded elsewhere and then served in production. So the pages' "demo"
// labels, shown over demo data, never appear in production.
func refuseDemoInProduction(ctx context.Context, cfg config.Config, st *store.Store) error {
	if cfg.Env != config.EnvProd {
		return nil
	}
	demo, err := st.HasDemoData(ctx, st.DB)
	if err != nil {
		return err
	}
	if demo {
		return errDemoInProduction
	}
	return nil
}
