// Package storetest gives tests a fresh, migrated database: SQLite always,
// and PostgreSQL too when TEST_DATABASE_URL is set (CI sets it, and under
// CI=true its absence fails the test instead of skipping it).
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver for the admin connection
	"github.com/jmoiron/sqlx"

	"selfmap/internal/store"
)

// Each runs fn once per available database, each run on a fresh database.
func Each(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite opens a migrated SQLite database in a temporary folder.
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	return open(t, SQLiteURL(t))
}

// SQLiteURL returns the path of a new, empty SQLite database.
func SQLiteURL(t testing.TB) string {
	return filepath.Join(t.TempDir(), "test.db")
}

// Postgres opens a migrated database in a schema of its own on the server
// named by TEST_DATABASE_URL, dropped when the test ends.
func Postgres(t testing.TB) *store.Store {
	t.Helper()
	return open(t, PostgresURL(t))
}

// PostgresURL creates an empty schema and returns a URL whose connections use
// it. Without TEST_DATABASE_URL it skips, or fails under CI=true.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("TEST_DATABASE_URL is not set; CI must run the PostgreSQL suite")
		}
		t.Skip("TEST_DATABASE_URL not set: PostgreSQL run skipped")
	}
	buf := make([]byte, 6)
	rand.Read(buf) //nolint:errcheck // never fails
	schema := "test_" + hex.EncodeToString(buf)
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`) //nolint:errcheck // best effort
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse TEST_DATABASE_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func open(t testing.TB, dsn string) *store.Store {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return s
}
