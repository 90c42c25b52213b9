package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"selfmap/internal/config"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// Demo data never reaches a production database: seed refuses to run with
// APP_ENV=prod before it opens the database.
func TestSeedRefusesProduction(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"APP_ENV": "prod", "DATA_DIR": dir, "SESSION_SECRET": "0123456789abcdef0123456789abcdef", "BASE_URL": "https://selfmap.test"}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	err = seed(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), false)
	if !errors.Is(err, errSeedInProduction) {
		t.Fatalf("seed in prod: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.db")); len(m) != 0 {
		t.Errorf("seed in prod created %v", m)
	}
}

// A database holding demo data is not served in production (so no page
// there shows a demo label), and is served in development.
func TestServeRefusesDemoDataInProduction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		prod := config.Config{Env: config.EnvProd}
		if err := refuseDemoInProduction(ctx, prod, st); err != nil {
			t.Fatalf("a database without demo data: %v", err)
		}
		if err := st.MarkDemo(ctx, st.DB, "results", 1, time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := refuseDemoInProduction(ctx, prod, st); !errors.Is(err, errDemoInProduction) {
			t.Fatalf("demo data in production: %v", err)
		}
		if err := refuseDemoInProduction(ctx, config.Config{Env: config.EnvDev}, st); err != nil {
			t.Fatalf("demo data in development: %v", err)
		}
	})
}
