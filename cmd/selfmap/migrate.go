package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"selfmap/internal/config"
	"selfmap/internal/content"
	"selfmap/internal/jobs"
	"selfmap/internal/notice"
	"selfmap/internal/store"
)

// openMigrated opens the database, brings its schema, ours and the job
// queue's, up to date, and loads the built-in help and legal texts. On
// PostgreSQL this runs under a start-up lock, so N instances may start at
// once.
func openMigrated(ctx context.Context, cfg config.Config, logger *slog.Logger) (*store.Store, error) {
	st, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if err := st.WithStartupLock(ctx, func(ctx context.Context) error { return bringUpToDate(ctx, st, logger) }); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

func bringUpToDate(ctx context.Context, st *store.Store, logger *slog.Logger) error {
	applied, err := st.Migrate(ctx)
	if err != nil {
		return err
	}
	if len(applied) > 0 {
		logger.Info("migrations applied", "versions", applied, "dialect", st.Dialect)
	}
	// Help articles, legal documents and service notices are product
	// content, not demo data: every start brings the shipped version into
	// the database.
	now := time.Now()
	changed, err := content.Sync(ctx, st, now)
	if err != nil {
		return err
	}
	notices, err := notice.Sync(ctx, st, now)
	if err != nil {
		return err
	}
	if changed+int64(notices) > 0 {
		logger.Info("built-in content loaded", "rows", changed, "notices", notices)
	}
	if err := st.CheckPrices(ctx, st.DB); err != nil {
		return err
	}
	q, err := jobs.New(jobs.Deps{Store: st, Logger: logger}, false)
	if err != nil {
		return err
	}
	return q.Migrate(ctx)
}

func migrate(ctx context.Context, cfg config.Config, logger *slog.Logger) error {
	st, err := openMigrated(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := st.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("database schema at version %d (%s)\n", v, st.Dialect)
	return nil
}
