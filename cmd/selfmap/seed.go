package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"selfmap/internal/config"
	"selfmap/internal/exam"
	"selfmap/internal/site"
	"selfmap/internal/theme"
)

// errSeedInProduction refuses demo data in a production database.
var errSeedInProduction = errors.New("seed: refusing to load demo data with APP_ENV=prod: demo results, ratings and reviews would be shown as real figures")

// seed loads the demo data set, and only that: one site per landing theme
// on <theme>.localhost, which browsers resolve to this machine, so every
// theme can be seen by host name as well as by landing path; a month of
// demo test results with ratings and paid reports, so the counters and
// notices have something to count; and approved demo reviews, named as
// demos. It marks the database as holding demo data, and pages then label
// their figures so (store.MarkDemo). Built-in content (help, legal texts,
// service notices) loads at every start, not here. It refuses to run in
// production.
func seed(ctx context.Context, cfg config.Config, logger *slog.Logger, ifEmpty bool) error {
	if !cfg.Dev() {
		return errSeedInProduction
	}
	st, err := openMigrated(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer st.Close()
	if ifEmpty {
		n, err := st.CountSites(ctx, st.DB)
		if err != nil {
			return err
		}
		if n > 0 {
			fmt.Println("database already has data; demo seed skipped")
			return nil
		}
	}
	for _, name := range theme.Landing {
		if err := st.SaveSite(ctx, st.DB, site.Site{Host: name + ".localhost", Theme: name, Home: exam.DefaultPair}); err != nil {
			return err
		}
	}
	now := time.Now()
	results, err := seedDemoResults(ctx, st, now)
	if err != nil {
		return err
	}
	reviews, err := seedDemoReviews(ctx, st, now)
	if err != nil {
		return err
	}
	if err := st.MarkDemo(ctx, st.DB, "seed", results+reviews, now); err != nil {
		return err
	}
	fmt.Printf("demo data loaded: %d sites (<theme>.localhost), %d test results, %d reviews\n", len(theme.Landing), results, reviews)
	return nil
}
