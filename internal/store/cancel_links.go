package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// CancelLink is a one-time link that cancels the subscriptions of a
// mailbox. Only the token's hash is stored.
type CancelLink struct {
	TokenHash string       `db:"token_hash"`
	Email     string       `db:"email"`
	CreatedAt time.Time    `db:"created_at"`
	ExpiresAt time.Time    `db:"expires_at"`
	UsedAt    sql.NullTime `db:"used_at"`
}

// AddCancelLink records a new cancel link token for a mailbox.
func (s *Store) AddCancelLink(ctx context.Context, db Querier, email, token string, now, expires time.Time) error {
	if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO cancel_links (token_hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)`),
		HashToken(token), strings.ToLower(strings.TrimSpace(email)), now.UTC(), expires.UTC()); err != nil {
		return fmt.Errorf("store: add cancel link: %w", err)
	}
	return nil
}

// GetCancelLink finds the link a token opens (ErrNotFound when none).
func (s *Store) GetCancelLink(ctx context.Context, db Querier, token string) (CancelLink, error) {
	var l CancelLink
	if err := db.GetContext(ctx, &l, db.Rebind(`SELECT token_hash, email, created_at, expires_at, used_at FROM cancel_links
		WHERE token_hash = ?`), HashToken(token)); err != nil {
		return CancelLink{}, notFound("cancel link", err)
	}
	l.CreatedAt, l.ExpiresAt, l.UsedAt.Time = l.CreatedAt.UTC(), l.ExpiresAt.UTC(), l.UsedAt.Time.UTC()
	return l, nil
}

// UseCancelLink marks a link used at now, once: false when it already was.
func (s *Store) UseCancelLink(ctx context.Context, db Querier, token string, now time.Time) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE cancel_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL`),
		now.UTC(), HashToken(token))
	if err != nil {
		return false, fmt.Errorf("store: use cancel link: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// LiveSubscriptionsFor lists the subscriptions carrying the e-mail address
// (compared without case) that still renew or retry a renewal: trialing or
// active and not yet set to end, or past due. Oldest first.
func (s *Store) LiveSubscriptionsFor(ctx context.Context, db Querier, email string) ([]Subscription, error) {
	var out []Subscription
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+subscriptionColumns+` FROM subscriptions
		WHERE LOWER(email) = ? AND ((status IN ('trialing', 'active') AND cancel_at_period_end = ?) OR status = 'past_due')
		ORDER BY created_at, id`), strings.ToLower(strings.TrimSpace(email)), false)
	if err != nil {
		return nil, fmt.Errorf("store: live subscriptions: %w", err)
	}
	for i := range out {
		out[i] = utcSubscription(out[i])
	}
	return out, nil
}
