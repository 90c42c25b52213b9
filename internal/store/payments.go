package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// OrderStatus is where an order is in its life. The store keeps the
// stored values; internal/order keeps the moves allowed between them.
type OrderStatus string

// The order statuses, as stored.
const (
	OrderCreated  OrderStatus = "created"
	OrderPending  OrderStatus = "pending"
	OrderPaid     OrderStatus = "paid"
	OrderFailed   OrderStatus = "failed"
	OrderExpired  OrderStatus = "expired"
	OrderRefunded OrderStatus = "refunded"
)

// Paid reports whether an order is paid for: what it sold is unlocked.
func (o Order) Paid() bool { return o.Status == OrderPaid }

// Bought reports whether an order was ever paid for, refunded since or not:
// what it sold is not offered to its buyer again.
func (o Order) Bought() bool { return o.Status == OrderPaid || o.Status == OrderRefunded }

// Unpaid reports whether an order has no payment on its way: never started
// (created), declined (failed) or expired. A pending order's payment may
// still arrive.
func (o Order) Unpaid() bool {
	return o.Status == OrderCreated || o.Status == OrderFailed || o.Status == OrderExpired
}

// Attempt is one attempt at paying an order.
type Attempt struct {
	ID           string         `db:"id"`
	OrderID      string         `db:"order_id"`
	Provider     string         `db:"provider"`
	ProviderRef  sql.NullString `db:"provider_ref"`
	ClientSecret sql.NullString `db:"client_secret"`
	Status       string         `db:"status"`
	Amount       int64          `db:"amount"`
	Currency     string         `db:"currency"`
	CardBrand    sql.NullString `db:"card_brand"`
	CardLast4    sql.NullString `db:"card_last4"`
	FailureCode  sql.NullString `db:"failure_code"`
	CreatedAt    time.Time      `db:"created_at"`
	UpdatedAt    time.Time      `db:"updated_at"`
	// PromoCode is the code this payment's price was discounted by, and
	// HoldUntil when the use of it that the payment holds ends (migration
	// 0020): while the attempt is started and before then, the use is
	// the attempt's, and no other payment can take it.
	PromoCode sql.NullString `db:"promo_code"`
	HoldUntil sql.NullTime   `db:"hold_until"`
}

// Holds reports whether an attempt holds a use of its promo code at a time.
func (a Attempt) Holds(at time.Time) bool {
	return a.Status == AttemptStarted && a.PromoCode.Valid && a.HoldUntil.Valid && at.Before(a.HoldUntil.Time)
}

// Attempt statuses.
const (
	AttemptStarted   = "started"
	AttemptSucceeded = "succeeded"
	AttemptFailed    = "failed"
)

const attemptColumns = `id, order_id, provider, provider_ref, client_secret, status, amount, currency, card_brand, card_last4,
	failure_code, created_at, updated_at, promo_code, hold_until`

// PricedOrder is what checkout writes on an order when payment starts.
type PricedOrder struct {
	ID, SKUID, Currency, Country, Email string
	Subtotal, Discount, Tax, Total      int64
	Promo                               sql.NullString
}

// AttemptSuperseded marks an attempt replaced by a newer one of its order.
const AttemptSuperseded = "superseded"

// ErrPromoTaken is a promo code whose every use is paid for or held by
// another open payment.
var ErrPromoTaken = errors.New("store: promo code has no use left")

// StartPayment prices an order, moves it to pending from one of the states
// given, marks the order's other open attempts superseded (which gives back
// the promo uses they held) and records a new attempt. An attempt with a
// promo code holds one of its uses, or the whole start fails with
// ErrPromoTaken. It reports false when the order was not in one of those
// states (another click won), and the provider references of the attempts
// it superseded, to cancel them there. Run it in a transaction, and roll
// it back on any error: a start is recorded whole or not at all, and the
// promo code stays locked until it ends.
func (s *Store) StartPayment(ctx context.Context, db Querier, o PricedOrder, from []OrderStatus, a Attempt) (bool, []string, error) {
	states := make([]string, len(from))
	for i, st := range from {
		states[i] = string(st)
	}
	query, args, err := sqlx.In(`UPDATE orders SET status = ?, sku_id = ?, currency = ?, subtotal = ?, discount = ?, tax = ?,
		total = ?, promo_code = ?, email = ?, country = ?, updated_at = ? WHERE id = ? AND status IN (?)`,
		string(OrderPending), o.SKUID, o.Currency, o.Subtotal, o.Discount, o.Tax, o.Total, o.Promo, o.Email, o.Country, a.CreatedAt, o.ID, states)
	if err != nil {
		return false, nil, fmt.Errorf("store: start payment: %w", err)
	}
	res, err := db.ExecContext(ctx, db.Rebind(query), args...)
	if err != nil {
		return false, nil, fmt.Errorf("store: start payment: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil, nil
	}
	// Every earlier payment is closed at the provider: open ones, and
	// failed ones a provider may keep open for another card (Stripe).
	var superseded []string
	if err := db.SelectContext(ctx, &superseded, db.Rebind(`SELECT provider_ref FROM payment_attempts
		WHERE order_id = ? AND id <> ? AND status IN (?, ?) AND provider_ref IS NOT NULL`), o.ID, a.ID, AttemptStarted, AttemptFailed); err != nil {
		return false, nil, fmt.Errorf("store: open attempts: %w", err)
	}
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE payment_attempts SET status = ?, updated_at = ? WHERE order_id = ? AND id <> ? AND status = ?`),
		AttemptSuperseded, a.CreatedAt, o.ID, a.ID, AttemptStarted); err != nil {
		return false, nil, fmt.Errorf("store: supersede attempts: %w", err)
	}
	if a.PromoCode.Valid {
		_, left, err := s.PromoLeft(ctx, db, a.PromoCode.String, a.ID, a.CreatedAt)
		if err != nil {
			return false, nil, err
		}
		if !left {
			return false, nil, ErrPromoTaken
		}
	}
	if _, err := db.NamedExecContext(ctx, `INSERT INTO payment_attempts (`+attemptColumns+`) VALUES (:id, :order_id, :provider,
		:provider_ref, :client_secret, :status, :amount, :currency, :card_brand, :card_last4, :failure_code, :created_at, :updated_at,
		:promo_code, :hold_until)`, a); err != nil {
		return false, nil, fmt.Errorf("store: insert attempt: %w", err)
	}
	return true, superseded, nil
}

// PromoLeft reads a promo code in tx and reports whether it has a use that
// is neither paid for nor held at a time by an open attempt other than
// except. It locks the code's row first and keeps it locked until tx ends,
// so two payments cannot both see the last use free: of two concurrent
// calls, the second waits and then counts the first one's hold.
func (s *Store) PromoLeft(ctx context.Context, db Querier, code, except string, at time.Time) (Promo, bool, error) {
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE promo_codes SET uses = uses WHERE code = ?`), code); err != nil {
		return Promo{}, false, fmt.Errorf("store: lock promo: %w", err)
	}
	var c struct {
		Promo
		Held int64 `db:"held"`
	}
	err := db.GetContext(ctx, &c, db.Rebind(`SELECT p.code, p.kind, p.value, p.currency, p.valid_from, p.valid_until, p.max_uses, p.uses,
		(SELECT COUNT(*) FROM payment_attempts a WHERE a.promo_code = p.code AND a.status = ? AND a.hold_until > ? AND a.id <> ?) AS held
		FROM promo_codes p WHERE p.code = ?`), AttemptStarted, at.UTC(), except, code)
	if err != nil {
		return Promo{}, false, notFound("promo left", err)
	}
	return c.Promo, !c.MaxUses.Valid || int64(c.Uses)+c.Held < c.MaxUses.Int64, nil
}

// SetAttemptStarted records the provider's reference of an attempt.
func (s *Store) SetAttemptStarted(ctx context.Context, db Querier, id, ref, secret string, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE payment_attempts SET provider_ref = ?, client_secret = ?, updated_at = ? WHERE id = ?`),
		ref, sql.NullString{String: secret, Valid: secret != ""}, now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: set attempt started: %w", err)
	}
	return nil
}

// SetAttemptCard records the brand and last four digits of the card used;
// nothing more of a card is ever stored.
func (s *Store) SetAttemptCard(ctx context.Context, db Querier, id, brand, last4 string, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE payment_attempts SET card_brand = ?, card_last4 = ?, updated_at = ? WHERE id = ?`),
		brand, last4, now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: set attempt card: %w", err)
	}
	return nil
}

// LockAttempt reads an attempt in tx after locking its row, so that events
// of one payment applied at once are applied one after the other, each
// seeing what the one before did.
func (s *Store) LockAttempt(ctx context.Context, db Querier, id string) (Attempt, error) {
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE payment_attempts SET updated_at = updated_at WHERE id = ?`), id); err != nil {
		return Attempt{}, fmt.Errorf("store: lock attempt: %w", err)
	}
	return s.GetAttempt(ctx, db, id)
}

// GetAttempt reads an attempt.
func (s *Store) GetAttempt(ctx context.Context, db Querier, id string) (Attempt, error) {
	var a Attempt
	err := db.GetContext(ctx, &a, db.Rebind(`SELECT `+attemptColumns+` FROM payment_attempts WHERE id = ?`), id)
	if err != nil {
		return Attempt{}, notFound("get attempt", err)
	}
	return a, nil
}

// LatestAttempt reads the newest attempt of an order.
func (s *Store) LatestAttempt(ctx context.Context, db Querier, orderID string) (Attempt, error) {
	var a Attempt
	err := db.GetContext(ctx, &a, db.Rebind(`SELECT `+attemptColumns+` FROM payment_attempts WHERE order_id = ?
		ORDER BY created_at DESC, id DESC LIMIT 1`), orderID)
	if err != nil {
		return Attempt{}, notFound("latest attempt", err)
	}
	return a, nil
}

// OpenAttempt reads the order's attempt that is still waiting for its
// outcome; there is at most one, as a new attempt supersedes the others.
func (s *Store) OpenAttempt(ctx context.Context, db Querier, orderID string) (Attempt, error) {
	var a Attempt
	err := db.GetContext(ctx, &a, db.Rebind(`SELECT `+attemptColumns+` FROM payment_attempts WHERE order_id = ? AND status = ?
		ORDER BY created_at DESC, id DESC LIMIT 1`), orderID, AttemptStarted)
	if err != nil {
		return Attempt{}, notFound("open attempt", err)
	}
	return a, nil
}

// StaleAttempts lists attempts still started before a time, for the
// reconciler.
func (s *Store) StaleAttempts(ctx context.Context, db Querier, before time.Time, limit int) ([]Attempt, error) {
	var out []Attempt
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+attemptColumns+` FROM payment_attempts
		WHERE status = ? AND provider_ref IS NOT NULL AND updated_at < ? ORDER BY updated_at LIMIT ?`), AttemptStarted, before.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: stale attempts: %w", err)
	}
	return out, nil
}

// EndedHolds lists attempts still started whose promo hold ended by a
// time, for the reconciler to close: a payment left open must not be paid
// later at a price its code no longer gives.
func (s *Store) EndedHolds(ctx context.Context, db Querier, before time.Time, limit int) ([]Attempt, error) {
	var out []Attempt
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+attemptColumns+` FROM payment_attempts
		WHERE promo_code IS NOT NULL AND status = ? AND provider_ref IS NOT NULL AND hold_until <= ? ORDER BY hold_until LIMIT ?`),
		AttemptStarted, before.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: ended holds: %w", err)
	}
	return out, nil
}

// TouchAttempt records that the provider was asked about an attempt that
// is still open, so the next reconciliation asks about others first.
func (s *Store) TouchAttempt(ctx context.Context, db Querier, id string, now time.Time) error {
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE payment_attempts SET updated_at = ? WHERE id = ? AND status = ?`),
		now.UTC(), id, AttemptStarted); err != nil {
		return fmt.Errorf("store: touch attempt: %w", err)
	}
	return nil
}

// RecordEvent notes a provider event in tx; false means it was applied
// before and must change nothing now.
func (s *Store) RecordEvent(ctx context.Context, db Querier, provider, id, kind, attemptID string, now time.Time) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO payment_events (provider, event_id, kind, attempt_id, received_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (provider, event_id) DO NOTHING`), provider, id, kind, attemptID, now.UTC())
	if err != nil {
		return false, fmt.Errorf("store: record event: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SetAttemptOutcome records how an attempt ended, in tx.
func (s *Store) SetAttemptOutcome(ctx context.Context, db Querier, id, status, failureCode string, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE payment_attempts SET status = ?, failure_code = ?, updated_at = ? WHERE id = ?`),
		status, sql.NullString{String: failureCode, Valid: failureCode != ""}, now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: set attempt outcome: %w", err)
	}
	return nil
}

// Conversion is a recorded purchase, for ad measurement after consent.
type Conversion struct {
	ID        string    `db:"id"`
	OrderID   string    `db:"order_id"`
	Kind      string    `db:"kind"`
	Amount    int64     `db:"amount"`
	Currency  string    `db:"currency"`
	CreatedAt time.Time `db:"created_at"`
}

// InsertConversion records a conversion in tx.
func (s *Store) InsertConversion(ctx context.Context, db Querier, c Conversion) error {
	if _, err := db.NamedExecContext(ctx, `INSERT INTO conversions (id, order_id, kind, amount, currency, created_at)
		VALUES (:id, :order_id, :kind, :amount, :currency, :created_at)`, c); err != nil {
		return fmt.Errorf("store: insert conversion: %w", err)
	}
	return nil
}

// GetOrder reads an order by id.
func (s *Store) GetOrder(ctx context.Context, db Querier, id string) (Order, error) {
	var o Order
	err := db.GetContext(ctx, &o, db.Rebind(`SELECT `+orderColumns+` FROM orders WHERE id = ?`), id)
	if err != nil {
		return Order{}, notFound("get order", err)
	}
	return o, nil
}

// SandboxPayment is a payment in the sandbox provider's own books.
type SandboxPayment struct {
	Ref       string    `db:"ref"`
	AttemptID string    `db:"attempt_id"`
	Amount    int64     `db:"amount"`
	Currency  string    `db:"currency"`
	State     string    `db:"state"`
	CreatedAt time.Time `db:"created_at"`
	UpdatedAt time.Time `db:"updated_at"`
}

// InsertSandboxPayment opens a sandbox payment; one already open under the
// same reference stays as it is.
func (s *Store) InsertSandboxPayment(ctx context.Context, db Querier, p SandboxPayment) error {
	if _, err := db.NamedExecContext(ctx, `INSERT INTO sandbox_payments (ref, attempt_id, amount, currency, state, created_at, updated_at)
		VALUES (:ref, :attempt_id, :amount, :currency, :state, :created_at, :updated_at) ON CONFLICT (ref) DO NOTHING`, p); err != nil {
		return fmt.Errorf("store: insert sandbox payment: %w", err)
	}
	return nil
}

// GetSandboxPayment reads a sandbox payment.
func (s *Store) GetSandboxPayment(ctx context.Context, db Querier, ref string) (SandboxPayment, error) {
	var p SandboxPayment
	err := db.GetContext(ctx, &p, db.Rebind(`SELECT ref, attempt_id, amount, currency, state, created_at, updated_at
		FROM sandbox_payments WHERE ref = ?`), ref)
	if err != nil {
		return SandboxPayment{}, notFound("get sandbox payment", err)
	}
	return p, nil
}

// MoveSandboxPayment changes a sandbox payment's state from one of the given
// states; false when it was in none of them.
func (s *Store) MoveSandboxPayment(ctx context.Context, db Querier, ref string, from []string, to string, now time.Time) (bool, error) {
	query, args, err := sqlx.In(`UPDATE sandbox_payments SET state = ?, updated_at = ? WHERE ref = ? AND state IN (?)`, to, now.UTC(), ref, from)
	if err != nil {
		return false, err
	}
	res, err := db.ExecContext(ctx, db.Rebind(query), args...)
	if err != nil {
		return false, fmt.Errorf("store: move sandbox payment: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// CountPaidSince counts the orders paid since a time.
func (s *Store) CountPaidSince(ctx context.Context, db Querier, since time.Time) (int, error) {
	var n int
	err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM orders WHERE status = 'paid' AND kind = 'report' AND updated_at >= ?`), since.UTC())
	if err != nil {
		return 0, fmt.Errorf("store: count paid: %w", err)
	}
	return n, nil
}

// CountResults counts every test completed.
func (s *Store) CountResults(ctx context.Context, db Querier) (int, error) {
	var n int
	if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM results`); err != nil {
		return 0, fmt.Errorf("store: count results: %w", err)
	}
	return n, nil
}
