package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"selfmap/internal/ids"
	"selfmap/internal/store"
)

// SandboxSignatureHeader carries the sandbox's webhook signature.
const SandboxSignatureHeader = "Sandbox-Signature"

// Sandbox is the built-in, offline provider. It keeps its own books (the
// sandbox_payments table), takes the well-known test cards through our own
// card form, and reports outcomes as signed events, exactly as a real
// provider would:
//
//	4242 4242 4242 4242  succeeds
//	4000 0000 0000 0002  is declined (card_declined)
//	4000 0000 0000 9995  is declined (insufficient_funds)
//	4000 0027 6000 3184  asks for a 3-D Secure step first
//
// Any other number that passes the Luhn check is declined as a card the
// sandbox does not know.
type Sandbox struct {
	Store  *store.Store
	Secret string
	// Deliver hands a signed event to the webhook handler.
	Deliver func(ctx context.Context, payload []byte, header http.Header) error
	Now     func() time.Time
}

// Sandbox payment states, in its own books.
const (
	sbxAwaitingCard   = "requires_payment_method"
	sbxRequiresAction = "requires_action"
	sbxSucceeded      = "succeeded"
	sbxFailed         = "failed"
	sbxCanceled       = "canceled"
)

// open are the states in which a sandbox payment takes a card: a visitor
// who left the 3-D Secure page may come back and pay with another card.
var open = []string{sbxAwaitingCard, sbxRequiresAction}

// Cancel closes a replaced payment.
func (s *Sandbox) Cancel(ctx context.Context, ref string) error {
	_, err := s.Store.MoveSandboxPayment(ctx, s.Store.DB, ref, open, sbxCanceled, s.Now())
	return err
}

// Name is "sandbox".
func (s *Sandbox) Name() string { return "sandbox" }

// Start opens a sandbox payment for an attempt. The idempotency key is the
// attempt: a second Start for it returns the same payment.
func (s *Sandbox) Start(ctx context.Context, r Request) (Started, error) {
	// One payment per idempotency key, as at a real provider: a second
	// call with the key (a concurrent click) gets the same payment.
	ref := "sbx_" + strings.TrimPrefix(r.IdempotencyKey, "attempt_")
	now := s.Now().UTC()
	err := s.Store.InsertSandboxPayment(ctx, s.Store.DB, store.SandboxPayment{Ref: ref, AttemptID: r.AttemptID, Amount: r.Amount,
		Currency: r.Currency, State: sbxAwaitingCard, CreatedAt: now, UpdatedAt: now})
	if err != nil {
		return Started{}, err
	}
	return Started{Ref: ref}, nil
}

// State reads a payment's state from the sandbox's books.
func (s *Sandbox) State(ctx context.Context, ref string) (State, error) {
	p, err := s.Store.GetSandboxPayment(ctx, s.Store.DB, ref)
	if err != nil {
		return "", err
	}
	switch p.State {
	case sbxSucceeded:
		return StateSucceeded, nil
	case sbxFailed:
		return StateFailed, nil
	}
	return StatePending, nil
}

// Card is what the sandbox's card form sends. It is used to decide the
// outcome and is never stored or logged.
type Card struct {
	Number string
	Brand  string
	// ExpMonth and ExpYear matter to a saved card: once past, its charges
	// are declined (expired_card).
	ExpMonth, ExpYear int
}

// Outcome is what confirming a card led to.
type Outcome struct {
	// Status is succeeded, declined or requires_action.
	Status string
	// FailureCode says why a card was declined.
	FailureCode string
}

// ErrNotPayable is a payment that is no longer waiting for a card.
var ErrNotPayable = errors.New("payment: sandbox payment is not waiting for a card")

// Confirm charges a test card for a payment and delivers the outcome event.
func (s *Sandbox) Confirm(ctx context.Context, ref string, card Card) (Outcome, error) {
	p, err := s.Store.GetSandboxPayment(ctx, s.Store.DB, ref)
	if err != nil {
		return Outcome{}, err
	}
	if p.State == sbxSucceeded {
		// A retry after a lost answer: the payment went through.
		return Outcome{Status: "succeeded"}, nil
	}
	switch card.Number {
	case "4000002760003184":
		if ok, err := s.Store.MoveSandboxPayment(ctx, s.Store.DB, ref, open, sbxRequiresAction, s.Now()); err != nil || !ok {
			return Outcome{}, errors.Join(err, ErrNotPayable)
		}
		return Outcome{Status: "requires_action"}, nil
	case "4242424242424242":
		return s.finish(ctx, p, open, true, "")
	case "4000000000009995":
		return s.finish(ctx, p, open, false, "insufficient_funds")
	case "4000000000000002":
		return s.finish(ctx, p, open, false, "card_declined")
	}
	return s.finish(ctx, p, open, false, "card_not_supported")
}

// Complete3DS ends the 3-D Secure step: passed or failed.
func (s *Sandbox) Complete3DS(ctx context.Context, ref string, passed bool) (Outcome, error) {
	p, err := s.Store.GetSandboxPayment(ctx, s.Store.DB, ref)
	if err != nil {
		return Outcome{}, err
	}
	code := ""
	if !passed {
		code = "authentication_failed"
	}
	return s.finish(ctx, p, []string{sbxRequiresAction}, passed, code)
}

// finish records the outcome in the sandbox's books and delivers the event.
// A failed payment is closed: the order stays payable, and paying again
// starts a new attempt with a payment of its own.
func (s *Sandbox) finish(ctx context.Context, p store.SandboxPayment, from []string, ok bool, code string) (Outcome, error) {
	to, kind, status := sbxSucceeded, EventSucceeded, "succeeded"
	if !ok {
		to, kind, status = sbxFailed, EventFailed, "declined"
	}
	moved, err := s.Store.MoveSandboxPayment(ctx, s.Store.DB, p.Ref, from, to, s.Now())
	if err != nil {
		return Outcome{}, err
	}
	if !moved {
		return Outcome{}, ErrNotPayable
	}
	if err := s.deliver(ctx, sandboxEvent{ID: "evt_" + ids.New(), Type: string(kind), Ref: p.Ref, AttemptID: p.AttemptID,
		Amount: p.Amount, Currency: p.Currency, FailureCode: code}); err != nil {
		// The money is taken (or refused) in the sandbox's books either way;
		// the reconciler will find the outcome if this delivery was lost.
		return Outcome{Status: status, FailureCode: code}, fmt.Errorf("payment: deliver sandbox event: %w", err)
	}
	return Outcome{Status: status, FailureCode: code}, nil
}

// sandboxEvent is the sandbox's webhook payload.
type sandboxEvent struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Ref         string `json:"ref"`
	AttemptID   string `json:"attemptId"`
	Amount      int64  `json:"amount"`
	Currency    string `json:"currency"`
	FailureCode string `json:"failureCode,omitempty"`
}

func (s *Sandbox) deliver(ctx context.Context, ev sandboxEvent) error {
	payload, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	h := http.Header{}
	h.Set(SandboxSignatureHeader, Sign(s.Secret, payload, s.Now()))
	return s.Deliver(ctx, payload, h)
}

// ParseEvent verifies a sandbox delivery and returns its event.
func (s *Sandbox) ParseEvent(payload []byte, header http.Header, now time.Time) (Event, error) {
	if err := Verify(s.Secret, payload, header.Get(SandboxSignatureHeader), now); err != nil {
		return Event{}, err
	}
	var ev sandboxEvent
	if err := json.Unmarshal(payload, &ev); err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	switch EventKind(ev.Type) {
	case EventSucceeded, EventFailed:
	default:
		return Event{}, ErrIgnoredEvent
	}
	return Event{ID: ev.ID, Kind: EventKind(ev.Type), Ref: ev.Ref, AttemptID: ev.AttemptID, Amount: ev.Amount,
		Currency: ev.Currency, FailureCode: ev.FailureCode}, nil
}

// Saved-card behaviours, by test number. 4242 4242 4242 4242 (Visa) and
// 5555 5555 5555 4444 (Mastercard) always succeed, so a card can be
// replaced by one of another brand. 4000 0000 0000 0341 is saved but
// every charge on it is declined, as at Stripe: it lets a trial start and
// its renewal fail. A card asking for 3-D Secure cannot be charged without
// the customer (authentication_required).
var savedBehaviour = map[string]string{
	"4242424242424242": "",
	"5555555555554444": "",
	"4000000000000341": "card_declined",
	"4000000000000002": "card_declined",
	"4000000000009995": "insufficient_funds",
	"4000002760003184": "authentication_required",
}

// ErrCardExpiry is a card saved without a valid expiry.
var ErrCardExpiry = errors.New("payment: card expiry is missing or invalid")

// SaveCard keeps a test card in the sandbox's books so it can be charged
// later (ChargeSaved), as Stripe keeps a PaymentMethod: the brand, the last
// four digits, the expiry and how the test number behaves; never the
// number.
func (s *Sandbox) SaveCard(ctx context.Context, card Card) (SavedCard, error) {
	if card.ExpMonth < 1 || card.ExpMonth > 12 || card.ExpYear < 2000 || len(card.Number) < 4 {
		return SavedCard{}, ErrCardExpiry
	}
	behaviour, known := savedBehaviour[card.Number]
	if !known {
		behaviour = "card_not_supported"
	}
	if behaviour == "" {
		behaviour = "succeeds"
	}
	brand := card.Brand
	if brand == "" {
		brand = Brand(card.Number)
	}
	m := store.SandboxMethod{Ref: "sbxpm_" + ids.New(), Brand: brand, Last4: card.Number[len(card.Number)-4:], ExpMonth: card.ExpMonth,
		ExpYear: card.ExpYear, Behaviour: behaviour, CreatedAt: s.Now().UTC()}
	if err := s.Store.InsertSandboxMethod(ctx, s.Store.DB, m); err != nil {
		return SavedCard{}, err
	}
	return SavedCard{Ref: m.Ref, Brand: m.Brand, Last4: m.Last4}, nil
}

// ErrIdempotencyMismatch is a key reused for a different amount.
var ErrIdempotencyMismatch = errors.New("payment: idempotency key reused with other parameters")

// ChargeSaved charges a saved card without the customer. The payment is
// keyed by r.IdempotencyKey: a second call with the key (a retry after a
// crash, a concurrent runner) answers the first outcome and charges
// nothing more. An expired card is declined (expired_card).
func (s *Sandbox) ChargeSaved(ctx context.Context, method string, r Request) (Charge, error) {
	m, err := s.Store.GetSandboxMethod(ctx, s.Store.DB, method)
	if err != nil {
		return Charge{}, fmt.Errorf("payment: saved card %q: %w", method, err)
	}
	ref := "sbx_" + r.IdempotencyKey
	now := s.Now().UTC()
	if err := s.Store.InsertSandboxPayment(ctx, s.Store.DB, store.SandboxPayment{Ref: ref, AttemptID: r.AttemptID, Amount: r.Amount,
		Currency: r.Currency, State: sbxAwaitingCard, CreatedAt: now, UpdatedAt: now}); err != nil {
		return Charge{}, err
	}
	p, err := s.Store.GetSandboxPayment(ctx, s.Store.DB, ref)
	if err != nil {
		return Charge{}, err
	}
	if p.Amount != r.Amount || !strings.EqualFold(p.Currency, r.Currency) {
		return Charge{}, ErrIdempotencyMismatch
	}
	code := ""
	switch {
	case m.Behaviour != "succeeds":
		code = m.Behaviour
	case !now.Before(time.Date(m.ExpYear, time.Month(m.ExpMonth)+1, 1, 0, 0, 0, 0, time.UTC)):
		code = "expired_card"
	}
	to := sbxSucceeded
	if code != "" {
		to = sbxFailed
	}
	if _, err := s.Store.MoveSandboxPayment(ctx, s.Store.DB, ref, []string{sbxAwaitingCard}, to, now); err != nil {
		return Charge{}, err
	}
	// Whoever moved it, the books now hold the one outcome of this key.
	if p, err = s.Store.GetSandboxPayment(ctx, s.Store.DB, ref); err != nil {
		return Charge{}, err
	}
	switch p.State {
	case sbxSucceeded:
		return Charge{Ref: ref, State: StateSucceeded}, nil
	case sbxFailed:
		if code == "" {
			code = "card_declined"
		}
		return Charge{Ref: ref, State: StateFailed, FailureCode: code}, nil
	}
	return Charge{}, fmt.Errorf("payment: sandbox payment %s is %s", ref, p.State)
}
