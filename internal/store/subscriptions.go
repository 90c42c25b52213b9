package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Plan is a subscription plan: its tier, its period (Period times
// Interval) and its trial.
type Plan struct {
	ID        string `db:"id"`
	Tier      string `db:"tier"`
	Title     string `db:"title"`
	TimeUnit  string `db:"time_unit"`
	Interval  string `db:"billing_interval"`
	Period    int    `db:"period"`
	TrialDays int    `db:"trial_days"`
	Sort      int    `db:"sort"`
	Active    bool   `db:"active"`
}

// PricedPlan is a plan with its price in one country.
type PricedPlan struct {
	Plan
	Country    string        `db:"country"`
	Currency   string        `db:"currency"`
	Price      int64         `db:"price"`
	TrialPrice sql.NullInt64 `db:"trial_price"`
}

// HasTrial reports whether the plan starts with a paid trial at this price:
// trial days and a trial price.
func (p PricedPlan) HasTrial() bool { return p.TrialDays > 0 && p.TrialPrice.Valid }

const pricedPlanColumns = `p.id, p.tier, p.title, p.time_unit, p.billing_interval, p.period, p.trial_days, p.sort, p.active,
	pp.country, pp.currency, pp.price, pp.trial_price`

// GetPlan reads an active plan with its price for a country, or its
// default price ('*') when the country has none.
func (s *Store) GetPlan(ctx context.Context, db Querier, id, country string) (PricedPlan, error) {
	var p PricedPlan
	err := db.GetContext(ctx, &p, db.Rebind(`SELECT `+pricedPlanColumns+` FROM plans p JOIN plan_prices pp ON pp.plan_id = p.id
		WHERE p.id = ? AND p.active = ? AND pp.country IN (?, '*') ORDER BY CASE WHEN pp.country = '*' THEN 1 ELSE 0 END LIMIT 1`), id, true, country)
	if err != nil {
		return PricedPlan{}, notFound("get plan", err)
	}
	return p, nil
}

// ListPlans lists the active plans priced for a country, in their order.
func (s *Store) ListPlans(ctx context.Context, db Querier, country string) ([]PricedPlan, error) {
	var out []PricedPlan
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+pricedPlanColumns+` FROM plans p JOIN plan_prices pp ON pp.plan_id = p.id
		WHERE p.active = ? AND pp.country = COALESCE((SELECT country FROM plan_prices x WHERE x.plan_id = p.id AND x.country = ?), '*')
		ORDER BY p.sort, p.id`), true, country)
	if err != nil {
		return nil, fmt.Errorf("store: list plans: %w", err)
	}
	return out, nil
}

// Subscription is a customer's subscription to a plan.
type Subscription struct {
	ID                 string             `db:"id"`
	CustomerID         string             `db:"customer_id"`
	Email              string             `db:"email"`
	Locale             string             `db:"locale"`
	Country            string             `db:"country"`
	PlanID             string             `db:"plan_id"`
	Status             SubscriptionStatus `db:"status"`
	Price              int64              `db:"price"`
	Currency           string             `db:"currency"`
	CurrentPeriodStart time.Time          `db:"current_period_start"`
	CurrentPeriodEnd   time.Time          `db:"current_period_end"`
	TrialEnd           sql.NullTime       `db:"trial_end"`
	CancelAtPeriodEnd  bool               `db:"cancel_at_period_end"`
	CanceledAt         sql.NullTime       `db:"canceled_at"`
	EndedAt            sql.NullTime       `db:"ended_at"`
	Provider           string             `db:"provider"`
	ProviderRef        sql.NullString     `db:"provider_ref"`
	PaymentMethodRef   sql.NullString     `db:"payment_method_ref"`
	CardBrand          sql.NullString     `db:"card_brand"`
	CardLast4          sql.NullString     `db:"card_last4"`
	// Version counts the writes: an update names the version it read, so
	// of two concurrent writers one wins and the other reads again.
	Version   int       `db:"version"`
	CreatedAt time.Time `db:"created_at"`
	UpdatedAt time.Time `db:"updated_at"`
}

// SubscriptionStatus is a subscription's state; the moves between states
// are the subscription package's state machine (subscription.CanMove).
type SubscriptionStatus string

// The subscription states. Incomplete is a subscription whose first charge
// is not settled yet: it never gives access. Canceled is the end after the
// last renewal retry was declined (or a past-due subscription cancelled);
// expired is the end of one cancelled at its period's end, or of one whose
// first charge was declined.
const (
	SubscriptionIncomplete SubscriptionStatus = "incomplete"
	SubscriptionTrialing   SubscriptionStatus = "trialing"
	SubscriptionActive     SubscriptionStatus = "active"
	SubscriptionPastDue    SubscriptionStatus = "past_due"
	SubscriptionCanceled   SubscriptionStatus = "canceled"
	SubscriptionExpired    SubscriptionStatus = "expired"
)

// Live reports whether a subscription in this state may still be charged
// or give access.
func (st SubscriptionStatus) Live() bool {
	return st == SubscriptionIncomplete || st == SubscriptionTrialing || st == SubscriptionActive || st == SubscriptionPastDue
}

// Ended reports whether the state is final (canceled or expired).
func (st SubscriptionStatus) Ended() bool {
	return st == SubscriptionCanceled || st == SubscriptionExpired
}

// Live reports whether the subscription may still be charged or give
// access (incomplete, trialing, active or past due).
func (sub Subscription) Live() bool { return sub.Status.Live() }

// Ended reports whether the subscription is over (canceled or expired).
func (sub Subscription) Ended() bool { return sub.Status.Ended() }

// PastDue reports whether the subscription's renewal is being retried.
func (sub Subscription) PastDue() bool { return sub.Status == SubscriptionPastDue }

const subscriptionColumns = `id, customer_id, email, locale, country, plan_id, status, price, currency, current_period_start,
	current_period_end, trial_end, cancel_at_period_end, canceled_at, ended_at, provider, provider_ref, payment_method_ref,
	card_brand, card_last4, version, created_at, updated_at`

// Invoice is the charge of one period of a subscription.
type Invoice struct {
	ID             string    `db:"id"`
	SubscriptionID string    `db:"subscription_id"`
	Kind           string    `db:"kind"`
	PlanID         string    `db:"plan_id"`
	PeriodStart    time.Time `db:"period_start"`
	PeriodEnd      time.Time `db:"period_end"`
	Amount         int64     `db:"amount"`
	Currency       string    `db:"currency"`
	Status         string    `db:"status"`
	// Attempts counts the charges tried; AttemptOpen is a charge whose
	// outcome is not yet recorded (in flight, or its runner died), which
	// is asked again with the same idempotency key, never tried anew.
	Attempts       int            `db:"attempts"`
	AttemptOpen    bool           `db:"attempt_open"`
	NextAttemptAt  time.Time      `db:"next_attempt_at"`
	IdempotencyKey sql.NullString `db:"idempotency_key"`
	ProviderRef    sql.NullString `db:"provider_ref"`
	FailureCode    sql.NullString `db:"failure_code"`
	PaidAt         sql.NullTime   `db:"paid_at"`
	CreatedAt      time.Time      `db:"created_at"`
	UpdatedAt      time.Time      `db:"updated_at"`
}

// Invoice states.
const (
	InvoicePending = "pending"
	InvoicePaid    = "paid"
	InvoiceFailed  = "failed"
	InvoiceVoid    = "void"
)

// Paid reports whether the invoice was charged.
func (inv Invoice) Paid() bool { return inv.Status == InvoicePaid }

const invoiceColumns = `id, subscription_id, kind, plan_id, period_start, period_end, amount, currency, status, attempts,
	attempt_open, next_attempt_at, idempotency_key, provider_ref, failure_code, paid_at, created_at, updated_at`

func utcSubscription(sub Subscription) Subscription {
	sub.CurrentPeriodStart, sub.CurrentPeriodEnd = sub.CurrentPeriodStart.UTC(), sub.CurrentPeriodEnd.UTC()
	sub.CreatedAt, sub.UpdatedAt = sub.CreatedAt.UTC(), sub.UpdatedAt.UTC()
	for _, t := range []*sql.NullTime{&sub.TrialEnd, &sub.CanceledAt, &sub.EndedAt} {
		t.Time = t.Time.UTC()
	}
	return sub
}

func utcInvoice(inv Invoice) Invoice {
	inv.PeriodStart, inv.PeriodEnd, inv.NextAttemptAt = inv.PeriodStart.UTC(), inv.PeriodEnd.UTC(), inv.NextAttemptAt.UTC()
	inv.CreatedAt, inv.UpdatedAt, inv.PaidAt.Time = inv.CreatedAt.UTC(), inv.UpdatedAt.UTC(), inv.PaidAt.Time.UTC()
	return inv
}

// StartSubscription records a new subscription and its first invoice. It
// reports false, and records nothing, when the customer already has a live
// subscription (a double submit). Run it in a transaction: a subscription
// never stands without its first invoice.
func (s *Store) StartSubscription(ctx context.Context, db Querier, sub Subscription, inv Invoice) (bool, error) {
	sub, inv = utcSubscription(sub), utcInvoice(inv)
	res, err := db.NamedExecContext(ctx, `INSERT INTO subscriptions (`+subscriptionColumns+`) VALUES (:id, :customer_id, :email,
		:locale, :country, :plan_id, :status, :price, :currency, :current_period_start, :current_period_end, :trial_end,
		:cancel_at_period_end, :canceled_at, :ended_at, :provider, :provider_ref, :payment_method_ref, :card_brand, :card_last4,
		:version, :created_at, :updated_at) ON CONFLICT DO NOTHING`, sub)
	if err != nil {
		return false, fmt.Errorf("store: insert subscription: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	if _, err := s.InsertInvoice(ctx, db, inv); err != nil {
		return false, err
	}
	return true, nil
}

// GetSubscription reads a subscription.
func (s *Store) GetSubscription(ctx context.Context, db Querier, id string) (Subscription, error) {
	var sub Subscription
	err := db.GetContext(ctx, &sub, db.Rebind(`SELECT `+subscriptionColumns+` FROM subscriptions WHERE id = ?`), id)
	if err != nil {
		return Subscription{}, notFound("get subscription", err)
	}
	return utcSubscription(sub), nil
}

// CustomerSubscriptions lists a customer's subscriptions, newest first.
func (s *Store) CustomerSubscriptions(ctx context.Context, db Querier, customerID string) ([]Subscription, error) {
	var out []Subscription
	if err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+subscriptionColumns+` FROM subscriptions WHERE customer_id = ?
		ORDER BY created_at DESC, id DESC`), customerID); err != nil {
		return nil, fmt.Errorf("store: customer subscriptions: %w", err)
	}
	for i := range out {
		out[i] = utcSubscription(out[i])
	}
	return out, nil
}

// UpdateSubscription writes sub in tx if it is still at the version it was
// read at (sub.Version), and bumps the version; false when another writer
// came first.
func (s *Store) UpdateSubscription(ctx context.Context, db Querier, sub Subscription) (bool, error) {
	sub = utcSubscription(sub)
	res, err := db.NamedExecContext(ctx, `UPDATE subscriptions SET plan_id = :plan_id, status = :status, price = :price,
		currency = :currency, current_period_start = :current_period_start, current_period_end = :current_period_end,
		trial_end = :trial_end, cancel_at_period_end = :cancel_at_period_end, canceled_at = :canceled_at, ended_at = :ended_at,
		provider_ref = :provider_ref, payment_method_ref = :payment_method_ref, card_brand = :card_brand, card_last4 = :card_last4,
		version = version + 1, updated_at = :updated_at WHERE id = :id AND version = :version`, sub)
	if err != nil {
		return false, fmt.Errorf("store: update subscription: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// DueSubscriptions lists subscriptions in one of the states whose current
// period ended at or before now, oldest first.
func (s *Store) DueSubscriptions(ctx context.Context, db Querier, statuses []SubscriptionStatus, now time.Time, limit int) ([]Subscription, error) {
	query, args, err := sqlx.In(`SELECT `+subscriptionColumns+` FROM subscriptions WHERE status IN (?) AND current_period_end <= ?
		ORDER BY current_period_end, id LIMIT ?`, statuses, now.UTC(), limit)
	if err != nil {
		return nil, err
	}
	var out []Subscription
	if err := db.SelectContext(ctx, &out, db.Rebind(query), args...); err != nil {
		return nil, fmt.Errorf("store: due subscriptions: %w", err)
	}
	for i := range out {
		out[i] = utcSubscription(out[i])
	}
	return out, nil
}

// RenewingBetween lists subscriptions that renew (trialing or active, not
// cancelled) with a period ending in (from, to], for the reminders.
func (s *Store) RenewingBetween(ctx context.Context, db Querier, from, to time.Time, limit int) ([]Subscription, error) {
	var out []Subscription
	if err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+subscriptionColumns+` FROM subscriptions
		WHERE status IN ('trialing', 'active') AND cancel_at_period_end = ? AND current_period_end > ? AND current_period_end <= ?
		ORDER BY current_period_end, id LIMIT ?`), false, from.UTC(), to.UTC(), limit); err != nil {
		return nil, fmt.Errorf("store: renewing subscriptions: %w", err)
	}
	for i := range out {
		out[i] = utcSubscription(out[i])
	}
	return out, nil
}

// InsertInvoice records an invoice in tx; false when its period (or another
// open invoice of the subscription) is already there.
func (s *Store) InsertInvoice(ctx context.Context, db Querier, inv Invoice) (bool, error) {
	inv = utcInvoice(inv)
	res, err := db.NamedExecContext(ctx, `INSERT INTO subscription_invoices (`+invoiceColumns+`) VALUES (:id, :subscription_id, :kind,
		:plan_id, :period_start, :period_end, :amount, :currency, :status, :attempts, :attempt_open, :next_attempt_at,
		:idempotency_key, :provider_ref, :failure_code, :paid_at, :created_at, :updated_at) ON CONFLICT DO NOTHING`, inv)
	if err != nil {
		return false, fmt.Errorf("store: insert invoice: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// GetInvoice reads an invoice.
func (s *Store) GetInvoice(ctx context.Context, db Querier, id string) (Invoice, error) {
	var inv Invoice
	err := db.GetContext(ctx, &inv, db.Rebind(`SELECT `+invoiceColumns+` FROM subscription_invoices WHERE id = ?`), id)
	if err != nil {
		return Invoice{}, notFound("get invoice", err)
	}
	return utcInvoice(inv), nil
}

// SubscriptionInvoices lists a subscription's invoices, oldest first.
func (s *Store) SubscriptionInvoices(ctx context.Context, db Querier, subscriptionID string) ([]Invoice, error) {
	var out []Invoice
	if err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+invoiceColumns+` FROM subscription_invoices
		WHERE subscription_id = ? ORDER BY period_start, created_at`), subscriptionID); err != nil {
		return nil, fmt.Errorf("store: subscription invoices: %w", err)
	}
	for i := range out {
		out[i] = utcInvoice(out[i])
	}
	return out, nil
}

// OpenInvoice reads a subscription's pending invoice; there is at most one.
func (s *Store) OpenInvoice(ctx context.Context, db Querier, subscriptionID string) (Invoice, error) {
	var inv Invoice
	err := db.GetContext(ctx, &inv, db.Rebind(`SELECT `+invoiceColumns+` FROM subscription_invoices
		WHERE subscription_id = ? AND status = ?`), subscriptionID, InvoicePending)
	if err != nil {
		return Invoice{}, notFound("open invoice", err)
	}
	return utcInvoice(inv), nil
}

// ChargeableInvoices lists pending invoices whose next attempt is due.
func (s *Store) ChargeableInvoices(ctx context.Context, db Querier, now time.Time, limit int) ([]Invoice, error) {
	var out []Invoice
	if err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+invoiceColumns+` FROM subscription_invoices
		WHERE status = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`), InvoicePending, now.UTC(), limit); err != nil {
		return nil, fmt.Errorf("store: chargeable invoices: %w", err)
	}
	for i := range out {
		out[i] = utcInvoice(out[i])
	}
	return out, nil
}

// ClaimInvoiceAttempt takes attempt number attempt of a pending invoice for
// one runner: it is open from now on, under key, and no other runner may
// take it before leaseUntil. seen is the invoice as the runner read it; false
// means another runner took it first.
func (s *Store) ClaimInvoiceAttempt(ctx context.Context, db Querier, seen Invoice, attempt int, key string, now, leaseUntil time.Time) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE subscription_invoices SET attempts = ?, attempt_open = ?, idempotency_key = ?,
		next_attempt_at = ?, updated_at = ? WHERE id = ? AND status = ? AND attempts = ? AND attempt_open = ? AND next_attempt_at <= ?`),
		attempt, true, key, leaseUntil.UTC(), now.UTC(), seen.ID, InvoicePending, seen.Attempts, seen.AttemptOpen, now.UTC())
	if err != nil {
		return false, fmt.Errorf("store: claim invoice: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SettleInvoiceAttempt records the outcome of an invoice's open attempt in
// tx: status paid, failed, or pending again with the next attempt at next.
// False when that attempt is no longer the invoice's open one (it was
// settled by another runner).
func (s *Store) SettleInvoiceAttempt(ctx context.Context, db Querier, id string, attempt int, status, ref, failureCode string, next, now time.Time) (bool, error) {
	paid := sql.NullTime{Time: now.UTC(), Valid: status == InvoicePaid}
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE subscription_invoices SET status = ?, attempt_open = ?, provider_ref = ?,
		failure_code = ?, next_attempt_at = ?, paid_at = ?, updated_at = ? WHERE id = ? AND status = ? AND attempts = ? AND attempt_open = ?`),
		status, false, sql.NullString{String: ref, Valid: ref != ""}, sql.NullString{String: failureCode, Valid: failureCode != ""},
		next.UTC(), paid, now.UTC(), id, InvoicePending, attempt, true)
	if err != nil {
		return false, fmt.Errorf("store: settle invoice: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// VoidOpenInvoice closes a subscription's pending invoice without charging
// it, when no attempt of it is in flight; false when there was none to
// close.
func (s *Store) VoidOpenInvoice(ctx context.Context, db Querier, subscriptionID string, now time.Time) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE subscription_invoices SET status = ?, updated_at = ?
		WHERE subscription_id = ? AND status = ? AND attempt_open = ?`), InvoiceVoid, now.UTC(), subscriptionID, InvoicePending, false)
	if err != nil {
		return false, fmt.Errorf("store: void invoice: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// SandboxMethod is a card saved in the sandbox provider's books.
type SandboxMethod struct {
	Ref       string    `db:"ref"`
	Brand     string    `db:"brand"`
	Last4     string    `db:"last4"`
	ExpMonth  int       `db:"exp_month"`
	ExpYear   int       `db:"exp_year"`
	Behaviour string    `db:"behaviour"`
	CreatedAt time.Time `db:"created_at"`
}

// InsertSandboxMethod saves a card in the sandbox's books.
func (s *Store) InsertSandboxMethod(ctx context.Context, db Querier, m SandboxMethod) error {
	m.CreatedAt = m.CreatedAt.UTC()
	if _, err := db.NamedExecContext(ctx, `INSERT INTO sandbox_payment_methods (ref, brand, last4, exp_month, exp_year, behaviour, created_at)
		VALUES (:ref, :brand, :last4, :exp_month, :exp_year, :behaviour, :created_at)`, m); err != nil {
		return fmt.Errorf("store: insert sandbox method: %w", err)
	}
	return nil
}

// GetSandboxMethod reads a saved sandbox card.
func (s *Store) GetSandboxMethod(ctx context.Context, db Querier, ref string) (SandboxMethod, error) {
	var m SandboxMethod
	err := db.GetContext(ctx, &m, db.Rebind(`SELECT ref, brand, last4, exp_month, exp_year, behaviour, created_at
		FROM sandbox_payment_methods WHERE ref = ?`), ref)
	if err != nil {
		return SandboxMethod{}, notFound("get sandbox method", err)
	}
	return m, nil
}

// HadTrial reports whether a customer has paid for a trial before, under
// this customer id or this e-mail address (an account that was a guest, or
// a new account for the same address): a declined trial does not count.
func (s *Store) HadTrial(ctx context.Context, db Querier, customerID, email string) (bool, error) {
	var n int
	err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM subscription_invoices i
		JOIN subscriptions s ON s.id = i.subscription_id
		WHERE i.kind = 'trial' AND i.status = 'paid' AND (s.customer_id = ? OR s.email = ?)`), customerID, email)
	if err != nil {
		return false, fmt.Errorf("store: had trial: %w", err)
	}
	return n > 0, nil
}
