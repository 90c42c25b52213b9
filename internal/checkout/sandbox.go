package checkout

import (
	"context"
	"errors"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/geo"
	"selfmap/internal/payment"
	"selfmap/internal/store"
)

// Attempt returns a payment attempt of the caller's, with its order: owns
// reports whether the caller's browser created the order's result. A
// foreign attempt answers exactly like a missing one (ErrNotFound).
func (s *Service) Attempt(ctx context.Context, id string, owns func(string) bool) (Attempt, Order, error) {
	a, err := s.Store.GetAttempt(ctx, s.Store.DB, id)
	if err != nil {
		return Attempt{}, Order{}, notFoundAs(err)
	}
	o, err := s.Store.GetOrder(ctx, s.Store.DB, a.OrderID)
	if err != nil {
		return Attempt{}, Order{}, err
	}
	if !owns(o.ResultID) {
		return Attempt{}, Order{}, ErrNotFound
	}
	return a, o, nil
}

// OrderPayment is an order with its latest payment attempt (nil before the
// first).
type OrderPayment struct {
	Order   Order
	Attempt *Attempt
}

// LatestPayment returns an order of the caller's with its latest payment
// attempt.
func (s *Service) LatestPayment(ctx context.Context, number string, owns func(string) bool) (OrderPayment, error) {
	o, err := s.Order(ctx, number, owns)
	if err != nil {
		return OrderPayment{}, err
	}
	a, err := s.Store.LatestAttempt(ctx, s.Store.DB, o.ID)
	if errors.Is(err, store.ErrNotFound) {
		return OrderPayment{Order: o}, nil
	}
	if err != nil {
		return OrderPayment{}, err
	}
	return OrderPayment{Order: o, Attempt: &a}, nil
}

// sandbox is the sandbox provider, or ErrNotFound when another is set up:
// its pages do not exist then.
func (s *Service) sandbox() (*payment.Sandbox, error) {
	sb, ok := s.Provider.(*payment.Sandbox)
	if !ok {
		return nil, ErrNotFound
	}
	return sb, nil
}

// ErrNotPayable is an attempt no longer waiting for a card.
var ErrNotPayable = apperr.BadRequest("pay.not_payable", nil)

// SandboxCard is the sandbox's card form for a payment attempt.
type SandboxCard struct {
	AttemptID string
	Card      payment.CardInput
}

// ConfirmSandbox pays an attempt of the caller's with the sandbox's card
// form. The card is checked as the island checks it, decides the outcome,
// and is dropped; only its brand and last four digits are kept. A retry
// after a lost answer gets the attempt's success again. An outcome the
// sandbox could not deliver yet stands in its books, for the reconciler.
func (s *Service) ConfirmSandbox(ctx context.Context, in SandboxCard, owns func(string) bool) (payment.Outcome, error) {
	sb, err := s.sandbox()
	if err != nil {
		return payment.Outcome{}, err
	}
	a, o, err := s.Attempt(ctx, in.AttemptID, owns)
	if err != nil {
		return payment.Outcome{}, err
	}
	in.Card.NoPostalCode = !geo.UsesPostalCode(o.Country.String)
	number, err := checkCard(in.Card, s.Now())
	if err != nil {
		return payment.Outcome{}, err
	}
	switch a.Status {
	case store.AttemptSucceeded:
		return payment.Outcome{Status: "succeeded"}, nil
	case store.AttemptStarted:
	default:
		return payment.Outcome{}, ErrNotPayable
	}
	// A promo price is paid only while the payment holds the code's use and
	// the code is valid; otherwise the payment is closed before any card
	// is charged, and the buyer starts again.
	if err := s.Payable(ctx, a); err != nil {
		return payment.Outcome{}, err
	}
	out, err := sb.Confirm(ctx, a.ProviderRef.String, payment.Card{Number: number})
	if errors.Is(err, payment.ErrNotPayable) {
		return payment.Outcome{}, ErrNotPayable
	}
	if err != nil && out.Status == "" {
		return payment.Outcome{}, err
	}
	if cerr := s.Store.SetAttemptCard(ctx, s.Store.DB, a.ID, payment.Brand(number), number[len(number)-4:], s.Now()); cerr != nil {
		return payment.Outcome{}, cerr
	}
	if err != nil {
		s.Logger.ErrorContext(ctx, "sandbox: outcome not applied yet", "attempt", a.ID, "err", err)
	}
	return out, nil
}

// checkCard checks a card form and returns the cleaned number, or the
// error of the first invalid field, with the field's name and the digits
// its security code needs.
func checkCard(card payment.CardInput, now time.Time) (string, error) {
	number, errs := card.Check(now)
	for _, field := range []string{"number", "expiry", "cvc", "name", "postalCode"} {
		if id := errs[field]; id != "" {
			return "", &apperr.Error{Status: 400, ID: id, Data: map[string]any{"Field": field, "Digits": payment.CVCLength(number)}}
		}
	}
	return number, nil
}

// AfterThreeDS is where a buyer goes after the sandbox's 3-D Secure step:
// the status check of ResultID's report, or for a pack (Pack), its step of
// the upsell (PackStep).
type AfterThreeDS struct {
	ResultID string
	Pack     bool
	PackStep string
}

// CompleteSandbox3DS takes the answer of the sandbox's stand-in for a
// bank's 3-D Secure page for an attempt of the caller's: passed or not.
// An outcome the sandbox could not deliver yet stands in its books, for
// the reconciler.
func (s *Service) CompleteSandbox3DS(ctx context.Context, attemptID string, passed bool, owns func(string) bool) (AfterThreeDS, error) {
	sb, err := s.sandbox()
	if err != nil {
		return AfterThreeDS{}, err
	}
	a, o, err := s.Attempt(ctx, attemptID, owns)
	if err != nil {
		return AfterThreeDS{}, err
	}
	_, err = sb.Complete3DS(ctx, a.ProviderRef.String, passed)
	if err != nil && !errors.Is(err, payment.ErrNotPayable) {
		s.Logger.ErrorContext(ctx, "sandbox: 3-D Secure outcome not applied yet", "attempt", a.ID, "err", err)
	}
	out := AfterThreeDS{ResultID: o.ResultID}
	if o.Kind == store.OrderPack {
		sku, err := s.Store.SKUByID(ctx, s.Store.DB, o.SKUID.String)
		if err != nil {
			return AfterThreeDS{}, err
		}
		out.Pack, out.PackStep = true, sku.Step.String
	}
	return out, nil
}
