package store

import (
	"context"
	"fmt"
	"time"
)

// EmailCode is a one-time code mailed to an address; only its hash is kept.
type EmailCode struct {
	ID        string     `db:"id"`
	Email     string     `db:"email"`
	Purpose   string     `db:"purpose"`
	CodeHash  string     `db:"code_hash"`
	Attempts  int        `db:"attempts"`
	ExpiresAt time.Time  `db:"expires_at"`
	UsedAt    *time.Time `db:"used_at"`
}

// InsertEmailCode stores a new code.
func (s *Store) InsertEmailCode(ctx context.Context, db Querier, c EmailCode) error {
	_, err := db.NamedExecContext(ctx, `INSERT INTO email_codes (id, email, purpose, code_hash, attempts, expires_at, used_at, created_at)
		VALUES (:id, :email, :purpose, :code_hash, :attempts, :expires_at, :used_at, CURRENT_TIMESTAMP)`, c)
	if err != nil {
		return fmt.Errorf("store: insert email code: %w", err)
	}
	return nil
}

// GetEmailCode reads a code by id.
func (s *Store) GetEmailCode(ctx context.Context, db Querier, id string) (EmailCode, error) {
	var c EmailCode
	err := db.GetContext(ctx, &c, db.Rebind(`SELECT id, email, purpose, code_hash, attempts, expires_at, used_at FROM email_codes WHERE id = ?`), id)
	if err != nil {
		return EmailCode{}, notFound("get email code", err)
	}
	return c, nil
}

// PruneEmailCodes deletes codes that expired before now; they can never be
// used again and only hold personal data.
func (s *Store) PruneEmailCodes(ctx context.Context, db Querier, now time.Time) (int64, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM email_codes WHERE expires_at < ?`), now.UTC())
	if err != nil {
		return 0, fmt.Errorf("store: prune email codes: %w", err)
	}
	return res.RowsAffected()
}
