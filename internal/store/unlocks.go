package store

import (
	"context"
	"fmt"
	"time"
)

// UnlockHow is what opened a report without its order being paid.
type UnlockHow string

// The ways a plan opens a report: a Premium member's own report, or one of
// the free reports of a Basic plan's billing period.
const (
	UnlockPremium   UnlockHow = "premium"
	UnlockBasicFree UnlockHow = "basic_free"
)

// ReportUnlock is a report a plan opened: one per result, kept when the
// plan ends.
type ReportUnlock struct {
	ResultID       string    `db:"result_id"`
	UserID         string    `db:"user_id"`
	How            UnlockHow `db:"how"`
	SubscriptionID string    `db:"subscription_id"`
	CreatedAt      time.Time `db:"created_at"`
}

// reportOpen is the rule of an open report, for a result named r: its
// first report order is paid (the rule of OrderForResult), or a plan
// unlocked it.
const reportOpen = `(EXISTS (SELECT 1 FROM orders o WHERE o.result_id = r.id AND o.kind = 'report' AND o.status = 'paid'
		AND NOT EXISTS (SELECT 1 FROM orders e WHERE e.result_id = o.result_id AND e.kind = o.kind AND e.created_at < o.created_at))
	OR EXISTS (SELECT 1 FROM report_unlocks u WHERE u.result_id = r.id))`

// ReportOpen reports whether a result's report is open: paid for, or
// unlocked by a plan. A result that does not exist is not open.
func (s *Store) ReportOpen(ctx context.Context, db Querier, resultID string) (bool, error) {
	var n int
	err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM results r WHERE r.id = ? AND `+reportOpen), resultID)
	if err != nil {
		return false, fmt.Errorf("store: report open: %w", err)
	}
	return n == 1, nil
}

// UserOpenReports is the set of the account's results whose report is
// open (ReportOpen), read in one query.
func (s *Store) UserOpenReports(ctx context.Context, db Querier, userID string) (map[string]bool, error) {
	var ids []string
	err := db.SelectContext(ctx, &ids, db.Rebind(`SELECT r.id FROM results r WHERE r.user_id = ? AND `+reportOpen), userID)
	if err != nil {
		return nil, fmt.Errorf("store: user open reports: %w", err)
	}
	open := make(map[string]bool, len(ids))
	for _, id := range ids {
		open[id] = true
	}
	return open, nil
}

// UnlockReport records that a plan opened a result's report, only when the
// result is the account's and its report is not open yet: false when
// nothing was written. Of two concurrent calls for one result, one writes.
func (s *Store) UnlockReport(ctx context.Context, db Querier, u ReportUnlock) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO report_unlocks (result_id, user_id, how, subscription_id, created_at)
		SELECT r.id, r.user_id, ?, ?, ? FROM results r WHERE r.id = ? AND r.user_id = ? AND NOT `+reportOpen+`
		ON CONFLICT (result_id) DO NOTHING`), string(u.How), u.SubscriptionID, u.CreatedAt.UTC(), u.ResultID, u.UserID)
	if err != nil {
		return false, fmt.Errorf("store: unlock report: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// UnlockUserReports opens, as a Premium member's, every report of the
// account that is not open yet; it returns how many it opened.
func (s *Store) UnlockUserReports(ctx context.Context, db Querier, userID, subscriptionID string, now time.Time) (int, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO report_unlocks (result_id, user_id, how, subscription_id, created_at)
		SELECT r.id, r.user_id, ?, ?, ? FROM results r WHERE r.user_id = ? AND NOT `+reportOpen+`
		ON CONFLICT (result_id) DO NOTHING`), string(UnlockPremium), subscriptionID, now.UTC(), userID)
	if err != nil {
		return 0, fmt.Errorf("store: unlock user reports: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// CountUnlocks counts the reports a subscription opened one way since a
// time (the start of its current period).
func (s *Store) CountUnlocks(ctx context.Context, db Querier, subscriptionID string, how UnlockHow, since time.Time) (int, error) {
	var n int
	err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM report_unlocks WHERE subscription_id = ? AND how = ? AND created_at >= ?`),
		subscriptionID, string(how), since.UTC())
	if err != nil {
		return 0, fmt.Errorf("store: count unlocks: %w", err)
	}
	return n, nil
}

// GetReportUnlock reads how a result's report was unlocked.
func (s *Store) GetReportUnlock(ctx context.Context, db Querier, resultID string) (ReportUnlock, error) {
	var u ReportUnlock
	err := db.GetContext(ctx, &u, db.Rebind(`SELECT result_id, user_id, how, subscription_id, created_at FROM report_unlocks
		WHERE result_id = ?`), resultID)
	if err != nil {
		return ReportUnlock{}, notFound("get report unlock", err)
	}
	return u, nil
}

// HoldSubscription locks a subscription's row until the transaction ends,
// changing nothing: two transactions that count what it used (its free
// reports) and then use one more run one after the other. (SQLite runs
// every transaction alone already.)
func (s *Store) HoldSubscription(ctx context.Context, db Querier, id string) error {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE subscriptions SET id = id WHERE id = ?`), id)
	if err != nil {
		return fmt.Errorf("store: hold subscription: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
