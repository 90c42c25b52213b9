package store

import (
	"context"
	"fmt"
	"time"
)

// takeToken is one check of a token bucket kept as its theoretical arrival
// time (tat, the GCRA form): a request is admitted when tat is at most
// limitAt (now plus burst-1 intervals), and then tat moves to
// max(tat, now) plus one interval; a refused request leaves tat alone. One
// upsert does the read, the decision and the write, so concurrent checks of
// one bucket, from any instance, queue on its row and never over-admit.
// Every SET expression reads the row as it was before the update.
const takeToken = `INSERT INTO rate_limits (name, subject, tat, allowed) VALUES (?, ?, ?, ?)
ON CONFLICT (name, subject) DO UPDATE SET
	allowed = (rate_limits.tat <= ?),
	tat = CASE WHEN rate_limits.tat <= ?
		THEN (CASE WHEN rate_limits.tat > ? THEN rate_limits.tat ELSE ? END) + ?
		ELSE rate_limits.tat END
RETURNING allowed`

// TakeToken checks the bucket of a limit (name) for one client (subject)
// and takes a token when one is left: a bucket holds burst tokens and gains
// one every interval. It reports whether the request is admitted.
func (s *Store) TakeToken(ctx context.Context, db Querier, name, subject string, now time.Time, interval time.Duration, burst int) (bool, error) {
	if interval <= 0 || burst < 1 {
		return false, fmt.Errorf("store: take token %s: interval %v and burst %d must be positive", name, interval, burst)
	}
	at, step := now.UnixMicro(), max(interval.Microseconds(), 1)
	limitAt := at + int64(burst-1)*step
	var allowed bool
	err := db.QueryRowxContext(ctx, db.Rebind(takeToken), name, subject, at+step, true, limitAt, limitAt, at, at, step).Scan(&allowed)
	if err != nil {
		return false, fmt.Errorf("store: take token %s: %w", name, err)
	}
	return allowed, nil
}

// PruneRateLimits deletes the buckets that are full again by now: they say
// nothing a missing row does not.
func (s *Store) PruneRateLimits(ctx context.Context, db Querier, now time.Time) (int64, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM rate_limits WHERE tat <= ?`), now.UnixMicro())
	if err != nil {
		return 0, fmt.Errorf("store: prune rate limits: %w", err)
	}
	return res.RowsAffected()
}
