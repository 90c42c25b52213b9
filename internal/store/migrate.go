package store

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	sqlfiles "selfmap/sql"
)

// Migration is one numbered schema step.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// ErrSchemaTooNew is returned when the database was migrated by a newer
// binary: running on a schema this code does not know could corrupt data.
// Database is a version applied there that this binary does not have.
type ErrSchemaTooNew struct{ Database, Known int }

func (e ErrSchemaTooNew) Error() string {
	return fmt.Sprintf("store: database has migration %d, which this binary (up to %d) does not know; deploy the newer binary", e.Database, e.Known)
}

// Migrations lists the embedded migrations for a dialect, in order. A file
// NNNN_name.<dialect>.sql replaces NNNN_name.sql for that dialect.
func Migrations(d Dialect) ([]Migration, error) {
	files, err := fs.Glob(sqlfiles.Migrations, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("store: list migrations: %w", err)
	}
	common, own := map[int]Migration{}, map[int]Migration{}
	for _, f := range files {
		base := strings.TrimSuffix(path.Base(f), ".sql")
		target := common
		if stem, dialect, ok := strings.Cut(base, "."); ok {
			if dialect != string(SQLite) && dialect != string(Postgres) {
				return nil, fmt.Errorf("store: migration %q names an unknown dialect", f)
			}
			if dialect != string(d) {
				continue
			}
			base, target = stem, own
		}
		num, name, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("store: migration %q is not named NNNN_name.sql", f)
		}
		if _, dup := target[v]; dup {
			return nil, fmt.Errorf("store: two migrations numbered %d", v)
		}
		body, err := fs.ReadFile(sqlfiles.Migrations, f)
		if err != nil {
			return nil, fmt.Errorf("store: read migration %q: %w", f, err)
		}
		target[v] = Migration{Version: v, Name: name, SQL: string(body)}
	}
	for v, m := range own {
		common[v] = m
	}
	out := make([]Migration, 0, len(common))
	for _, m := range common {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// SchemaVersion returns the highest migration applied, 0 for a new database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	if err := s.ensureMigrationsTable(ctx); err != nil {
		return 0, err
	}
	var v int
	if err := s.DB.GetContext(ctx, &v, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`); err != nil {
		return 0, fmt.Errorf("store: read schema version: %w", err)
	}
	return v, nil
}

func (s *Store) ensureMigrationsTable(ctx context.Context) error {
	_, err := s.DB.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TIMESTAMP NOT NULL
	)`)
	if err != nil {
		return fmt.Errorf("store: create schema_migrations: %w", err)
	}
	return nil
}

// Migrate applies every migration the database lacks, each in its own
// transaction, and refuses a database newer than this binary. Several
// instances may start at once: on PostgreSQL an advisory lock lets one apply
// a step while the others wait and then find it done; on SQLite the
// immediate transaction does the same.
func (s *Store) Migrate(ctx context.Context) (applied []int, err error) {
	all, err := Migrations(s.Dialect)
	if err != nil {
		return nil, err
	}
	if err := s.ensureMigrationsTable(ctx); err != nil {
		return nil, err
	}
	var recorded []int
	if err := s.DB.SelectContext(ctx, &recorded, `SELECT version FROM schema_migrations ORDER BY version`); err != nil {
		return nil, fmt.Errorf("store: read applied migrations: %w", err)
	}
	known := map[int]bool{}
	for _, m := range all {
		known[m.Version] = true
	}
	for _, v := range recorded {
		if !known[v] {
			return nil, ErrSchemaTooNew{Database: v, Known: all[len(all)-1].Version}
		}
	}
	// Numbers are claimed by branches that land at different times, so a
	// gap is allowed and a lower number may arrive after a higher one was
	// applied: every migration not yet recorded is applied, in order.
	for _, m := range all {
		done, err := s.applyMigration(ctx, m)
		if err != nil {
			return applied, err
		}
		if done {
			applied = append(applied, m.Version)
		}
	}
	return applied, nil
}

func (s *Store) applyMigration(ctx context.Context, m Migration) (bool, error) {
	tx, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store: begin migration %d: %w", m.Version, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if s.Dialect == Postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7211807)`); err != nil {
			return false, fmt.Errorf("store: lock for migration %d: %w", m.Version, err)
		}
	}
	var exists int
	if err := tx.GetContext(ctx, &exists, tx.Rebind(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), m.Version); err != nil {
		return false, fmt.Errorf("store: check migration %d: %w", m.Version, err)
	}
	if exists > 0 {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return false, fmt.Errorf("store: apply migration %04d_%s: %w", m.Version, m.Name, err)
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`),
		m.Version, m.Name, time.Now().UTC()); err != nil {
		return false, fmt.Errorf("store: record migration %d: %w", m.Version, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store: commit migration %d: %w", m.Version, err)
	}
	return true, nil
}

// startupLock is the PostgreSQL advisory lock key that serialises instance
// start-ups. It differs from the key each migration step takes on its own
// connection, which would otherwise wait for this one forever.
const startupLock = 7211808

// WithStartupLock runs fn while holding a PostgreSQL session advisory lock,
// so instances starting at once bring the schema up one after the other:
// ours, the built-in content and the job queue's (River's migrator takes
// no lock of its own, and CREATE TABLE IF NOT EXISTS races on PostgreSQL).
// The later instances wait, then find nothing to do. On SQLite, which one
// machine's processes share through one file, fn runs as it is.
func (s *Store) WithStartupLock(ctx context.Context, fn func(context.Context) error) error {
	if s.Dialect != Postgres {
		return fn(ctx)
	}
	conn, err := s.PgPool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("store: startup lock: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, startupLock); err != nil {
		return fmt.Errorf("store: startup lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, startupLock) //nolint:errcheck // the lock ends with the session anyway
	return fn(ctx)
}
