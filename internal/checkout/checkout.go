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
	"selfmap/internal/mail"
	"selfmap/internal/packs"
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
	// Mails composes the e-mails of a paid order in the buyer's language:
	// the receipt, and for a report order the report-ready mail with the
	// link that reportToken opens ("" for other orders).
	Mails func(o store.Order, r store.Result, reportToken string) ([]mail.Content, error)
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
	OrderNumber, SKUID, Email, PromoCode string
}

// PriceCountry is where a result's orders are priced: the country the
// test-taker gave with their details, or the default price ("*").
func PriceCountry(r store.Result) string {
	if r.Country.Valid && r.Country.String != "" {
		return r.Country.String
	}
	return "*"
}

// Created is a started payment of an order.
type Created struct {
	OrderNumber  string
	AttemptID    string
	Provider     string
	ClientSecret string
	Total        int64
	Currency     string
}

// Create prices an order for the buyer's country (PriceCountry) and promo code, moves it to
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
	}
	r, err := s.Store.GetResult(ctx, o.ResultID)
	if err != nil {
		return Created{}, err
	}
	country := PriceCountry(r)
	sku, err := s.Store.GetSKU(ctx, o.ExamID, in.SKUID, country)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !sells(o, sku.SKU)) {
		// A report order buys the report: a cheaper product (a pack) must
		// not unlock it, nor a pack order another pack.
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
	from := []string{string(billing.Created), string(billing.Failed)}
	if billing.Status(o.Status) == billing.Pending {
		// A second click, or a return to the page: the payment already
		// started answers, unless the price changed (another promo code),
		// in which case the started payment is replaced.
		if c, ok, err := s.sameOpenAttempt(ctx, o, q); err != nil || ok {
			return c, err
		}
		from = []string{string(billing.Pending)}
	}
	a := store.Attempt{ID: ids.New(), OrderID: o.ID, Provider: s.Provider.Name(), Status: store.AttemptStarted,
		Amount: q.Total, Currency: q.Currency, CreatedAt: now, UpdatedAt: now}
	priced := store.PricedOrder{ID: o.ID, SKUID: sku.SKU.ID, Currency: q.Currency, Country: country, Email: email,
		Subtotal: q.Subtotal, Discount: q.Discount, Tax: q.Tax, Total: q.Total, Promo: sql.NullString{String: q.Promo, Valid: q.Promo != ""}}
	started, superseded, err := s.Store.StartPayment(ctx, priced, from, a)
	if err != nil {
		return Created{}, err
	}
	if !started {
		// Another click won the race: answer with its payment.
		o, err = s.Store.GetOrderByNumber(ctx, in.OrderNumber)
		if err != nil {
			return Created{}, err
		}
		c, ok, err := s.sameOpenAttempt(ctx, o, q)
		if err == nil && !ok {
			err = apperr.BadRequest("pay.not_payable", nil)
		}
		return c, err
	}
	s.cancel(ctx, superseded)
	return s.start(ctx, a, o, email)
}

// sells reports whether an order may be paid with a SKU: one of its kind,
// and for a pack order, its own pack.
func sells(o store.Order, sku store.SKU) bool {
	if sku.Kind != o.Kind {
		return false
	}
	return o.Kind != store.OrderPack || sku.ID == o.SKUID.String
}

// ErrPackOwned is a pack the buyer already has.
var ErrPackOwned = apperr.BadRequest("pay.pack.owned", nil)

// CreatePack starts paying for a pack of the upsell steps. in.OrderNumber is
// the report order, which must be paid: packs add to a report. The pack gets
// an order of its own (one per result and pack), priced for the buyer's
// country and paid like the report's through Create; a promo code does not
// apply to it.
func (s *Service) CreatePack(ctx context.Context, in CreateInput, owns func(string) bool) (Created, error) {
	report, err := s.Order(ctx, in.OrderNumber, owns)
	if err != nil {
		return Created{}, err
	}
	if report.Kind != store.OrderReport || billing.Status(report.Status) != billing.Paid {
		return Created{}, apperr.BadRequest("pay.pack.report_first", nil)
	}
	r, err := s.Store.GetResult(ctx, report.ResultID)
	if err != nil {
		return Created{}, err
	}
	sku, err := s.Store.GetSKU(ctx, report.ExamID, in.SKUID, PriceCountry(r))
	if errors.Is(err, store.ErrNotFound) || (err == nil && !packs.Offered(sku.SKU)) {
		return Created{}, apperr.BadRequest("pay.unknown_product", nil)
	}
	if err != nil {
		return Created{}, err
	}
	now := s.Now().UTC()
	pack, err := s.Store.PackOrder(ctx, store.Order{ID: ids.New(), OrderNumber: ids.OrderNumber(now), ResultID: report.ResultID,
		ExamID: report.ExamID, Status: store.OrderCreated, Email: report.Email, SKUID: store.NullStr{String: sku.SKU.ID, Valid: true},
		CreatedAt: now, UpdatedAt: now})
	if err != nil {
		return Created{}, err
	}
	if billing.Status(pack.Status) == billing.Paid {
		return Created{}, ErrPackOwned
	}
	email := in.Email
	if strings.TrimSpace(email) == "" {
		email = report.Email.String
	}
	// Promo codes are for the report: a pack is always at its own price.
	return s.Create(ctx, CreateInput{OrderNumber: pack.OrderNumber, SKUID: sku.SKU.ID, Email: email}, owns)
}

// sameOpenAttempt returns the order's open attempt when it is for the same
// amount as the quote.
func (s *Service) sameOpenAttempt(ctx context.Context, o store.Order, q billing.Quote) (Created, bool, error) {
	a, err := s.Store.OpenAttempt(ctx, o.ID)
	if errors.Is(err, store.ErrNotFound) {
		return Created{}, false, nil
	}
	if err != nil || a.Amount != q.Total || a.Currency != q.Currency {
		return Created{}, false, err
	}
	if !a.ProviderRef.Valid {
		// The first call is still talking to the provider: start here too;
		// the idempotency key makes it the same payment.
		c, err := s.start(ctx, a, o, o.Email.String)
		return c, err == nil, err
	}
	return Created{OrderNumber: o.OrderNumber, AttemptID: a.ID, Provider: a.Provider, ClientSecret: a.ClientSecret.String, Total: a.Amount, Currency: a.Currency}, true, nil
}

// cancel closes replaced payments at the provider, so a card cannot be
// charged on them any more. A provider that cannot cancel leaves them to
// expire on its side; their success would be logged as a second payment.
func (s *Service) cancel(ctx context.Context, refs []string) {
	c, ok := s.Provider.(payment.Canceler)
	if !ok {
		return
	}
	for _, ref := range refs {
		if err := c.Cancel(ctx, ref); err != nil {
			s.Logger.WarnContext(ctx, "checkout: cancel a replaced payment", "ref", ref, "err", err)
		}
	}
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
	return Created{OrderNumber: o.OrderNumber, AttemptID: a.ID, Provider: a.Provider, ClientSecret: p.ClientSecret, Total: a.Amount, Currency: a.Currency}, nil
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
			if a.Status == store.AttemptSucceeded {
				// This payment's success again, under another event id (a
				// provider's duplicate delivery): it was applied, and any
				// second payment it made was reported, the first time. The
				// soak's replays found it logged as a payment to refund.
				s.Logger.InfoContext(ctx, "checkout: success of an attempt already applied", "order", o.OrderNumber, "attempt", a.ID, "event", ev.ID)
				return nil
			}
			if err := s.Store.SetAttemptOutcome(ctx, tx, a.ID, store.AttemptSucceeded, "", now); err != nil {
				return err
			}
			// Money taken is an order paid, even if a failure of this or an
			// older attempt was applied first.
			for _, from := range []billing.Status{billing.Pending, billing.Failed} {
				won, err := s.Store.MoveOrder(ctx, tx, o.ID, string(from), string(billing.Paid), now)
				if err != nil {
					return err
				}
				if won {
					return s.fulfil(ctx, tx, o, a, now)
				}
			}
			s.Logger.ErrorContext(ctx, "checkout: a second payment for an order already paid: refund it", "order", o.OrderNumber,
				"attempt", a.ID, "ref", a.ProviderRef.String, "status", o.Status)
			return nil
		case payment.EventFailed:
			// Only the failure of the order's current attempt fails it: a
			// late failure of a replaced attempt changes nothing.
			current := a.Status == store.AttemptStarted
			if err := s.Store.SetAttemptOutcome(ctx, tx, a.ID, store.AttemptFailed, ev.FailureCode, now); err != nil || !current {
				return err
			}
			_, err = s.Store.MoveOrder(ctx, tx, o.ID, string(billing.Pending), string(billing.Failed), now)
			return err
		}
		return nil
	})
}

// fulfil unlocks what was paid for (the order's paid state is the unlock),
// records the conversion, and queues the order's e-mails: the receipt and,
// for a report, a new report link in the report-ready mail.
func (s *Service) fulfil(ctx context.Context, tx *sqlx.Tx, o store.Order, a store.Attempt, now time.Time) error {
	if o.PromoCode.Valid {
		// A promo use counts when it pays for something, once per order.
		ok, err := s.Store.UsePromo(ctx, tx, o.PromoCode.String)
		if err != nil {
			return err
		}
		if !ok {
			s.Logger.WarnContext(ctx, "checkout: promo code used past its limit by a race", "code", o.PromoCode.String, "order", o.OrderNumber)
		}
	}
	if err := s.Store.InsertConversion(ctx, tx, store.Conversion{ID: ids.New(), OrderID: o.ID, Kind: "purchase",
		Amount: a.Amount, Currency: a.Currency, CreatedAt: now}); err != nil {
		return err
	}
	if o.Kind == store.OrderPack {
		// The report's PDFs lack the new pack's sections.
		if err := s.Store.DropReportPDFs(ctx, tx, o.ResultID); err != nil {
			return err
		}
	}
	r, err := s.Store.GetResultIn(ctx, tx, o.ResultID)
	if err != nil {
		return err
	}
	if !o.Email.Valid {
		return nil
	}
	token := ""
	if o.Kind == store.OrderReport {
		token = ids.Token()
		if err := s.Store.AddReportLink(ctx, tx, o.ResultID, token, now); err != nil {
			return err
		}
	}
	mails, err := s.Mails(o, r, token)
	if err != nil {
		// The money is taken: the order must still become paid. The buyer
		// can have the report's link sent again by retrieval.
		s.Logger.ErrorContext(ctx, "checkout: paid order's e-mails not composed", "order", o.OrderNumber, "err", err)
		return nil
	}
	for _, m := range mails {
		if err := s.Store.QueueMail(ctx, tx, store.Mail{ID: ids.New(), Kind: m.Kind, To: o.Email.String, Locale: r.Locale,
			Subject: m.Subject, Body: m.Text, HTMLBody: sql.NullString{String: m.HTML, Valid: m.HTML != ""}, Ref: o.ID,
			Status: store.MailQueued, CreatedAt: now}); err != nil {
			return err
		}
	}
	return nil
}

// Reconcile asks the provider about attempts left untouched for longer
// than age (a lost webhook, a crash between the provider's answer and our
// commit) and applies what it says through the same path as an event. An
// attempt still open is marked as asked, so the oldest open ones (a page
// left with a payment started) cannot keep the others from being asked.
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
			// Still open: ask about the others first next time.
			if err := s.Store.TouchAttempt(ctx, a.ID, s.Now()); err != nil {
				return applied, err
			}
			continue
		}
		if err := s.apply(ctx, ev); err != nil {
			// One bad attempt must not hold up the others.
			s.Logger.ErrorContext(ctx, "checkout: reconcile: apply", "attempt", a.ID, "err", err)
			continue
		}
		applied++
	}
	return applied, nil
}
