package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Stripe Billing's rows (migration 0014): the Stripe Customer of each of our
// customers, the Stripe Price of each plan price, and what ties our
// subscriptions and invoices to Stripe's.

// StripeCustomer reads the Stripe Customer id of one of our customers.
func (s *Store) StripeCustomer(ctx context.Context, db Querier, customerID string) (string, error) {
	var ref string
	err := db.GetContext(ctx, &ref, db.Rebind(`SELECT stripe_customer_id FROM stripe_customers WHERE customer_id = ?`), customerID)
	if err != nil {
		return "", notFound("stripe customer", err)
	}
	return ref, nil
}

// SaveStripeCustomer records a customer's Stripe Customer id; a second
// save of the same customer keeps the first id.
func (s *Store) SaveStripeCustomer(ctx context.Context, db Querier, customerID, ref string, now time.Time) error {
	if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO stripe_customers (customer_id, stripe_customer_id, created_at)
		VALUES (?, ?, ?) ON CONFLICT DO NOTHING`), customerID, ref, now.UTC()); err != nil {
		return fmt.Errorf("store: save stripe customer: %w", err)
	}
	return nil
}

// StripePrice is the Stripe Price made for a plan price.
type StripePrice struct {
	LookupKey     string    `db:"lookup_key"`
	StripePriceID string    `db:"stripe_price_id"`
	PlanID        string    `db:"plan_id"`
	Country       string    `db:"country"`
	Kind          string    `db:"kind"`
	CreatedAt     time.Time `db:"created_at"`
}

// StripePriceByKey reads the Stripe Price recorded under a lookup key.
func (s *Store) StripePriceByKey(ctx context.Context, db Querier, key string) (StripePrice, error) {
	var p StripePrice
	err := db.GetContext(ctx, &p, db.Rebind(`SELECT lookup_key, stripe_price_id, plan_id, country, kind, created_at
		FROM stripe_prices WHERE lookup_key = ?`), key)
	if err != nil {
		return StripePrice{}, notFound("stripe price", err)
	}
	return p, nil
}

// StripePriceByID reads the plan price a Stripe Price was made for.
func (s *Store) StripePriceByID(ctx context.Context, db Querier, priceID string) (StripePrice, error) {
	var p StripePrice
	err := db.GetContext(ctx, &p, db.Rebind(`SELECT lookup_key, stripe_price_id, plan_id, country, kind, created_at
		FROM stripe_prices WHERE stripe_price_id = ?`), priceID)
	if err != nil {
		return StripePrice{}, notFound("stripe price by id", err)
	}
	return p, nil
}

// SaveStripePrice records a Stripe Price; a key recorded before keeps its
// first price.
func (s *Store) SaveStripePrice(ctx context.Context, db Querier, p StripePrice) error {
	p.CreatedAt = p.CreatedAt.UTC()
	if _, err := db.NamedExecContext(ctx, `INSERT INTO stripe_prices (lookup_key, stripe_price_id, plan_id, country, kind, created_at)
		VALUES (:lookup_key, :stripe_price_id, :plan_id, :country, :kind, :created_at) ON CONFLICT DO NOTHING`, p); err != nil {
		return fmt.Errorf("store: save stripe price: %w", err)
	}
	return nil
}

// InsertSubscription records a new subscription without an invoice (Stripe
// writes the invoices). It reports false, and records nothing, when the
// customer already has a live subscription.
func (s *Store) InsertSubscription(ctx context.Context, db Querier, sub Subscription) (bool, error) {
	sub = utcSubscription(sub)
	res, err := db.NamedExecContext(ctx, `INSERT INTO subscriptions (`+subscriptionColumns+`) VALUES (:id, :customer_id, :email,
		:locale, :country, :plan_id, :status, :price, :currency, :current_period_start, :current_period_end, :trial_end,
		:cancel_at_period_end, :canceled_at, :ended_at, :provider, :provider_ref, :payment_method_ref, :card_brand, :card_last4,
		:version, :created_at, :updated_at) ON CONFLICT DO NOTHING`, sub)
	if err != nil {
		return false, fmt.Errorf("store: insert subscription: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SubscriptionSyncedAt reads when the newest provider event applied to a
// subscription was created (not valid: none yet).
func (s *Store) SubscriptionSyncedAt(ctx context.Context, db Querier, id string) (sql.NullTime, error) {
	var at sql.NullTime
	err := db.GetContext(ctx, &at, db.Rebind(`SELECT provider_synced_at FROM subscriptions WHERE id = ?`), id)
	if err != nil {
		return sql.NullTime{}, notFound("subscription synced at", err)
	}
	at.Time = at.Time.UTC()
	return at, nil
}

// MarkSubscriptionSynced moves a subscription's provider_synced_at forward
// to at, in tx; an earlier at changes nothing.
func (s *Store) MarkSubscriptionSynced(ctx context.Context, db Querier, id string, at time.Time) error {
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE subscriptions SET provider_synced_at = ?
		WHERE id = ? AND (provider_synced_at IS NULL OR provider_synced_at < ?)`), at.UTC(), id, at.UTC()); err != nil {
		return fmt.Errorf("store: mark subscription synced: %w", err)
	}
	return nil
}

// RecordProviderInvoice records, in tx, what a provider says about one of
// its invoices, keyed by the provider's invoice id: the first word inserts
// the row; later ones update it, except that a paid invoice stays paid (a
// late failure of an earlier attempt changes nothing). It returns the row
// as it now is; false when the invoice's period was already recorded under
// another provider invoice (nothing is written then).
func (s *Store) RecordProviderInvoice(ctx context.Context, db Querier, inv Invoice, providerInvoiceID string) (Invoice, bool, error) {
	inv = utcInvoice(inv)
	row := struct {
		Invoice
		ProviderInvoiceID string `db:"provider_invoice_id"`
	}{inv, providerInvoiceID}
	res, err := db.NamedExecContext(ctx, `INSERT INTO subscription_invoices (`+invoiceColumns+`, provider_invoice_id) VALUES (:id,
		:subscription_id, :kind, :plan_id, :period_start, :period_end, :amount, :currency, :status, :attempts, :attempt_open,
		:next_attempt_at, :idempotency_key, :provider_ref, :failure_code, :paid_at, :created_at, :updated_at,
		:provider_invoice_id) ON CONFLICT DO NOTHING`, row)
	if err != nil {
		return Invoice{}, false, fmt.Errorf("store: record provider invoice: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err != nil {
			return Invoice{}, false, err
		}
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE subscription_invoices SET status = ?, amount = ?, currency = ?,
			attempts = CASE WHEN attempts > ? THEN attempts ELSE ? END, failure_code = ?, next_attempt_at = ?, paid_at = ?, updated_at = ?
			WHERE provider_invoice_id = ? AND status <> ?`), inv.Status, inv.Amount, inv.Currency, inv.Attempts, inv.Attempts,
			inv.FailureCode, inv.NextAttemptAt, inv.PaidAt, inv.UpdatedAt, providerInvoiceID, InvoicePaid); err != nil {
			return Invoice{}, false, fmt.Errorf("store: update provider invoice: %w", err)
		}
	}
	var out Invoice
	err = sqlx.GetContext(ctx, db, &out, db.Rebind(`SELECT `+invoiceColumns+` FROM subscription_invoices WHERE provider_invoice_id = ?`),
		providerInvoiceID)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Invoice{}, false, nil
		}
		return Invoice{}, false, fmt.Errorf("store: read provider invoice: %w", err)
	}
	return utcInvoice(out), true, nil
}

// LatestInvoice reads a subscription's newest invoice.
func (s *Store) LatestInvoice(ctx context.Context, db Querier, subscriptionID string) (Invoice, error) {
	var inv Invoice
	err := db.GetContext(ctx, &inv, db.Rebind(`SELECT `+invoiceColumns+` FROM subscription_invoices
		WHERE subscription_id = ? ORDER BY period_start DESC, created_at DESC LIMIT 1`), subscriptionID)
	if err != nil {
		return Invoice{}, notFound("latest invoice", err)
	}
	return utcInvoice(inv), nil
}
