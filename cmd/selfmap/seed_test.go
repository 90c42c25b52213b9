package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"selfmap/internal/config"
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
