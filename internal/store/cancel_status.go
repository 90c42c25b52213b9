package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// EndingSubscriptionsFor lists the subscriptions carrying the e-mail
// address (compared without case) that will not renew any more: trialing
// or active and set to end at their period's end, or ended (canceled or
// expired). Oldest first.
func (s *Store) EndingSubscriptionsFor(ctx context.Context, db Querier, email string) ([]Subscription, error) {
	var out []Subscription
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+subscriptionColumns+` FROM subscriptions
		WHERE LOWER(email) = ? AND ((status IN ('trialing', 'active') AND cancel_at_period_end = ?) OR status IN ('canceled', 'expired'))
		ORDER BY created_at, id`), strings.ToLower(strings.TrimSpace(email)), true)
	if err != nil {
		return nil, fmt.Errorf("store: ending subscriptions: %w", err)
	}
	for i := range out {
		out[i] = utcSubscription(out[i])
	}
	return out, nil
}

// CancelLinksSince counts the cancel links of a mailbox created at or
// after since, other than the link of the token except. Run in the
// transaction that then adds a link, it takes the mailbox's turn first on
// PostgreSQL (the lock QueueMailboxLimited takes), so two requests cannot
// both count none. (SQLite has one writer already.)
func (s *Store) CancelLinksSince(ctx context.Context, db Querier, email string, since time.Time, except string) (int, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if s.Dialect == Postgres {
		if _, err := db.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "mailbox:"+email); err != nil {
			return 0, fmt.Errorf("store: lock mailbox: %w", err)
		}
	}
	var n int
	if err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM cancel_links WHERE email = ? AND created_at >= ? AND token_hash <> ?`),
		email, since.UTC(), HashToken(except)); err != nil {
		return 0, fmt.Errorf("store: count cancel links: %w", err)
	}
	return n, nil
}
