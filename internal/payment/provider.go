// Package payment takes card payments through a provider: the built-in,
// offline sandbox (the default) or Stripe. Both report the outcome of a
// payment as a signed event that the one webhook handler verifies, so an
// order is fulfilled by exactly one code path whichever provider took the
// money.
package payment

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Request asks a provider to start a payment for one attempt at paying an
// order.
type Request struct {
	OrderID   string
	AttemptID string
	// Amount is in hundredths of the currency, as everywhere in Selfmap;
	// a provider converts to its own units.
	Amount      int64
	Currency    string
	Email       string
	Description string
	// IdempotencyKey is derived from our attempt row, so a retried call
	// never creates a second charge.
	IdempotencyKey string
}

// Started is a payment the provider has created and that waits for the
// buyer's card.
type Started struct {
	// Ref is the provider's id of the payment (a PaymentIntent id on
	// Stripe).
	Ref string
	// ClientSecret lets the browser confirm the payment with the
	// provider's own card form (Stripe); empty for the sandbox.
	ClientSecret string
}

// State is a payment's state at the provider.
type State string

// The payment states the service acts on.
const (
	StatePending   State = "pending"
	StateSucceeded State = "succeeded"
	StateFailed    State = "failed"
)

// EventKind is what an event reports.
type EventKind string

// The event kinds.
const (
	EventSucceeded EventKind = "payment.succeeded"
	EventFailed    EventKind = "payment.failed"
)

// Event is a verified report from a provider.
type Event struct {
	// ID is the provider's event id; an event is applied at most once.
	ID   string
	Kind EventKind
	// Ref is the payment the event is about.
	Ref string
	// AttemptID is our attempt id, carried in the payment's metadata.
	AttemptID string
	Amount    int64
	Currency  string
	// FailureCode says why a payment failed (card_declined, ...).
	FailureCode string
	// Created is when the provider created the event: a subscription's
	// state follows the newest, whatever order they arrive in.
	Created time.Time
	// Invoice (EventInvoicePaid, EventInvoiceFailed) or Subscription
	// (EventSubscriptionUpdated, EventSubscriptionDeleted) is what a
	// Billing provider's event is about; nil for a payment's event.
	Invoice      *BillingInvoice
	Subscription *BillingSubscription
}

// Provider is a payment provider.
type Provider interface {
	// Name is "sandbox" or "stripe".
	Name() string
	// Start creates a payment for an attempt.
	Start(ctx context.Context, r Request) (Started, error)
	// State asks the provider for a payment's state; the reconciler uses
	// it for orders left pending.
	State(ctx context.Context, ref string) (State, error)
	// ParseEvent verifies a webhook delivery (signature and timestamp) and
	// returns its event. An event the service does not act on returns
	// ErrIgnoredEvent.
	ParseEvent(payload []byte, header http.Header, now time.Time) (Event, error)
}

// Canceler is a provider that can close a payment that was replaced before
// the buyer finished it, so it can no longer be charged.
type Canceler interface {
	Cancel(ctx context.Context, ref string) error
}

// SavedCard is a payment method a provider keeps for a customer, so later
// periods of a subscription can be charged without them: a sandbox card
// saved by SaveCard, or a Stripe PaymentMethod. Ref is the provider's id;
// brand and last four digits are all we keep of the card.
type SavedCard struct {
	Ref, Brand, Last4 string
}

// Charge is the outcome of charging a saved method: succeeded or failed,
// never pending.
type Charge struct {
	Ref         string
	State       State
	FailureCode string
}

// Recurring is a provider that charges a saved method without the
// customer present (the first charge of a subscription and its renewals).
// A second call with the same idempotency key is the same charge: it
// answers the first call's outcome and takes no money again.
type Recurring interface {
	ChargeSaved(ctx context.Context, method string, r Request) (Charge, error)
}

// ErrBadSignature is a webhook delivery whose signature or timestamp does
// not check: it is refused and changes nothing.
var ErrBadSignature = errors.New("payment: bad webhook signature")

// ErrIgnoredEvent is a verified event of a kind the service does not act on.
var ErrIgnoredEvent = errors.New("payment: event ignored")

// SignatureTolerance is how old a webhook delivery may be.
const SignatureTolerance = 5 * time.Minute
