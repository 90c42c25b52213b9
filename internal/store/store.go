// Package store is the only place that speaks SQL. It opens SQLite or
// PostgreSQL behind sqlx, applies the embedded migrations and offers one
// method per query; where the two databases differ, the method switches on
// the dialect.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
	"selfmap/internal/apperr"
)

// Dialect names the SQL database behind a Store.
type Dialect string

// The dialects a Store can speak.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// ErrNotFound is returned by every lookup that finds no row.
var ErrNotFound = apperr.ErrNotFound

// Store wraps the database handle shared by every query.
type Store struct {
	DB      *sqlx.DB
	Dialect Dialect

	// PgPool is the pgx pool behind DB on PostgreSQL (the job queue's driver
	// needs it); nil on SQLite.
	PgPool *pgxpool.Pool
	// QueueDB is the handle the job queue uses on SQLite: a second pool of one
	// connection, as River's SQLite driver asks; nil on PostgreSQL.
	QueueDB *sql.DB

	// writer queues InTx's transactions in Go on SQLite (one at a time), nil
	// on PostgreSQL. SQLite has one writer: without the queue, every waiting
	// transaction polls the file lock with sleeps of up to 100 ms, which made
	// the tail of checkout under load (docs/performance.md).
	writer chan struct{}
}

// writeWait bounds the wait for SQLite's writer, as busy_timeout did.
const writeWait = 10 * time.Second

func init() {
	sqlx.BindDriver("sqlite", sqlx.QUESTION)
}

// Open connects to the database named by url: a postgres:// or postgresql://
// URL, or else a SQLite file path (its folder is created when missing).
func Open(ctx context.Context, url string) (*Store, error) {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		return openPostgres(ctx, url)
	}
	return openSQLite(ctx, strings.TrimPrefix(url, "sqlite://"))
}

func openPostgres(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: parse postgres url: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	db := sqlx.NewDb(stdlib.OpenDBFromPool(pool), "pgx")
	if err := db.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: ping postgres: %w", err)
	}
	return &Store{DB: db, Dialect: Postgres, PgPool: pool}, nil
}

// sqlitePragmas are applied to every new connection, busy_timeout first so
// that the others wait for a lock instead of failing.
const sqlitePragmas = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)"

// sqliteAppOptions apply to our own pool only: write transactions take the
// lock when they begin (no upgrade deadlocks), and times are written in the
// format SQLite's date functions read. River's pool keeps the driver defaults
// its queries were written for.
const sqliteAppOptions = "&_txlock=immediate&_time_format=sqlite"

func openSQLite(ctx context.Context, path string) (*Store, error) {
	if path != ":memory:" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("store: create database folder: %w", err)
		}
	}
	dsn := "file:" + path + "?" + sqlitePragmas
	raw, err := sql.Open("sqlite", dsn+sqliteAppOptions)
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite: %w", err)
	}
	raw.SetMaxOpenConns(8)
	raw.SetConnMaxIdleTime(5 * time.Minute)
	db := sqlx.NewDb(raw, "sqlite")
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: ping sqlite: %w", err)
	}
	queue, err := sql.Open("sqlite", dsn)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open sqlite queue pool: %w", err)
	}
	queue.SetMaxOpenConns(1)
	return &Store{DB: db, Dialect: SQLite, QueueDB: queue, writer: make(chan struct{}, 1)}, nil
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	return s.DB.PingContext(ctx)
}

// Close releases every connection.
func (s *Store) Close() error {
	err := s.DB.Close()
	if s.QueueDB != nil {
		err = errors.Join(err, s.QueueDB.Close())
	}
	if s.PgPool != nil {
		s.PgPool.Close()
	}
	return err
}

// InTx runs fn in one transaction, committed when fn returns nil. On
// SQLite, transactions wait their turn in Go (writer); fn must not start
// another.
func (s *Store) InTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	if s.writer != nil {
		wait := time.NewTimer(writeWait)
		select {
		case s.writer <- struct{}{}:
			wait.Stop()
		case <-ctx.Done():
			wait.Stop()
			return fmt.Errorf("store: wait for the writer: %w", ctx.Err())
		case <-wait.C:
			return errors.New("store: wait for the writer: timed out")
		}
		defer func() { <-s.writer }()
	}
	tx, err := s.DB.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// notFound maps sql.ErrNoRows to ErrNotFound and wraps every other error
// with the name of the query that failed.
func notFound(op string, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return fmt.Errorf("store: %s: %w", op, err)
}
