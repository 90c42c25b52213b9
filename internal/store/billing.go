package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// PaidInvoice is a paid charge of one of a customer's subscriptions, with
// the card the subscription has now (CardChangesOf says which card it was
// charged to).
type PaidInvoice struct {
	Invoice
	CardBrand sql.NullString `db:"card_brand"`
	CardLast4 sql.NullString `db:"card_last4"`
}

// PaidInvoices lists the paid invoices of a customer's subscriptions,
// newest payment first.
func (s *Store) PaidInvoices(ctx context.Context, db Querier, customerID string) ([]PaidInvoice, error) {
	var out []PaidInvoice
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT i.id, i.subscription_id, i.kind, i.plan_id, i.period_start, i.period_end,
		i.amount, i.currency, i.status, i.attempts, i.attempt_open, i.next_attempt_at, i.idempotency_key, i.provider_ref,
		i.failure_code, i.paid_at, i.created_at, i.updated_at, s.card_brand, s.card_last4
		FROM subscription_invoices i JOIN subscriptions s ON s.id = i.subscription_id
		WHERE s.customer_id = ? AND i.status = ? ORDER BY COALESCE(i.paid_at, i.updated_at) DESC, i.id DESC`), customerID, InvoicePaid)
	if err != nil {
		return nil, fmt.Errorf("store: paid invoices: %w", err)
	}
	for i := range out {
		out[i].Invoice = utcInvoice(out[i].Invoice)
	}
	return out, nil
}

// PaidOrder is a paid order of an account with the card of the attempt
// that paid it, when the provider told it.
type PaidOrder struct {
	Order
	PaidAt    sql.NullTime   `db:"paid_at"`
	CardBrand sql.NullString `db:"card_brand"`
	CardLast4 sql.NullString `db:"card_last4"`
}

const paidOrderColumns = `o.id, o.order_number, o.result_id, o.exam_id, o.kind, o.status, o.email, o.sku_id, o.currency, o.subtotal,
	o.discount, o.tax, o.total, o.promo_code, o.country, o.created_at, o.updated_at, a.updated_at AS paid_at, a.card_brand, a.card_last4`

// paidOrderJoin joins an order to its succeeded attempt (at most one
// succeeds: the order is paid once).
const paidOrderJoin = ` FROM orders o LEFT JOIN payment_attempts a ON a.order_id = o.id AND a.status = 'succeeded'`

// PaidOrders lists an account's paid orders (reports and packs), newest
// first.
func (s *Store) PaidOrders(ctx context.Context, db Querier, userID string) ([]PaidOrder, error) {
	var out []PaidOrder
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+paidOrderColumns+paidOrderJoin+`
		WHERE o.user_id = ? AND o.status = ? ORDER BY COALESCE(a.updated_at, o.updated_at) DESC, o.id DESC`), userID, OrderPaid)
	if err != nil {
		return nil, fmt.Errorf("store: paid orders: %w", err)
	}
	for i := range out {
		out[i].CreatedAt, out[i].UpdatedAt, out[i].PaidAt.Time = out[i].CreatedAt.UTC(), out[i].UpdatedAt.UTC(), out[i].PaidAt.Time.UTC()
	}
	return out, nil
}

// CardChange is a card replaced on a subscription: the card before and the
// card after.
type CardChange struct {
	ID             string         `db:"id"`
	SubscriptionID string         `db:"subscription_id"`
	OldBrand       sql.NullString `db:"old_brand"`
	OldLast4       sql.NullString `db:"old_last4"`
	NewBrand       sql.NullString `db:"new_brand"`
	NewLast4       sql.NullString `db:"new_last4"`
	ChangedAt      time.Time      `db:"changed_at"`
}

// InsertCardChange records a card replaced on a subscription. Run it in the
// transaction that writes the new card on the subscription.
func (s *Store) InsertCardChange(ctx context.Context, db Querier, c CardChange) error {
	c.ChangedAt = c.ChangedAt.UTC()
	if _, err := db.NamedExecContext(ctx, `INSERT INTO subscription_card_changes (id, subscription_id, old_brand, old_last4,
		new_brand, new_last4, changed_at) VALUES (:id, :subscription_id, :old_brand, :old_last4, :new_brand, :new_last4, :changed_at)`, c); err != nil {
		return fmt.Errorf("store: insert card change: %w", err)
	}
	return nil
}

// CardChangesOf lists the card changes of a customer's subscriptions,
// oldest first.
func (s *Store) CardChangesOf(ctx context.Context, db Querier, customerID string) ([]CardChange, error) {
	var out []CardChange
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT c.id, c.subscription_id, c.old_brand, c.old_last4, c.new_brand, c.new_last4,
		c.changed_at FROM subscription_card_changes c JOIN subscriptions s ON s.id = c.subscription_id
		WHERE s.customer_id = ? ORDER BY c.changed_at, c.id`), customerID)
	if err != nil {
		return nil, fmt.Errorf("store: card changes: %w", err)
	}
	for i := range out {
		out[i].ChangedAt = out[i].ChangedAt.UTC()
	}
	return out, nil
}

// SetUserEmail replaces an account's address (lower-cased) and marks it
// verified: the caller checked a code mailed to it. ErrDuplicate when
// another account has the address (or the account is gone).
func (s *Store) SetUserEmail(ctx context.Context, db Querier, id, email string, now time.Time) error {
	email = strings.ToLower(email)
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET email = ?, email_verified_at = ?, updated_at = ? WHERE id = ?
		AND NOT EXISTS (SELECT 1 FROM users o WHERE o.email = ? AND o.id <> ?)`), email, now.UTC(), now.UTC(), id, email, id)
	if err != nil {
		return fmt.Errorf("store: set user email: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrDuplicate
	}
	return nil
}

// SetUserName replaces an account's name.
func (s *Store) SetUserName(ctx context.Context, db Querier, id, name string, now time.Time) error {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET name = ?, updated_at = ? WHERE id = ?`), name, now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: set user name: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
