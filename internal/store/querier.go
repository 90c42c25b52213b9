package store

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
)

// Querier is what a store method runs its SQL on: the database (Store.DB)
// or a transaction a service opened with InTx. Every method that touches
// the database takes one, so a service decides which of its steps share a
// transaction and the store never opens one on its own.
type Querier interface {
	sqlx.ExtContext
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
	NamedExecContext(ctx context.Context, query string, arg any) (sql.Result, error)
	PrepareNamedContext(ctx context.Context, query string) (*sqlx.NamedStmt, error)
}

var (
	_ Querier = (*sqlx.DB)(nil)
	_ Querier = (*sqlx.Tx)(nil)
)
