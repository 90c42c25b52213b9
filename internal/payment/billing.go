package payment

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Billing is a provider that runs subscriptions itself (Stripe Billing): it
// keeps the customer's card, charges each period, retries declines, and
// reports what happened as events (EventInvoicePaid, EventInvoiceFailed,
// EventSubscriptionUpdated, EventSubscriptionDeleted) that our state
// follows. Every call that creates or changes something carries an
// idempotency key derived from our rows, so a repeated call is the same
// call.
type Billing interface {
	// EnsureCustomer creates the provider's customer for one of ours and
	// returns its id.
	EnsureCustomer(ctx context.Context, c BillingCustomer) (string, error)
	// AttachMethod attaches a payment method made in the browser (a
	// Stripe PaymentMethod, pm_...) to a customer as the default for its
	// invoices, and returns the card's brand and last four digits.
	AttachMethod(ctx context.Context, customerRef, methodRef string) (SavedCard, error)
	// EnsurePrice finds or creates the provider's price for one of ours
	// (recurring, or the one-off trial price), by its lookup key.
	EnsurePrice(ctx context.Context, p PriceSpec) (string, error)
	// CreateSubscription starts a subscription and charges its first
	// invoice at once: the trial price with a trial, else the first period.
	CreateSubscription(ctx context.Context, r SubscriptionRequest) (BillingSubscription, error)
	// UpdateSubscription moves a subscription to another price now: the
	// trial or period ends, the new price is billed at once without
	// proration, and the change waits for that payment (Pending when it
	// was not paid).
	UpdateSubscription(ctx context.Context, ref string, u SubscriptionUpdate) (BillingSubscription, error)
	// CancelAtPeriodEnd stops a subscription from renewing.
	CancelAtPeriodEnd(ctx context.Context, ref, idempotencyKey string) (BillingSubscription, error)
	// CancelNow ends a subscription at once (a past-due one, or one whose
	// first charge was declined).
	CancelNow(ctx context.Context, ref, idempotencyKey string) (BillingSubscription, error)
	// Subscription reads a subscription as it is now, with what its unpaid
	// first payment waits for (LatestInvoice.ActionSecret).
	Subscription(ctx context.Context, ref string) (BillingSubscription, error)
}

// The events of a Billing provider: what Stripe says about a subscription's
// invoices and the subscription itself.
const (
	EventInvoicePaid         EventKind = "invoice.paid"
	EventInvoiceFailed       EventKind = "invoice.payment_failed"
	EventSubscriptionUpdated EventKind = "subscription.updated"
	EventSubscriptionDeleted EventKind = "subscription.deleted"
)

// Billing reports whether an event is about a subscription (the
// subscription service applies it) rather than an order's payment
// (checkout does).
func (k EventKind) Billing() bool {
	switch k {
	case EventInvoicePaid, EventInvoiceFailed, EventSubscriptionUpdated, EventSubscriptionDeleted:
		return true
	}
	return false
}

// BillingCustomer is one of our customers, as the provider needs it.
type BillingCustomer struct {
	// CustomerID is ours (a user id or a guest's e-mail); it goes into the
	// provider customer's metadata.
	CustomerID string
	Email      string
	// IdempotencyKey is derived from CustomerID.
	IdempotencyKey string
}

// PriceSpec is one of our plan prices: recurring (Interval set) or the
// one-off trial price (Interval empty).
type PriceSpec struct {
	PlanID, PlanTitle, Country string
	// Amount is in our hundredths; Currency as in plan_prices (USD).
	Amount   int64
	Currency string
	// Interval is DAY, WEEK, MONTH or YEAR, and Count how many of them a
	// period is; empty for a one-off price.
	Interval string
	Count    int
}

// LookupKey names the price at the provider: every field that makes it
// what it is, so a changed amount or period is a new price, never a changed
// one.
func (p PriceSpec) LookupKey() string {
	kind := "once"
	if p.Interval != "" {
		kind = strings.ToLower(p.Interval) + strconv.Itoa(p.Count)
	}
	country := p.Country
	if country == "*" {
		country = "any"
	}
	return strings.Join([]string{"selfmap", p.PlanID, country, strings.ToLower(p.Currency), strconv.FormatInt(p.Amount, 10), kind}, "_")
}

// SubscriptionRequest starts a subscription.
type SubscriptionRequest struct {
	CustomerRef, MethodRef string
	// PriceRef is the plan's recurring price.
	PriceRef string
	// TrialDays > 0 starts with a trial of that many days, and
	// TrialPriceRef (a one-off price) is charged for it at once; 0 charges
	// the first period at once ("pay now").
	TrialDays     int
	TrialPriceRef string
	// SubscriptionID is ours; it goes into the metadata, so every event
	// about the subscription names our row.
	SubscriptionID string
	IdempotencyKey string
}

// SubscriptionUpdate moves a subscription to another price at once.
type SubscriptionUpdate struct {
	PriceRef       string
	IdempotencyKey string
}

// BillingSubscription is a subscription as the provider sees it.
type BillingSubscription struct {
	Ref string
	// CustomerRef is the provider's customer the subscription bills.
	CustomerRef string
	// SubscriptionID is ours, from the metadata ("" for a subscription
	// Selfmap did not create).
	SubscriptionID string
	// Status is the provider's: incomplete, incomplete_expired, trialing,
	// active, past_due, unpaid, canceled, paused.
	Status            string
	CancelAtPeriodEnd bool
	// The current period (of the subscription's item), the trial's end,
	// and when it was cancelled and ended; zero when not set.
	PeriodStart, PeriodEnd, TrialEnd, CanceledAt, EndedAt time.Time
	// PriceRef is the price the subscription is on, with its amount (our
	// hundredths) and currency (upper case).
	PriceRef string
	Amount   int64
	Currency string
	// Pending is an update that waits for its payment (it was declined):
	// the subscription is still on its old price.
	Pending bool
	// LatestInvoice is the newest invoice, when the provider answered it.
	LatestInvoice *BillingInvoice
}

// BillingInvoice is one of the provider's invoices for a subscription.
type BillingInvoice struct {
	Ref             string
	SubscriptionRef string
	// CustomerRef is the provider's customer the invoice bills.
	CustomerRef string
	// SubscriptionID is ours, from the subscription's metadata.
	SubscriptionID string
	// Status is the provider's: draft, open, paid, uncollectible, void.
	Status string
	// BillingReason: subscription_create, subscription_cycle,
	// subscription_update, ...
	BillingReason string
	// Amount is what was paid (paid) or is due (failed), in our
	// hundredths; Currency upper case.
	Amount   int64
	Currency string
	// The service period the invoice bills: of its subscription line,
	// not the invoice's own period_start/end (which at Stripe is the
	// period of the items collected, the one before).
	PeriodStart, PeriodEnd time.Time
	// PriceRef is the price of that line ("" when not given).
	PriceRef string
	// Attempts counts the payment attempts; NextAttempt is when the
	// provider tries again (zero: no more tries).
	Attempts    int
	NextAttempt time.Time
	FailureCode string
	// ActionSecret is set while the invoice's payment waits for the
	// customer to authenticate it (3-D Secure): the payment's client
	// secret, for the provider's script to finish it in the browser. It is
	// given to the owner's browser only, and never stored.
	ActionSecret string
}

// AwaitsAction reports whether a subscription's first payment waits for
// the customer's authentication.
func (b BillingSubscription) AwaitsAction() bool {
	return b.Status == "incomplete" && b.LatestInvoice != nil && b.LatestInvoice.ActionSecret != ""
}

// Paid reports whether the invoice needs no more money.
func (i BillingInvoice) Paid() bool { return i.Status == "paid" }
