package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"selfmap/internal/config"
	"selfmap/internal/content"
	"selfmap/internal/jobs"
	"selfmap/internal/store"
)

// openMigrated opens the database, brings its schema, ours and the job
// queue's, up to date, and loads the built-in help and legal texts.
func openMigrated(ctx context.Context, cfg config.Config, logger *slog.Logger) (*store.Store, error) {
	st, err := store.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	applied, err := st.Migrate(ctx)
	if err != nil {
		st.Close()
		return nil, err
	}
	if len(applied) > 0 {
		logger.Info("migrations applied", "versions", applied, "dialect", st.Dialect)
	}
	// Help articles and legal documents are product content: every start
	// brings the shipped version into the database.
	changed, err := content.Sync(ctx, st, time.Now())
	if err != nil {
		st.Close()
		return nil, err
	}
	if changed > 0 {
		logger.Info("built-in content loaded", "rows", changed)
	}
	q, err := jobs.New(jobs.Deps{Store: st, Logger: logger}, false)
	if err != nil {
		st.Close()
		return nil, err
	}
	if err := q.Migrate(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
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
