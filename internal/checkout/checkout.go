// Package checkout takes a report order from its price to its fulfilment:
// it prices the order on the server, starts a payment with the provider,
// and applies the provider's events exactly once. It knows nothing of HTTP.
package checkout

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/apperr"
	"selfmap/internal/billing"
	"selfmap/internal/ids"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// Service is the checkout service.
type Service struct {
	Store    *store.Store
	Provider payment.Provider
	Logger   *slog.Logger
	Now      func() time.Time
	// Receipt writes the receipt e-mail of a paid order.
	Receipt func(o store.Order, r store.Result) (subject, body string)
}

// ErrNotFound is an order that does not exist or is not the caller's.
var ErrNotFound = apperr.NotFound("api.not_found")

// Order returns an order the caller may act on: owns reports whether the
// caller's browser created the order's result.
func (s *Service) Order(ctx context.Context, number string, owns func(resultID string) bool) (store.Order, error) {
	o, err := s.Store.GetOrderByNumber(ctx, number)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !owns(o.ResultID)) {
		return store.Order{}, ErrNotFound
	}
	return o, err
}

// CreateInput is what the payment page sends to start paying.
type CreateInput struct {
	OrderNumber, SKUID, Email, PromoCode, Country string
}

// Created is a started payment.
type Created struct {
	AttemptID    string
	Provider     string
	ClientSecret string
	Total        int64
	Currency     string
}

// Create prices an order for the buyer's country and promo code, moves it to
// pending and starts a payment. The amount comes from the catalogue, never
// from the request. Of two concurrent calls for one order, one starts the
// payment and the other answers with it.
func (s *Service) Create(ctx context.Context, in CreateInput, owns func(string) bool) (Created, error) {
	o, err := s.Order(ctx, in.OrderNumber, owns)
	if err != nil {
		return Created{}, err
	}
	email, msg := validate.Email(in.Email)
	if msg != "" {
		return Created{}, apperr.BadRequest(msg, nil)
	}
	switch billing.Status(o.Status) {
	case billing.Paid, billing.Refunded:
		return Created{}, apperr.BadRequest("pay.already_paid", nil)
	case billing.Expired:
		return Created{}, apperr.BadRequest("pay.expired", nil)
	case billing.Pending:
		return s.existing(ctx, o)
	}
	sku, err := s.Store.GetSKU(ctx, o.ExamID, in.SKUID, in.Country)
	if errors.Is(err, store.ErrNotFound) {
		return Created{}, apperr.BadRequest("pay.unknown_product", nil)
	}
	if err != nil {
		return Created{}, err
	}
	var promo *store.Promo
	if code := strings.ToUpper(strings.TrimSpace(in.PromoCode)); code != "" {
		p, err := s.Store.GetPromo(ctx, code)
		if errors.Is(err, store.ErrNotFound) {
			return Created{}, apperr.BadRequest("pay.promo.unknown", nil)
		}
		if err != nil {
			return Created{}, err
		}
		promo = &p
	}
	now := s.Now().UTC()
	q, err := billing.Price(sku, promo, now)
	if err != nil {
		return Created{}, err
	}
	a := store.Attempt{ID: ids.New(), OrderID: o.ID, Provider: s.Provider.Name(), Status: store.AttemptStarted,
		Amount: q.Total, Currency: q.Currency, CreatedAt: now, UpdatedAt: now}
	priced := store.PricedOrder{ID: o.ID, SKUID: sku.SKU.ID, Currency: q.Currency, Country: in.Country, Email: email,
		Subtotal: q.Subtotal, Discount: q.Discount, Tax: q.Tax, Total: q.Total, Promo: sql.NullString{String: q.Promo, Valid: q.Promo != ""}}
	started, err := s.Store.StartPayment(ctx, priced, []string{string(billing.Created), string(billing.Failed)}, a)
	if err != nil {
		return Created{}, err
	}
	if !started {
		o, err = s.Store.GetOrderByNumber(ctx, in.OrderNumber)
		if err != nil {
			return Created{}, err
		}
		return s.existing(ctx, o)
	}
	if promo != nil {
		if ok, err := s.Store.UsePromo(ctx, promo.Code); err != nil || !ok {
			return Created{}, errors.Join(err, apperr.BadRequest("pay.promo.used_up", nil))
		}
	}
	return s.start(ctx, a, o, email)
}

// existing answers a second Create with the payment the first started.
func (s *Service) existing(ctx context.Context, o store.Order) (Created, error) {
	a, err := s.Store.LatestAttempt(ctx, o.ID)
	if err != nil {
		return Created{}, err
	}
	if !a.ProviderRef.Valid {
		// The first call is still talking to the provider: start (or
		// re-start: the idempotency key makes it the same payment) here.
		return s.start(ctx, a, o, o.Email.String)
	}
	return Created{AttemptID: a.ID, Provider: a.Provider, ClientSecret: a.ClientSecret.String, Total: a.Amount, Currency: a.Currency}, nil
}

func (s *Service) start(ctx context.Context, a store.Attempt, o store.Order, email string) (Created, error) {
	p, err := s.Provider.Start(ctx, payment.Request{
		OrderID: o.ID, AttemptID: a.ID, Amount: a.Amount, Currency: a.Currency, Email: email,
		Description: "Selfmap " + o.OrderNumber, IdempotencyKey: "attempt_" + a.ID,
	})
	if err != nil {
		return Created{}, fmt.Errorf("checkout: start payment: %w", err)
	}
	if err := s.Store.SetAttemptStarted(ctx, a.ID, p.Ref, p.ClientSecret, s.Now()); err != nil {
		return Created{}, err
	}
	return Created{AttemptID: a.ID, Provider: a.Provider, ClientSecret: p.ClientSecret, Total: a.Amount, Currency: a.Currency}, nil
}

// Receive applies a webhook delivery of the configured provider. A bad
// signature or stale timestamp is refused and changes nothing; a replayed
// or concurrent duplicate event changes nothing twice.
func (s *Service) Receive(ctx context.Context, payload []byte, header http.Header) error {
	ev, err := s.Provider.ParseEvent(payload, header, s.Now())
	if errors.Is(err, payment.ErrIgnoredEvent) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.apply(ctx, ev)
}

// apply records an event and acts on it in one transaction, so the order's
// new state, the conversion and the receipt are committed together or not
// at all, and once only.
func (s *Service) apply(ctx context.Context, ev payment.Event) error {
	now := s.Now().UTC()
	return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		fresh, err := s.Store.RecordEvent(ctx, tx, s.Provider.Name(), ev.ID, string(ev.Kind), ev.AttemptID, now)
		if err != nil || !fresh {
			return err
		}
		a, err := s.Store.GetAttempt(ctx, tx, ev.AttemptID)
		if errors.Is(err, store.ErrNotFound) {
			s.Logger.WarnContext(ctx, "checkout: event for an unknown attempt", "event", ev.ID, "attempt", ev.AttemptID)
			return nil
		}
		if err != nil {
			return err
		}
		o, err := s.Store.GetOrder(ctx, tx, a.OrderID)
		if err != nil {
			return err
		}
		switch ev.Kind {
		case payment.EventSucceeded:
			if ev.Amount != a.Amount || !strings.EqualFold(ev.Currency, a.Currency) {
				return fmt.Errorf("checkout: event %s pays %d %s for attempt %s of %d %s", ev.ID, ev.Amount, ev.Currency, a.ID, a.Amount, a.Currency)
			}
			if err := s.Store.SetAttemptOutcome(ctx, tx, a.ID, store.AttemptSucceeded, "", now); err != nil {
				return err
			}
			won, err := s.Store.MoveOrderTx(ctx, tx, o.ID, string(billing.Pending), string(billing.Paid), now)
			if err != nil || !won {
				return err
			}
			return s.fulfil(ctx, tx, o, a, now)
		case payment.EventFailed:
			if err := s.Store.SetAttemptOutcome(ctx, tx, a.ID, store.AttemptFailed, ev.FailureCode, now); err != nil {
				return err
			}
			_, err := s.Store.MoveOrderTx(ctx, tx, o.ID, string(billing.Pending), string(billing.Failed), now)
			return err
		}
		return nil
	})
}

// fulfil unlocks what was paid for (the order's paid state is the unlock),
// records the conversion and queues the receipt.
func (s *Service) fulfil(ctx context.Context, tx *sqlx.Tx, o store.Order, a store.Attempt, now time.Time) error {
	if err := s.Store.InsertConversion(ctx, tx, store.Conversion{ID: ids.New(), OrderID: o.ID, Kind: "purchase",
		Amount: a.Amount, Currency: a.Currency, CreatedAt: now}); err != nil {
		return err
	}
	r, err := s.Store.GetResultIn(ctx, tx, o.ResultID)
	if err != nil {
		return err
	}
	if !o.Email.Valid {
		return nil
	}
	subject, body := s.Receipt(o, r)
	return s.Store.QueueMail(ctx, tx, store.Mail{ID: ids.New(), Kind: "receipt", To: o.Email.String, Locale: r.Locale,
		Subject: subject, Body: body, Ref: o.ID, Status: "queued", CreatedAt: now})
}

// Reconcile asks the provider about attempts left started for longer than
// age (a lost webhook, a crash between the provider's answer and our
// commit) and applies what it says through the same path as an event.
func (s *Service) Reconcile(ctx context.Context, age time.Duration) (int, error) {
	stale, err := s.Store.StaleAttempts(ctx, s.Now().Add(-age), 100)
	if err != nil {
		return 0, err
	}
	applied := 0
	for _, a := range stale {
		state, err := s.Provider.State(ctx, a.ProviderRef.String)
		if err != nil {
			s.Logger.WarnContext(ctx, "checkout: reconcile: provider state", "attempt", a.ID, "err", err)
			continue
		}
		ev := payment.Event{ID: "reconcile:" + a.ID + ":" + string(state), AttemptID: a.ID, Ref: a.ProviderRef.String,
			Amount: a.Amount, Currency: a.Currency}
		switch state {
		case payment.StateSucceeded:
			ev.Kind = payment.EventSucceeded
		case payment.StateFailed:
			ev.Kind, ev.FailureCode = payment.EventFailed, "reconciled_failure"
		default:
			continue
		}
		if err := s.apply(ctx, ev); err != nil {
			return applied, err
		}
		applied++
	}
	return applied, nil
}
