package subscription

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/apperr"
	"selfmap/internal/ids"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// Service runs subscriptions on a store and a payment provider.
type Service struct {
	Store    *store.Store
	Provider payment.Provider
	Logger   *slog.Logger
	Now      func() time.Time
	// Mail composes the e-mails (mail.go); nil: the embedded templates
	// with links relative to the site's root.
	Mail *Mailer
	// RetryDelays are the waits before each new attempt at a declined
	// renewal, counted from the declined attempt; after the last, the
	// subscription is canceled. Default DefaultRetryDelays.
	RetryDelays []time.Duration
	// Lease is how long a charge may be in flight before another run asks
	// the provider again, with the same idempotency key. Default
	// DefaultLease.
	Lease time.Duration
	// RemindBefore is how long before a renewal the reminder is mailed.
	// Default DefaultRemindBefore.
	RemindBefore time.Duration
	// ReportPaid reports whether a result's report is paid: an unpaid
	// newest result is offered the trial for OfferWindow (offer.go). Nil:
	// no report is offered a deadline.
	ReportPaid func(ctx context.Context, resultID string) (bool, error)
	// CardAttempts limits the cards one account may try to subscribe
	// with, wherever it connects from (card testing). Nil: no limit.
	CardAttempts Limiter
}

// Limiter admits or refuses one more attempt by an identifier (a shared
// rate limit such as ratelimit.Store).
type Limiter interface {
	Allow(identifier string) (bool, error)
}

// Defaults of the Service's settings.
var (
	DefaultRetryDelays  = []time.Duration{24 * time.Hour, 72 * time.Hour}
	DefaultLease        = 5 * time.Minute
	DefaultRemindBefore = 48 * time.Hour
)

// Errors a caller shows the customer.
var (
	ErrNotFound          = apperr.NotFound("api.not_found")
	ErrUnknownPlan       = apperr.BadRequest("sub.plan.unknown", nil)
	ErrNoPremiumPlan     = apperr.BadRequest("sub.upgrade.no_premium", nil)
	ErrUpgradeFailed     = apperr.BadRequest("sub.upgrade.failed", nil)
	ErrAlreadySubscribed = apperr.BadRequest("sub.already_subscribed", nil)
	ErrDeclined          = apperr.BadRequest("sub.declined", nil)
	ErrBusy              = apperr.BadRequest("sub.busy", nil)
	// ErrTrialUsed refuses a second trial to a customer (by account or
	// e-mail address) who has paid for one: they may subscribe with pay
	// now.
	ErrTrialUsed    = apperr.BadRequest("sub.trial_used", nil)
	ErrNotRecurring = errors.New("subscription: the payment provider cannot charge a saved method")
	// ErrActionRequired answers a start whose first payment waits for the
	// customer's authentication (3-D Secure) with the subscription, still
	// incomplete: see PendingAction and AbandonStart.
	ErrActionRequired = errors.New("subscription: the first payment waits for the customer's authentication")
)

func (s *Service) retryDelays() []time.Duration {
	if s.RetryDelays != nil {
		return s.RetryDelays
	}
	return DefaultRetryDelays
}

func (s *Service) lease() time.Duration {
	if s.Lease > 0 {
		return s.Lease
	}
	return DefaultLease
}

func (s *Service) remindBefore() time.Duration {
	if s.RemindBefore > 0 {
		return s.RemindBefore
	}
	return DefaultRemindBefore
}

func (s *Service) now() time.Time { return s.Now().UTC() }

func (s *Service) recurring() (payment.Recurring, error) {
	r, ok := s.Provider.(payment.Recurring)
	if !ok {
		return nil, ErrNotRecurring
	}
	return r, nil
}

// StartInput is what a customer sends to subscribe.
type StartInput struct {
	// CustomerID is opaque: a user id, or a guest's e-mail address.
	CustomerID string
	Email      string
	Locale     string
	// Country prices the plan ("" or unknown: the default price).
	Country string
	PlanID  string
	// Method is the card the provider saved for this customer: on the
	// sandbox the SavedCard that Sandbox.SaveCard returned; with Stripe a
	// PaymentMethod made by Stripe.js, as SavedCard{Ref: "pm_..."} (brand
	// and last four are then read from Stripe).
	Method payment.SavedCard
	// PromoCode, when given, takes its percentage off the first charge
	// (promo.go); an unknown or expired code refuses the start.
	PromoCode string
}

// StartTrial subscribes a customer to a plan with its paid trial: the trial
// price is charged now, and the plan's price at the trial's end. A plan
// without a trial starts as PayNow does; a customer who paid for a trial
// before is refused with ErrTrialUsed. A declined card leaves the
// subscription expired and answers ErrDeclined with it.
func (s *Service) StartTrial(ctx context.Context, in StartInput) (store.Subscription, error) {
	return s.start(ctx, in, false)
}

// PayNow subscribes a customer skipping the trial: the plan's price is
// charged now for a first full period.
func (s *Service) PayNow(ctx context.Context, in StartInput) (store.Subscription, error) {
	return s.start(ctx, in, true)
}

func (s *Service) start(ctx context.Context, in StartInput, payNow bool) (store.Subscription, error) {
	b, billing := s.billing()
	if _, err := s.recurring(); err != nil && !billing {
		return store.Subscription{}, err
	}
	email, plan, err := s.startPlan(ctx, in)
	if err != nil {
		return store.Subscription{}, err
	}
	now := s.now()
	first, err := s.firstPeriod(ctx, in, email, plan, payNow, now)
	if err != nil {
		return store.Subscription{}, err
	}
	if in.PromoCode != "" && billing {
		// Stripe bills its own prices; a code it would not apply is not
		// offered (the form has no promo field with Stripe).
		return store.Subscription{}, ErrPromoUnknown
	}
	if in.PromoCode != "" {
		if first.amount, err = s.promoAmount(ctx, in.PromoCode, plan, payNow, now); err != nil {
			return store.Subscription{}, err
		}
	}
	sub := s.newSubscription(in, email, plan, first, now)
	if billing {
		return s.startBilling(ctx, b, sub, plan, first.kind == KindTrial)
	}
	return s.startCharged(ctx, sub, plan, first, now)
}

// startPlan checks who subscribes and reads the plan they chose, priced
// for their country (the default price when they gave none).
func (s *Service) startPlan(ctx context.Context, in StartInput) (string, store.PricedPlan, error) {
	email, msg := validate.Email(in.Email)
	if msg != "" {
		return "", store.PricedPlan{}, apperr.BadRequest(msg, nil)
	}
	if in.CustomerID == "" || in.Method.Ref == "" {
		return "", store.PricedPlan{}, errors.New("subscription: start needs a customer and a saved method")
	}
	plan, err := s.Store.GetPlan(ctx, s.Store.DB, in.PlanID, startCountry(in))
	if errors.Is(err, store.ErrNotFound) {
		return "", store.PricedPlan{}, ErrUnknownPlan
	}
	if err != nil {
		return "", store.PricedPlan{}, err
	}
	return email, plan, nil
}

// startCountry is the country a start is priced for: '*' (the default
// price) when none is given.
func startCountry(in StartInput) string {
	if in.Country == "" {
		return "*"
	}
	return in.Country
}

// first is a start's first charge: what it pays for, its amount, and the
// end of the trial or first period it pays.
type first struct {
	kind     string
	amount   int64
	end      time.Time
	trialEnd sql.NullTime
}

// firstPeriod is the first charge of a start at now: the plan's trial,
// unless the customer asks to pay now, the plan has none, or the customer
// (by account or address) paid for a trial before (ErrTrialUsed); else
// the plan's price for a first full period. No promo is taken off yet.
func (s *Service) firstPeriod(ctx context.Context, in StartInput, email string, plan store.PricedPlan, payNow bool, now time.Time) (first, error) {
	if payNow || !plan.HasTrial() {
		end, err := AddPeriod(now, plan.Interval, plan.Period)
		return first{kind: KindPayNow, amount: plan.Price, end: end}, err
	}
	used, err := s.Store.HadTrial(ctx, s.Store.DB, in.CustomerID, email)
	if err != nil {
		return first{}, err
	}
	if used {
		return first{}, ErrTrialUsed
	}
	end := now.AddDate(0, 0, plan.TrialDays)
	return first{kind: KindTrial, amount: plan.TrialPrice.Int64, end: end, trialEnd: sql.NullTime{Time: end, Valid: true}}, nil
}

// newSubscription is the row of a start, incomplete until its first charge
// is settled.
func (s *Service) newSubscription(in StartInput, email string, plan store.PricedPlan, f first, now time.Time) store.Subscription {
	sub := store.Subscription{ID: ids.New(), CustomerID: in.CustomerID, Email: email, Locale: in.Locale, Country: startCountry(in),
		PlanID: plan.ID, Status: Incomplete, Price: plan.Price, Currency: plan.Currency, CurrentPeriodStart: now,
		CurrentPeriodEnd: f.end, TrialEnd: f.trialEnd, Provider: s.Provider.Name(),
		PaymentMethodRef: sql.NullString{String: in.Method.Ref, Valid: true},
		CardBrand:        sql.NullString{String: in.Method.Brand, Valid: in.Method.Brand != ""},
		CardLast4:        sql.NullString{String: in.Method.Last4, Valid: in.Method.Last4 != ""}, CreatedAt: now, UpdatedAt: now}
	if sub.Locale == "" {
		sub.Locale = "en"
	}
	return sub
}

// startCharged records a start with its first invoice, in one transaction,
// and charges it through our own recurring charges (the sandbox). A second
// start while one is live records nothing and answers ErrAlreadySubscribed;
// a declined card answers ErrDeclined with the subscription it expired.
func (s *Service) startCharged(ctx context.Context, sub store.Subscription, plan store.PricedPlan, f first, now time.Time) (store.Subscription, error) {
	// The first attempt is claimed as the invoice is written, so the
	// renewal job leaves it to this request unless the request dies.
	inv := s.newInvoice(sub, f.kind, plan.ID, now, f.end, f.amount, now)
	inv.Attempts, inv.AttemptOpen, inv.NextAttemptAt = 1, true, now.Add(s.lease())
	inv.IdempotencyKey = sql.NullString{String: invoiceKey(sub.ID, now, 1), Valid: true}
	var started bool
	err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		started, err = s.Store.StartSubscription(ctx, tx, sub, inv)
		return err
	})
	if err != nil {
		return store.Subscription{}, err
	}
	if !started {
		return store.Subscription{}, ErrAlreadySubscribed
	}
	inv, err = s.charge(ctx, sub, inv, 1)
	if err != nil {
		return store.Subscription{}, err
	}
	if sub, err = s.Store.GetSubscription(ctx, s.Store.DB, sub.ID); err != nil {
		return store.Subscription{}, err
	}
	if inv.Status == store.InvoiceFailed {
		return sub, ErrDeclined
	}
	return sub, nil
}

func (s *Service) newInvoice(sub store.Subscription, kind, planID string, start, end time.Time, amount int64, now time.Time) store.Invoice {
	return store.Invoice{ID: ids.New(), SubscriptionID: sub.ID, Kind: kind, PlanID: planID, PeriodStart: start, PeriodEnd: end,
		Amount: amount, Currency: sub.Currency, Status: store.InvoicePending, NextAttemptAt: now, CreatedAt: now, UpdatedAt: now}
}

// invoiceKey is the idempotency key of one attempt at charging one period
// of a subscription: a retried call for the attempt is the same charge; a
// retry after a decline is a new attempt, so a new key.
func invoiceKey(subID string, periodStart time.Time, attempt int) string {
	return "sub_" + subID + "_" + strconv.FormatInt(periodStart.UTC().UnixMilli(), 10) + "_" + strconv.Itoa(attempt)
}

// charge asks the provider for the invoice's open attempt, whose number is
// attempt, and settles the outcome. An error from the provider leaves the
// attempt open: it is asked again, with the same key, once the lease ends.
func (s *Service) charge(ctx context.Context, sub store.Subscription, inv store.Invoice, attempt int) (store.Invoice, error) {
	rec, err := s.recurring()
	if err != nil {
		return inv, err
	}
	c, err := rec.ChargeSaved(ctx, sub.PaymentMethodRef.String, payment.Request{OrderID: sub.ID, AttemptID: inv.ID,
		Amount: inv.Amount, Currency: inv.Currency, Email: sub.Email, Description: "Selfmap " + inv.Kind + " " + sub.PlanID,
		IdempotencyKey: invoiceKey(sub.ID, inv.PeriodStart, attempt)})
	if err != nil {
		return inv, fmt.Errorf("subscription: charge invoice %s attempt %d: %w", inv.ID, attempt, err)
	}
	if err := s.settle(ctx, inv.ID, attempt, c); err != nil {
		return inv, err
	}
	return s.Store.GetInvoice(ctx, s.Store.DB, inv.ID)
}

// settle records a charge's outcome and what it does to the subscription,
// with its e-mail, in one transaction. Only the runner that closes the
// attempt acts: a replayed or concurrent outcome changes nothing.
func (s *Service) settle(ctx context.Context, invID string, attempt int, c payment.Charge) error {
	now := s.now()
	return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		inv, err := s.Store.GetInvoice(ctx, tx, invID)
		if err != nil {
			return err
		}
		status, next := store.InvoicePaid, now
		if c.State != payment.StateSucceeded {
			status = store.InvoiceFailed
			if delays := s.retryDelays(); inv.Kind == KindRenewal && attempt <= len(delays) {
				status, next = store.InvoicePending, now.Add(delays[attempt-1])
			}
		}
		won, err := s.Store.SettleInvoiceAttempt(ctx, tx, inv.ID, attempt, status, c.Ref, c.FailureCode, next, now)
		if err != nil || !won {
			return err
		}
		inv.Status, inv.NextAttemptAt = status, next
		return s.update(ctx, tx, inv.SubscriptionID, func(sub *store.Subscription) ([]mailKind, error) {
			return s.apply(ctx, sub, inv, c, now)
		})
	})
}

// update reads a subscription in tx, lets fn change it, checks the move
// against the state machine and writes it; fn runs again if another writer
// changed the subscription in between.
func (s *Service) update(ctx context.Context, tx *sqlx.Tx, id string, fn func(sub *store.Subscription) ([]mailKind, error)) error {
	for range 5 {
		sub, err := s.Store.GetSubscription(ctx, tx, id)
		if err != nil {
			return err
		}
		from := sub.Status
		mails, err := fn(&sub)
		if err != nil {
			return err
		}
		if to := sub.Status; to != from && !CanMove(from, to) {
			return fmt.Errorf("subscription: %s may not move from %s to %s", sub.ID, from, to)
		}
		sub.UpdatedAt = s.now()
		ok, err := s.Store.UpdateSubscription(ctx, tx, sub)
		if err != nil {
			return err
		}
		if ok {
			for _, k := range mails {
				if err := s.queueMail(ctx, tx, k, sub); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return fmt.Errorf("subscription: %s kept changing under an update", id)
}

// apply is what a settled charge does to its subscription.
func (s *Service) apply(ctx context.Context, sub *store.Subscription, inv store.Invoice, c payment.Charge, now time.Time) ([]mailKind, error) {
	from := sub.Status
	paid := c.State == payment.StateSucceeded
	receipt := mailKind{kind: mailReceipt, inv: inv}
	switch inv.Kind {
	case KindTrial, KindPayNow:
		if from != Incomplete {
			break
		}
		if !paid {
			sub.Status, sub.EndedAt = Expired, sql.NullTime{Time: now, Valid: true}
			return nil, nil
		}
		sub.Status = Active
		if inv.Kind == KindTrial {
			sub.Status = Trialing
		}
		return []mailKind{receipt}, nil
	case KindRenewal:
		if !from.Live() || from == Incomplete {
			break
		}
		switch {
		case paid:
			sub.Status, sub.CurrentPeriodStart, sub.CurrentPeriodEnd = Active, inv.PeriodStart, inv.PeriodEnd
			return []mailKind{receipt}, nil
		case inv.Status == store.InvoicePending:
			sub.Status = PastDue
			return []mailKind{{kind: mailPaymentFailed, inv: inv}}, nil
		default:
			sub.Status, sub.EndedAt = Canceled, sql.NullTime{Time: now, Valid: true}
			sub.CanceledAt = sql.NullTime{Time: now, Valid: true}
			return []mailKind{{kind: mailCanceledUnpaid, inv: inv}}, nil
		}
	case KindUpgrade:
		if !paid || (from != Trialing && from != Active) {
			break
		}
		if sub.TrialEnd.Valid && sub.TrialEnd.Time.After(now) {
			sub.TrialEnd.Time = now
		}
		sub.Status, sub.PlanID, sub.Price, sub.Currency = Active, inv.PlanID, inv.Amount, inv.Currency
		sub.CurrentPeriodStart, sub.CurrentPeriodEnd = inv.PeriodStart, inv.PeriodEnd
		sub.CancelAtPeriodEnd, sub.CanceledAt = false, sql.NullTime{}
		return []mailKind{receipt}, nil
	}
	if paid {
		// Money taken for a subscription that can no longer use it (ended
		// while the charge was in flight): it is kept on the invoice and
		// logged for a refund.
		s.Logger.ErrorContext(ctx, "subscription: charge paid for a subscription that moved on: refund it",
			"subscription", sub.ID, "invoice", inv.ID, "status", sub.Status, "ref", c.Ref)
	}
	return nil, nil
}

// owned reads a customer's subscription; another customer's answers as a
// missing one.
func (s *Service) owned(ctx context.Context, customerID, id string) (store.Subscription, error) {
	sub, err := s.Store.GetSubscription(ctx, s.Store.DB, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && sub.CustomerID != customerID) {
		return store.Subscription{}, ErrNotFound
	}
	return sub, err
}

// Cancel stops a subscription from renewing: it keeps its access until the
// current period ends and then expires; nothing is refunded. A past-due
// subscription, whose period is already over, is canceled at once and its
// retries stop. Cancelling again changes nothing.
func (s *Service) Cancel(ctx context.Context, customerID, id string) (store.Subscription, error) {
	sub, err := s.owned(ctx, customerID, id)
	if err != nil {
		return store.Subscription{}, err
	}
	if b, ok := s.managed(sub); ok {
		return s.cancelBilling(ctx, b, sub)
	}
	now := s.now()
	err = s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.update(ctx, tx, id, func(sub *store.Subscription) ([]mailKind, error) {
			if sub.Status == PastDue {
				if _, err := s.Store.VoidOpenInvoice(ctx, tx, sub.ID, now); err != nil {
					return nil, err
				}
			}
			return markCanceled(sub, now), nil
		})
	})
	if err != nil {
		return store.Subscription{}, err
	}
	return s.Store.GetSubscription(ctx, s.Store.DB, id)
}

// markCanceled records a customer's cancel on the row: a trialing or
// active subscription ends at its period's end, a past-due one now; the
// cancel mail goes with it. Cancelling again changes nothing.
func markCanceled(sub *store.Subscription, now time.Time) []mailKind {
	at := sql.NullTime{Time: now, Valid: true}
	switch sub.Status {
	case Trialing, Active:
		if sub.CancelAtPeriodEnd {
			return nil
		}
		sub.CancelAtPeriodEnd, sub.CanceledAt = true, at
	case PastDue:
		sub.Status = Canceled
		sub.CanceledAt, sub.EndedAt = at, at
	default:
		return nil
	}
	return []mailKind{{kind: mailCanceled}}
}

// Upgrade moves a trialing or active subscription to a premium plan: the
// trial or current period ends now, the premium price is charged at once
// for a full premium period, and the plan is replaced. An upgrade replayed
// (or racing itself) charges once: the second finds the plan already
// replaced, or the same charge in flight and finishes it with the same
// key. A declined card leaves the subscription as it was and answers
// ErrUpgradeFailed.
func (s *Service) Upgrade(ctx context.Context, customerID, id, planID string) (store.Subscription, error) {
	sub, err := s.owned(ctx, customerID, id)
	if err != nil {
		return store.Subscription{}, err
	}
	if sub.PlanID == planID {
		return sub, nil
	}
	plan, err := s.Store.GetPlan(ctx, s.Store.DB, planID, sub.Country)
	if errors.Is(err, store.ErrNotFound) || (err == nil && Tier(plan.Tier) != TierPremium) {
		return store.Subscription{}, ErrNoPremiumPlan
	}
	if err != nil {
		return store.Subscription{}, err
	}
	if st := sub.Status; st != Trialing && st != Active {
		return store.Subscription{}, ErrUpgradeFailed
	}
	if b, ok := s.managed(sub); ok {
		return s.upgradeBilling(ctx, b, sub, plan)
	}
	now := s.now()
	end, err := AddPeriod(now, plan.Interval, plan.Period)
	if err != nil {
		return store.Subscription{}, err
	}
	inv := s.newInvoice(sub, KindUpgrade, plan.ID, now, end, plan.Price, now)
	inv.Currency = plan.Currency
	inv.Attempts, inv.AttemptOpen, inv.NextAttemptAt = 1, true, now.Add(s.lease())
	inv.IdempotencyKey = sql.NullString{String: invoiceKey(sub.ID, now, 1), Valid: true}
	var inserted bool
	err = s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		inserted, err = s.Store.InsertInvoice(ctx, tx, inv)
		return err
	})
	if err != nil {
		return store.Subscription{}, err
	}
	if !inserted {
		// Another charge is open: the same upgrade in flight is finished
		// here with its own key; anything else must settle first.
		open, err := s.Store.OpenInvoice(ctx, s.Store.DB, sub.ID)
		if errors.Is(err, store.ErrNotFound) {
			return s.Store.GetSubscription(ctx, s.Store.DB, sub.ID)
		}
		if err != nil {
			return store.Subscription{}, err
		}
		if open.Kind != KindUpgrade || open.PlanID != planID || !open.AttemptOpen {
			return store.Subscription{}, ErrBusy
		}
		inv = open
	}
	inv, err = s.charge(ctx, sub, inv, inv.Attempts)
	if err != nil {
		return store.Subscription{}, err
	}
	if sub, err = s.Store.GetSubscription(ctx, s.Store.DB, sub.ID); err != nil {
		return store.Subscription{}, err
	}
	if inv.Status != store.InvoicePaid {
		return sub, ErrUpgradeFailed
	}
	return sub, nil
}

// RenewDue does the work of one run of the renewal job: subscriptions
// cancelled at their period's end expire; due ones get the invoice of their
// next period; due invoices are charged (a renewal, a retry, or an attempt
// whose runner died, asked again with its own key); reminders of coming
// renewals are queued. It returns how many charges it settled. Runs may
// overlap, on one instance or several: each invoice is charged once.
func (s *Service) RenewDue(ctx context.Context) (int, error) {
	now := s.now()
	if _, ok := s.billing(); ok {
		// The provider renews, retries and ends its subscriptions, and
		// our rows follow its events; only the reminders are ours.
		return 0, s.remind(ctx, now)
	}
	due, err := s.Store.DueSubscriptions(ctx, s.Store.DB, []Status{Trialing, Active}, now, 200)
	if err != nil {
		return 0, err
	}
	var errs []error
	for _, sub := range due {
		if sub.Provider != s.Provider.Name() {
			// Started with another provider (before a switch): not ours
			// to charge.
			continue
		}
		if err := s.openPeriod(ctx, sub, now); err != nil {
			errs = append(errs, err)
		}
	}
	invoices, err := s.Store.ChargeableInvoices(ctx, s.Store.DB, now, 200)
	if err != nil {
		return 0, errors.Join(append(errs, err)...)
	}
	settled := 0
	for _, inv := range invoices {
		ok, err := s.attempt(ctx, inv, now)
		if err != nil {
			// One bad invoice must not hold up the others.
			s.Logger.ErrorContext(ctx, "subscription: renewal charge", "invoice", inv.ID, "err", err)
			errs = append(errs, err)
		}
		if ok {
			settled++
		}
	}
	if err := s.remind(ctx, now); err != nil {
		errs = append(errs, err)
	}
	return settled, errors.Join(errs...)
}

// openPeriod ends a due subscription that was cancelled, or writes the
// invoice of its next period (once: the period's invoice is unique).
func (s *Service) openPeriod(ctx context.Context, sub store.Subscription, now time.Time) error {
	if sub.CancelAtPeriodEnd {
		return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
			voided, err := s.Store.VoidOpenInvoice(ctx, tx, sub.ID, now)
			if err != nil {
				return err
			}
			if _, err := s.Store.OpenInvoice(ctx, tx, sub.ID); err == nil && !voided {
				// A charge is in flight: it settles first.
				return nil
			}
			return s.update(ctx, tx, sub.ID, func(sub *store.Subscription) ([]mailKind, error) {
				if st := sub.Status; (st == Trialing || st == Active) && sub.CancelAtPeriodEnd && !sub.CurrentPeriodEnd.After(now) {
					sub.Status, sub.EndedAt = Expired, sql.NullTime{Time: sub.CurrentPeriodEnd, Valid: true}
				}
				return nil, nil
			})
		})
	}
	plan, err := s.Store.GetPlan(ctx, s.Store.DB, sub.PlanID, sub.Country)
	if err != nil {
		return fmt.Errorf("subscription: plan of %s: %w", sub.ID, err)
	}
	end, err := AddPeriod(sub.CurrentPeriodEnd, plan.Interval, plan.Period)
	if err != nil {
		return err
	}
	inv := s.newInvoice(sub, KindRenewal, sub.PlanID, sub.CurrentPeriodEnd, end, sub.Price, now)
	return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		_, err := s.Store.InsertInvoice(ctx, tx, inv)
		return err
	})
}

// attempt claims an invoice's next attempt (or its open one, whose lease
// ended) and charges it; false when another runner had it or the
// subscription can no longer be charged.
func (s *Service) attempt(ctx context.Context, inv store.Invoice, now time.Time) (bool, error) {
	sub, err := s.Store.GetSubscription(ctx, s.Store.DB, inv.SubscriptionID)
	if err != nil {
		return false, err
	}
	if st := sub.Status; !st.Live() || (inv.Kind == KindRenewal && sub.CancelAtPeriodEnd) {
		if !inv.AttemptOpen {
			return false, s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
				_, err := s.Store.VoidOpenInvoice(ctx, tx, sub.ID, now)
				return err
			})
		}
		if !st.Live() {
			// An attempt in flight is still asked about below: its money may
			// have been taken, and then it is logged for a refund.
			s.Logger.WarnContext(ctx, "subscription: open charge of an ended subscription", "invoice", inv.ID)
		}
	}
	n := inv.Attempts
	if !inv.AttemptOpen {
		n++
	}
	ok, err := s.Store.ClaimInvoiceAttempt(ctx, s.Store.DB, inv, n, invoiceKey(sub.ID, inv.PeriodStart, n), now, now.Add(s.lease()))
	if err != nil || !ok {
		return false, err
	}
	if _, err := s.charge(ctx, sub, inv, n); err != nil {
		return false, err
	}
	return true, nil
}
