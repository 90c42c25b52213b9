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
	"selfmap/internal/ids"
	"selfmap/internal/mail"
	"selfmap/internal/order"
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
	// Packs reads the packs of the upsell after a paid report.
	Packs *packs.Service
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
	o, err := s.Store.GetOrderByNumber(ctx, s.Store.DB, number)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !owns(o.ResultID)) {
		return store.Order{}, ErrNotFound
	}
	return o, err
}

// CreateInput is what the payment page sends to start paying.
type CreateInput struct {
	OrderNumber, SKUID, Email, PromoCode string
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

// Create prices an order for the buyer's country (order.PriceCountry) and
// promo code, moves it to pending and starts a payment. The amount comes
// from the catalogue, never from the request. A payment with a promo code holds one of its uses until
// it is paid, replaced, declined or its hold ends (order.HoldUntil); a
// code whose uses are all paid for or held is refused. Of two concurrent
// calls for one order, one starts the payment and the other answers with it.
func (s *Service) Create(ctx context.Context, in CreateInput, owns func(string) bool) (Created, error) {
	o, err := s.Order(ctx, in.OrderNumber, owns)
	if err != nil {
		return Created{}, err
	}
	email, msg := validate.Email(in.Email)
	if msg != "" {
		return Created{}, apperr.BadRequest(msg, nil)
	}
	switch o.Status {
	case store.OrderPaid, store.OrderRefunded:
		return Created{}, apperr.BadRequest("pay.already_paid", nil)
	case store.OrderExpired:
		return Created{}, apperr.BadRequest("pay.expired", nil)
	}
	r, err := s.Store.GetResult(ctx, s.Store.DB, o.ResultID)
	if err != nil {
		return Created{}, err
	}
	country := order.PriceCountry(r)
	sku, err := s.Store.GetSKU(ctx, s.Store.DB, o.ExamID, in.SKUID, country)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !sells(o, sku.SKU)) {
		// A report order buys the report: a cheaper product (a pack) must
		// not unlock it, nor a pack order another pack.
		return Created{}, apperr.BadRequest("pay.unknown_product", nil)
	}
	if err != nil {
		return Created{}, err
	}
	promo, err := s.promo(ctx, in.PromoCode)
	if err != nil {
		return Created{}, err
	}
	now := s.Now().UTC()
	q, err := order.Price(sku, promo, now)
	if err != nil {
		return Created{}, err
	}
	from := []store.OrderStatus{store.OrderCreated, store.OrderFailed}
	if o.Status == store.OrderPending {
		// A second click, or a return to the page: the payment already
		// started answers, unless the price or the promo code changed or
		// its hold ended, in which case the started payment is replaced.
		if c, ok, err := s.sameOpenAttempt(ctx, o, q, now); err != nil || ok {
			return c, err
		}
		from = []store.OrderStatus{store.OrderPending}
	}
	a := store.Attempt{ID: ids.New(), OrderID: o.ID, Provider: s.Provider.Name(), Status: store.AttemptStarted,
		Amount: q.Total, Currency: q.Currency, CreatedAt: now, UpdatedAt: now}
	if promo != nil {
		a.PromoCode = sql.NullString{String: promo.Code, Valid: true}
		a.HoldUntil = sql.NullTime{Time: order.HoldUntil(*promo, now), Valid: true}
	}
	priced := store.PricedOrder{ID: o.ID, SKUID: sku.SKU.ID, Currency: q.Currency, Country: country, Email: email,
		Subtotal: q.Subtotal, Discount: q.Discount, Tax: q.Tax, Total: q.Total, Promo: a.PromoCode}
	started, superseded, err := s.startPayment(ctx, priced, from, a)
	if errors.Is(err, store.ErrPromoTaken) {
		return Created{}, apperr.BadRequest("pay.promo.used_up", nil)
	}
	if err != nil {
		return Created{}, err
	}
	if !started {
		// Another click won the race: answer with its payment.
		o, err = s.Store.GetOrderByNumber(ctx, s.Store.DB, in.OrderNumber)
		if err != nil {
			return Created{}, err
		}
		c, ok, err := s.sameOpenAttempt(ctx, o, q, now)
		if err == nil && !ok {
			err = apperr.BadRequest("pay.not_payable", nil)
		}
		return c, err
	}
	s.cancel(ctx, superseded)
	return s.start(ctx, a, o, email)
}

// startPayment records the start of a payment in one transaction (see
// store.StartPayment): the order's new price, the superseded attempts, the
// promo hold and the new attempt are written together or not at all.
func (s *Service) startPayment(ctx context.Context, o store.PricedOrder, from []store.OrderStatus, a store.Attempt) (bool, []string, error) {
	var started bool
	var superseded []string
	err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		started, superseded, err = s.Store.StartPayment(ctx, tx, o, from, a)
		return err
	})
	return started, superseded, err
}

// cleanPromo is a promo code as typed, as it is stored: trimmed and
// upper-cased.
func cleanPromo(typed string) string { return strings.ToUpper(strings.TrimSpace(typed)) }

// promo finds a promo code as typed; nil for none. An unknown code is an
// error with a message for the buyer.
func (s *Service) promo(ctx context.Context, typed string) (*store.Promo, error) {
	code := cleanPromo(typed)
	if code == "" {
		return nil, nil
	}
	p, err := s.Store.GetPromo(ctx, s.Store.DB, code)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apperr.BadRequest("pay.promo.unknown", nil)
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
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
// apply to it, and one sent is refused.
func (s *Service) CreatePack(ctx context.Context, in CreateInput, owns func(string) bool) (Created, error) {
	report, err := s.Order(ctx, in.OrderNumber, owns)
	if err != nil {
		return Created{}, err
	}
	if report.Kind != store.OrderReport || !report.Paid() {
		return Created{}, apperr.BadRequest("pay.pack.report_first", nil)
	}
	if strings.TrimSpace(in.PromoCode) != "" {
		return Created{}, apperr.BadRequest("pay.promo.packs", nil)
	}
	r, err := s.Store.GetResult(ctx, s.Store.DB, report.ResultID)
	if err != nil {
		return Created{}, err
	}
	sku, err := s.Store.GetSKU(ctx, s.Store.DB, report.ExamID, in.SKUID, order.PriceCountry(r))
	if errors.Is(err, store.ErrNotFound) || (err == nil && !packs.Offered(sku.SKU)) {
		return Created{}, apperr.BadRequest("pay.unknown_product", nil)
	}
	if err != nil {
		return Created{}, err
	}
	now := s.Now().UTC()
	pack, err := s.Store.PackOrder(ctx, s.Store.DB, store.Order{ID: ids.New(), OrderNumber: ids.OrderNumber(now), ResultID: report.ResultID,
		ExamID: report.ExamID, Status: store.OrderCreated, Email: report.Email, SKUID: store.NullStr{String: sku.SKU.ID, Valid: true},
		CreatedAt: now, UpdatedAt: now})
	if err != nil {
		return Created{}, err
	}
	if pack.Paid() {
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
// amount and promo code as the quote and still holds the code's use at now.
// Another code at the same total is another payment: the use counted must
// be the new code's.
func (s *Service) sameOpenAttempt(ctx context.Context, o store.Order, q order.Quote, now time.Time) (Created, bool, error) {
	a, err := s.Store.OpenAttempt(ctx, s.Store.DB, o.ID)
	if errors.Is(err, store.ErrNotFound) {
		return Created{}, false, nil
	}
	if err != nil || a.Amount != q.Total || a.Currency != q.Currency || a.PromoCode.String != q.Promo {
		return Created{}, false, err
	}
	if a.PromoCode.Valid && !a.Holds(now) {
		return Created{}, false, nil
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

// ErrPromoEnded is a payment whose promo price no longer stands: the use of
// the code it held ended, or the code did. The buyer starts again.
var ErrPromoEnded = apperr.BadRequest("pay.promo.ended", nil)

// Payable checks, before a card is taken for an open attempt, that its promo
// price still stands: the attempt still holds its code's use and the code
// is in its window. If not, the attempt is closed (closeHold), which leaves
// the order payable again at today's price, and ErrPromoEnded is returned.
func (s *Service) Payable(ctx context.Context, a store.Attempt) error {
	if a.Status != store.AttemptStarted || !a.PromoCode.Valid {
		return nil
	}
	now := s.Now().UTC()
	// An attempt started before holds existed (migration 0020) has none to
	// end; its code's window still applies.
	ended := a.HoldUntil.Valid && !a.Holds(now)
	if !ended {
		p, err := s.Store.GetPromo(ctx, s.Store.DB, a.PromoCode.String)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		ended = err != nil || !order.PromoOpen(p, now)
	}
	if !ended {
		return nil
	}
	if err := s.closeHold(ctx, a); err != nil {
		return err
	}
	return ErrPromoEnded
}

// closeHold closes an open attempt whose promo price no longer stands: the
// provider cancels its payment, so no card can be charged on it any more,
// and it fails (failure code promo_ended) through the one path of events,
// which gives its use back and leaves the order payable again.
func (s *Service) closeHold(ctx context.Context, a store.Attempt) error {
	if c, ok := s.Provider.(payment.Canceler); ok && a.ProviderRef.Valid {
		if err := c.Cancel(ctx, a.ProviderRef.String); err != nil {
			return fmt.Errorf("checkout: close attempt %s: %w", a.ID, err)
		}
	}
	return s.apply(ctx, payment.Event{ID: "promo_ended:" + a.ID, Kind: payment.EventFailed, Ref: a.ProviderRef.String, AttemptID: a.ID,
		Amount: a.Amount, Currency: a.Currency, FailureCode: "promo_ended"}, time.Time{})
}

func (s *Service) start(ctx context.Context, a store.Attempt, o store.Order, email string) (Created, error) {
	p, err := s.Provider.Start(ctx, payment.Request{
		OrderID: o.ID, AttemptID: a.ID, Amount: a.Amount, Currency: a.Currency, Email: email,
		Description: "Selfmap " + o.OrderNumber, IdempotencyKey: "attempt_" + a.ID,
	})
	if err != nil {
		return Created{}, fmt.Errorf("checkout: start payment: %w", err)
	}
	if err := s.Store.SetAttemptStarted(ctx, s.Store.DB, a.ID, p.Ref, p.ClientSecret, s.Now()); err != nil {
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
	// The provider's time of the event is when the money moved, even for
	// a delivery that arrives late; the sandbox delivers at once.
	paidAt := ev.Created
	if paidAt.IsZero() {
		paidAt = s.Now().UTC()
	}
	return s.apply(ctx, ev, paidAt)
}

// apply records an event and acts on it in one transaction, so the order's
// new state, the conversion and the receipt are committed together or not
// at all, and once only. The attempt's row is locked first, so two events
// of one payment (a success and a late failure, or one success under two
// event ids) are applied one after the other. paidAt is when the provider
// says the event happened; zero when it is not known (the reconciler's).
func (s *Service) apply(ctx context.Context, ev payment.Event, paidAt time.Time) error {
	now := s.Now().UTC()
	return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		fresh, err := s.Store.RecordEvent(ctx, tx, s.Provider.Name(), ev.ID, string(ev.Kind), ev.AttemptID, now)
		if err != nil || !fresh {
			return err
		}
		a, err := s.Store.LockAttempt(ctx, tx, ev.AttemptID)
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
			return s.succeed(ctx, tx, ev, a, o, paidAt, now)
		case payment.EventFailed:
			return s.fail(ctx, tx, ev, a, o, now)
		}
		return nil
	})
}

// succeed applies a payment's success: money taken is an order paid, even
// if a failure of this or an older attempt was applied first, provided its
// promo price still stands (promoStands).
func (s *Service) succeed(ctx context.Context, tx *sqlx.Tx, ev payment.Event, a store.Attempt, o store.Order, paidAt, now time.Time) error {
	if ev.Amount != a.Amount || !strings.EqualFold(ev.Currency, a.Currency) {
		return fmt.Errorf("checkout: event %s pays %d %s for attempt %s of %d %s", ev.ID, ev.Amount, ev.Currency, a.ID, a.Amount, a.Currency)
	}
	if a.Status == store.AttemptSucceeded {
		// This payment's success again, under another event id (a
		// provider's duplicate delivery): it was applied, and any second
		// payment it made was reported, the first time. The soak's replays
		// found it logged as a payment to refund.
		s.Logger.InfoContext(ctx, "checkout: success of an attempt already applied", "order", o.OrderNumber, "attempt", a.ID, "event", ev.ID)
		return nil
	}
	if err := s.Store.SetAttemptOutcome(ctx, tx, a.ID, store.AttemptSucceeded, "", now); err != nil {
		return err
	}
	stands, err := s.promoStands(ctx, tx, a, paidAt)
	if err != nil {
		return err
	}
	if !stands {
		s.Logger.ErrorContext(ctx, "checkout: paid at a promo price its code no longer gives: refund it", "order", o.OrderNumber,
			"attempt", a.ID, "ref", a.ProviderRef.String, "code", a.PromoCode.String)
		if a.Status != store.AttemptStarted {
			return nil
		}
		// The order's current payment: the order is payable again, at
		// today's price.
		_, err := s.Store.MoveOrder(ctx, tx, o.ID, string(store.OrderPending), string(store.OrderFailed), now)
		return err
	}
	for _, from := range []store.OrderStatus{store.OrderPending, store.OrderFailed} {
		won, err := s.Store.MoveOrder(ctx, tx, o.ID, string(from), string(store.OrderPaid), now)
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
}

// promoStands reports whether a paid attempt's promo price stands. It does
// when the attempt held its code's use when it was paid (a reconciled
// outcome, whose time is not known, counts as paid while it was open). An
// attempt that held none (replaced, declined and then paid, or left past
// its hold) stands only if a use is still left and the code was in its
// window when it was paid.
func (s *Service) promoStands(ctx context.Context, tx *sqlx.Tx, a store.Attempt, paidAt time.Time) (bool, error) {
	if !a.PromoCode.Valid {
		return true, nil
	}
	if a.Status == store.AttemptStarted && a.HoldUntil.Valid && (paidAt.IsZero() || a.Holds(paidAt)) {
		return true, nil
	}
	if paidAt.IsZero() {
		paidAt = s.Now().UTC()
	}
	p, left, err := s.Store.PromoLeft(ctx, tx, a.PromoCode.String, a.ID, paidAt)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return left && order.PromoOpen(p, paidAt), nil
}

// fail applies a payment's failure. Only the failure of the order's current
// attempt fails the order; a late failure of a replaced attempt changes
// nothing else. A payment that succeeded stays succeeded: a failure
// delivered after its success (an earlier decline of the same payment,
// arriving late, as a provider does not promise the order of its
// deliveries) changes nothing at all.
func (s *Service) fail(ctx context.Context, tx *sqlx.Tx, ev payment.Event, a store.Attempt, o store.Order, now time.Time) error {
	if a.Status == store.AttemptSucceeded {
		s.Logger.InfoContext(ctx, "checkout: failure of an attempt that succeeded changes nothing", "order", o.OrderNumber,
			"attempt", a.ID, "event", ev.ID, "code", ev.FailureCode)
		return nil
	}
	current := a.Status == store.AttemptStarted
	if err := s.Store.SetAttemptOutcome(ctx, tx, a.ID, store.AttemptFailed, ev.FailureCode, now); err != nil || !current {
		return err
	}
	_, err := s.Store.MoveOrder(ctx, tx, o.ID, string(store.OrderPending), string(store.OrderFailed), now)
	return err
}

// fulfil unlocks what was paid for (the order's paid state is the unlock),
// records the conversion, and queues the order's e-mails: the receipt and,
// for a report, a new report link in the report-ready mail.
func (s *Service) fulfil(ctx context.Context, tx *sqlx.Tx, o store.Order, a store.Attempt, now time.Time) error {
	if a.PromoCode.Valid {
		// A promo use counts when it pays for something, once per order:
		// the payment's hold, or the check of one without (promoStands),
		// kept it free.
		ok, err := s.Store.UsePromo(ctx, tx, a.PromoCode.String)
		if err != nil {
			return err
		}
		if !ok {
			s.Logger.WarnContext(ctx, "checkout: promo code used past its limit (its limit was lowered?)", "code", a.PromoCode.String, "order", o.OrderNumber)
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
	r, err := s.Store.GetResult(ctx, tx, o.ResultID)
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
// An open attempt whose promo hold ended is closed (closeHold): its payment
// can no longer be made at a price the code no longer gives.
func (s *Service) Reconcile(ctx context.Context, age time.Duration) (int, error) {
	now := s.Now().UTC()
	stale, err := s.Store.StaleAttempts(ctx, s.Store.DB, now.Add(-age), 100)
	if err != nil {
		return 0, err
	}
	ended, err := s.Store.EndedHolds(ctx, s.Store.DB, now, 100)
	if err != nil {
		return 0, err
	}
	applied := 0
	asked := map[string]bool{}
	for _, a := range append(stale, ended...) {
		if asked[a.ID] {
			continue
		}
		asked[a.ID] = true
		state, err := s.Provider.State(ctx, a.ProviderRef.String)
		if err != nil {
			s.Logger.WarnContext(ctx, "checkout: reconcile: provider state", "attempt", a.ID, "err", err)
			continue
		}
		ev := payment.Event{ID: "reconcile:" + a.ID + ":" + string(state), AttemptID: a.ID, Ref: a.ProviderRef.String,
			Amount: a.Amount, Currency: a.Currency}
		switch {
		case state == payment.StateSucceeded:
			ev.Kind = payment.EventSucceeded
		case state == payment.StateFailed:
			ev.Kind, ev.FailureCode = payment.EventFailed, "reconciled_failure"
		case a.PromoCode.Valid && a.HoldUntil.Valid && !a.Holds(now):
			if err := s.closeHold(ctx, a); err != nil {
				s.Logger.WarnContext(ctx, "checkout: reconcile: close an attempt whose promo hold ended", "attempt", a.ID, "err", err)
				continue
			}
			applied++
			continue
		default:
			// Still open: ask about the others first next time.
			if err := s.Store.TouchAttempt(ctx, s.Store.DB, a.ID, s.Now()); err != nil {
				return applied, err
			}
			continue
		}
		if err := s.apply(ctx, ev, time.Time{}); err != nil {
			// One bad attempt must not hold up the others.
			s.Logger.ErrorContext(ctx, "checkout: reconcile: apply", "attempt", a.ID, "err", err)
			continue
		}
		applied++
	}
	return applied, nil
}
