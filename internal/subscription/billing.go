package subscription

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/ids"
	"selfmap/internal/payment"
	"selfmap/internal/store"
)

// Stripe mode. When the provider is a payment.Billing (Stripe Billing), the
// provider charges, renews and retries; StartTrial, PayNow, Upgrade and
// Cancel ask it to, and our rows follow what it answers and the events it
// sends (Receive). Every move still goes through the state machine
// (CanMove), in one transaction with the event's record and its e-mails.

// billing is the provider as a payment.Billing, if it is one.
func (s *Service) billing() (payment.Billing, bool) {
	b, ok := s.Provider.(payment.Billing)
	return b, ok
}

// managed reports whether the provider runs this subscription (it was
// started with the provider this service has, and that provider bills).
func (s *Service) managed(sub store.Subscription) (payment.Billing, bool) {
	b, ok := s.billing()
	return b, ok && sub.Provider == s.Provider.Name()
}

// providerTimeout bounds a start's calls to the provider, which run on
// even if the request that asked for them ends.
const providerTimeout = 60 * time.Second

// customerKey is the idempotency key of a customer's creation at the
// provider: derived from our customer id, hashed because that id may be an
// e-mail address.
func customerKey(customerID string) string {
	h := sha256.Sum256([]byte(customerID))
	return "cus_" + hex.EncodeToString(h[:16])
}

// startBilling subscribes with the provider: our row is written first
// (incomplete; a second submit finds it and answers ErrAlreadySubscribed),
// then the customer, card, prices and subscription are made at the
// provider with keys derived from it, and the answer moves the row. A card
// the provider refuses ends the row (expired) and the provider's
// subscription, so the customer may try another card at once. A failure to
// get an answer leaves the row incomplete: the provider's events settle it.
func (s *Service) startBilling(ctx context.Context, b payment.Billing, sub store.Subscription, plan store.PricedPlan, trial bool) (store.Subscription, error) {
	// A customer who closes the tab must not cut the calls to the provider
	// in the middle: Stripe may have charged while our side gave up.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), providerTimeout)
	defer cancel()
	if !strings.HasPrefix(sub.PaymentMethodRef.String, "pm_") {
		// Stripe.js makes pm_ methods; anything else cannot be charged.
		return store.Subscription{}, ErrDeclined
	}
	started, err := s.Store.InsertSubscription(ctx, s.Store.DB, sub)
	if err != nil {
		return store.Subscription{}, err
	}
	if !started {
		return s.resumeStart(ctx, b, sub.CustomerID)
	}
	return s.finishStart(ctx, b, sub, plan, trial)
}

// resumeStart answers a start for a customer who already has a live
// subscription. One left incomplete for longer than a request can take
// (Service.Lease: its request died, or never got Stripe's answer) is
// finished now, with the same idempotency keys, so Stripe answers what it
// did the first time, or does it now; anything else is ErrAlreadySubscribed.
func (s *Service) resumeStart(ctx context.Context, b payment.Billing, customerID string) (store.Subscription, error) {
	subs, err := s.Store.CustomerSubscriptions(ctx, s.Store.DB, customerID)
	if err != nil {
		return store.Subscription{}, err
	}
	for _, sub := range subs {
		if !s.Stalled(sub) {
			continue
		}
		plan, err := s.Store.GetPlan(ctx, s.Store.DB, sub.PlanID, sub.Country)
		if err != nil {
			return store.Subscription{}, err
		}
		return s.finishStart(ctx, b, sub, plan, sub.TrialEnd.Valid)
	}
	return store.Subscription{}, ErrAlreadySubscribed
}

// Stalled reports whether a live subscription is a start the provider
// never answered, left incomplete for longer than a request can take: a
// new start then finishes it (resumeStart) instead of waiting for it.
func (s *Service) Stalled(sub store.Subscription) bool {
	_, ok := s.managed(sub)
	return ok && sub.Status == Incomplete && s.now().Sub(sub.CreatedAt) >= s.lease()
}

// finishStart makes an incomplete subscription at the provider and applies
// the answer.
func (s *Service) finishStart(ctx context.Context, b payment.Billing, sub store.Subscription, plan store.PricedPlan, trial bool) (store.Subscription, error) {
	bs, err := s.createAtProvider(ctx, b, sub, plan, trial)
	if err != nil {
		if payment.Refused(err) {
			s.Logger.InfoContext(ctx, "subscription: provider refused the start", "subscription", sub.ID, "err", err)
			return s.endUnpaidStart(ctx, b, sub.ID, payment.BillingSubscription{})
		}
		return store.Subscription{}, err
	}
	paid := (bs.Status == "trialing" || bs.Status == "active") && (bs.LatestInvoice == nil || bs.LatestInvoice.Paid())
	if !paid && bs.AwaitsAction() {
		return s.awaitAction(ctx, sub.ID, bs)
	}
	if !paid {
		return s.endUnpaidStart(ctx, b, sub.ID, bs)
	}
	if err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.applySubscription(ctx, tx, sub.ID, bs, s.now())
	}); err != nil {
		return store.Subscription{}, err
	}
	return s.Store.GetSubscription(ctx, s.Store.DB, sub.ID)
}

// createAtProvider makes (or finds) everything the subscription needs at
// the provider and creates it there.
func (s *Service) createAtProvider(ctx context.Context, b payment.Billing, sub store.Subscription, plan store.PricedPlan, trial bool) (payment.BillingSubscription, error) {
	customer, err := s.Store.StripeCustomer(ctx, s.Store.DB, sub.CustomerID)
	if errors.Is(err, store.ErrNotFound) {
		ref, err := b.EnsureCustomer(ctx, payment.BillingCustomer{CustomerID: sub.CustomerID, Email: sub.Email,
			IdempotencyKey: customerKey(sub.CustomerID)})
		if err != nil {
			return payment.BillingSubscription{}, err
		}
		if err := s.Store.SaveStripeCustomer(ctx, s.Store.DB, sub.CustomerID, ref, s.now()); err != nil {
			return payment.BillingSubscription{}, err
		}
		// Another request may have saved one first: use what is kept.
		customer, err = s.Store.StripeCustomer(ctx, s.Store.DB, sub.CustomerID)
		if err != nil {
			return payment.BillingSubscription{}, err
		}
	} else if err != nil {
		return payment.BillingSubscription{}, err
	}
	card, err := b.AttachMethod(ctx, customer, sub.PaymentMethodRef.String)
	if err != nil {
		return payment.BillingSubscription{}, err
	}
	if err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.update(ctx, tx, sub.ID, func(row *store.Subscription) ([]mailKind, error) {
			row.CardBrand = sql.NullString{String: card.Brand, Valid: card.Brand != ""}
			row.CardLast4 = sql.NullString{String: card.Last4, Valid: card.Last4 != ""}
			return nil, nil
		})
	}); err != nil {
		return payment.BillingSubscription{}, err
	}
	price, err := s.providerPrice(ctx, b, plan, false)
	if err != nil {
		return payment.BillingSubscription{}, err
	}
	req := payment.SubscriptionRequest{CustomerRef: customer, MethodRef: card.Ref, PriceRef: price, SubscriptionID: sub.ID,
		IdempotencyKey: "sub_create_" + sub.ID}
	if trial {
		if req.TrialPriceRef, err = s.providerPrice(ctx, b, plan, true); err != nil {
			return payment.BillingSubscription{}, err
		}
		req.TrialDays = plan.TrialDays
	}
	return b.CreateSubscription(ctx, req)
}

// providerPrice is the provider's price for a plan price (or its trial
// price), made on first use and kept in stripe_prices by its lookup key.
func (s *Service) providerPrice(ctx context.Context, b payment.Billing, plan store.PricedPlan, trial bool) (string, error) {
	spec := payment.PriceSpec{PlanID: plan.ID, PlanTitle: plan.Title, Country: plan.Country, Amount: plan.Price,
		Currency: plan.Currency, Interval: plan.Interval, Count: plan.Period}
	kind := "recurring"
	if trial {
		spec.Amount, spec.Interval, spec.Count, kind = plan.TrialPrice.Int64, "", 0, "trial"
	}
	key := spec.LookupKey()
	if p, err := s.Store.StripePriceByKey(ctx, s.Store.DB, key); err == nil {
		return p.StripePriceID, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	ref, err := b.EnsurePrice(ctx, spec)
	if err != nil {
		return "", err
	}
	if err := s.Store.SaveStripePrice(ctx, s.Store.DB, store.StripePrice{LookupKey: key, StripePriceID: ref, PlanID: plan.ID,
		Country: plan.Country, Kind: kind, CreatedAt: s.now()}); err != nil {
		return "", err
	}
	return ref, nil
}

// awaitAction keeps a start whose first payment waits for the customer's
// authentication (3-D Secure): the row stays incomplete, now with the
// provider's reference, and ErrActionRequired tells the caller to let the
// customer authenticate (PendingAction gives the browser what it needs).
// The invoice.paid event then makes it trialing or active; a customer who
// fails or gives up ends it with AbandonStart, and a start nobody finishes
// is expired by the provider a day later (incomplete_expired).
func (s *Service) awaitAction(ctx context.Context, id string, bs payment.BillingSubscription) (store.Subscription, error) {
	sub, err := s.settleStart(ctx, id, bs.Ref, false)
	if err != nil {
		return store.Subscription{}, err
	}
	return sub, ErrActionRequired
}

// settleStart records the provider's reference of an unpaid start (when it
// gave one) and, with expire, ends the row if it is still incomplete; it
// answers the row as it now is.
func (s *Service) settleStart(ctx context.Context, id, ref string, expire bool) (store.Subscription, error) {
	now := s.now()
	err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.update(ctx, tx, id, func(sub *store.Subscription) ([]mailKind, error) {
			if ref != "" && !sub.ProviderRef.Valid {
				sub.ProviderRef = sql.NullString{String: ref, Valid: true}
			}
			if expire && sub.Status == Incomplete {
				sub.Status, sub.EndedAt = Expired, sql.NullTime{Time: now, Valid: true}
			}
			return nil, nil
		})
	})
	if err != nil {
		return store.Subscription{}, err
	}
	return s.Store.GetSubscription(ctx, s.Store.DB, id)
}

// awaiting reads the customer's subscription id and its provider; ok is
// true when it is a provider's start that may wait for the customer's
// authentication (incomplete, with the provider's reference).
func (s *Service) awaiting(ctx context.Context, customerID, id string) (store.Subscription, payment.Billing, bool, error) {
	sub, err := s.owned(ctx, customerID, id)
	if err != nil {
		return store.Subscription{}, nil, false, err
	}
	b, managed := s.managed(sub)
	ok := managed && sub.Status == Incomplete && sub.ProviderRef.Valid
	return sub, b, ok, nil
}

// PendingAction is the client secret the customer's browser needs to
// authenticate the first payment of their subscription id, read from the
// provider now ("" when nothing waits for them: paid, declined, ended).
func (s *Service) PendingAction(ctx context.Context, customerID, id string) (string, error) {
	sub, b, ok, err := s.awaiting(ctx, customerID, id)
	if err != nil || !ok {
		return "", err
	}
	bs, err := b.Subscription(ctx, sub.ProviderRef.String)
	if err != nil {
		return "", err
	}
	if !bs.AwaitsAction() {
		return "", nil
	}
	return bs.LatestInvoice.ActionSecret, nil
}

// AbandonStart ends a start whose authentication the customer failed or
// gave up, so they may try another card at once: the provider's
// subscription is cancelled and ours expires (ErrDeclined, as a declined
// card). Only a first payment that still waits for the customer, or that
// failed, is given up: one the provider is processing or has paid, or a
// start it ended, is left to its events.
func (s *Service) AbandonStart(ctx context.Context, customerID, id string) (store.Subscription, error) {
	sub, b, ok, err := s.awaiting(ctx, customerID, id)
	if err != nil || !ok {
		return sub, err
	}
	bs, err := b.Subscription(ctx, sub.ProviderRef.String)
	if err != nil {
		return store.Subscription{}, err
	}
	failed := bs.Status == "incomplete" && bs.LatestInvoice != nil && bs.LatestInvoice.FailureCode != ""
	if !bs.AwaitsAction() && !failed {
		return sub, nil
	}
	return s.endUnpaidStart(ctx, b, sub.ID, bs)
}

// endUnpaidStart ends a subscription whose first payment was refused: the
// provider's subscription is cancelled (so it neither lingers incomplete nor
// retries), ours expires, and the caller answers ErrDeclined.
func (s *Service) endUnpaidStart(ctx context.Context, b payment.Billing, id string, bs payment.BillingSubscription) (store.Subscription, error) {
	if bs.Ref != "" {
		if _, err := b.CancelNow(ctx, bs.Ref, ""); err != nil {
			s.Logger.WarnContext(ctx, "subscription: cancel of an unpaid start at the provider", "subscription", id, "ref", bs.Ref, "err", err)
		}
	}
	sub, err := s.settleStart(ctx, id, bs.Ref, true)
	if err != nil {
		return store.Subscription{}, err
	}
	return sub, ErrDeclined
}

// upgradeBilling asks the provider to move the subscription to the premium
// price now (trial or period ends, premium billed at once). A declined
// payment leaves the subscription on its plan and answers ErrUpgradeFailed.
// The key names the subscription's version, so a replayed click is the same
// call and an upgrade tried again after a change is a new one.
func (s *Service) upgradeBilling(ctx context.Context, b payment.Billing, sub store.Subscription, plan store.PricedPlan) (store.Subscription, error) {
	if !sub.ProviderRef.Valid {
		return store.Subscription{}, ErrBusy
	}
	price, err := s.providerPrice(ctx, b, plan, false)
	if err != nil {
		return store.Subscription{}, err
	}
	bs, err := b.UpdateSubscription(ctx, sub.ProviderRef.String, payment.SubscriptionUpdate{PriceRef: price,
		IdempotencyKey: "sub_upgrade_" + sub.ID + "_" + plan.ID + "_" + strconv.Itoa(sub.Version)})
	if payment.Refused(err) {
		s.Logger.InfoContext(ctx, "subscription: provider refused the upgrade", "subscription", sub.ID, "err", err)
		return sub, ErrUpgradeFailed
	}
	if err != nil {
		return store.Subscription{}, err
	}
	if bs.Pending || (bs.LatestInvoice != nil && !bs.LatestInvoice.Paid()) {
		return sub, ErrUpgradeFailed
	}
	if err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.applySubscription(ctx, tx, sub.ID, bs, s.now())
	}); err != nil {
		return store.Subscription{}, err
	}
	return s.Store.GetSubscription(ctx, s.Store.DB, sub.ID)
}

// cancelBilling cancels at the provider, then here: a trialing or active
// subscription at its period's end (the provider ends it then and says so
// with customer.subscription.deleted), a past-due one at once.
func (s *Service) cancelBilling(ctx context.Context, b payment.Billing, sub store.Subscription) (store.Subscription, error) {
	now := s.now()
	switch sub.Status {
	case Trialing, Active:
		if sub.CancelAtPeriodEnd {
			return sub, nil
		}
		if !sub.ProviderRef.Valid {
			// Its start has not been answered by the provider yet.
			return store.Subscription{}, ErrBusy
		}
		// One key per version of the row: a retry of this cancel replays
		// it, while a cancel after a resume is a new request to Stripe.
		key := "sub_cancel_" + sub.ID + "_v" + strconv.Itoa(sub.Version)
		if _, err := b.CancelAtPeriodEnd(ctx, sub.ProviderRef.String, key); err != nil {
			return store.Subscription{}, err
		}
	case PastDue:
		if _, err := b.CancelNow(ctx, sub.ProviderRef.String, ""); err != nil {
			return store.Subscription{}, err
		}
	default:
		return sub, nil
	}
	err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		err := s.update(ctx, tx, sub.ID, func(sub *store.Subscription) ([]mailKind, error) {
			return markCanceled(sub, now), nil
		})
		if err != nil {
			return err
		}
		// The provider's answer is its state as of now: an event it sent
		// before (a renewal's update still saying "renews") must not take
		// the cancel back when it arrives late.
		return s.Store.MarkSubscriptionSynced(ctx, tx, sub.ID, now)
	})
	if err != nil {
		return store.Subscription{}, err
	}
	return s.Store.GetSubscription(ctx, s.Store.DB, sub.ID)
}

// Receive verifies a webhook delivery with the provider and, when it is a
// subscription's event (payment.EventKind.Billing), applies it and answers
// true. Anything else answers false, for checkout to receive; a delivery
// whose signature does not check answers the provider's error.
func (s *Service) Receive(ctx context.Context, payload []byte, header http.Header) (bool, error) {
	ev, err := s.Provider.ParseEvent(payload, header, s.now())
	if errors.Is(err, payment.ErrIgnoredEvent) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !ev.Kind.Billing() {
		return false, nil
	}
	return true, s.ApplyEvent(ctx, ev)
}

// ApplyEvent applies a provider's subscription event in one transaction:
// the event is recorded (payment_events) and applied once, whatever the
// number of deliveries; an event older than the newest one applied to the
// subscription (Stripe does not promise order) changes no state, though a
// paid invoice is still recorded with its receipt.
func (s *Service) ApplyEvent(ctx context.Context, ev payment.Event) error {
	var subID, ref, customer string
	switch {
	case ev.Invoice != nil:
		subID, ref, customer = ev.Invoice.SubscriptionID, ev.Invoice.SubscriptionRef, ev.Invoice.CustomerRef
	case ev.Subscription != nil:
		subID, ref, customer = ev.Subscription.SubscriptionID, ev.Subscription.Ref, ev.Subscription.CustomerRef
	default:
		return fmt.Errorf("subscription: event %s (%s) carries no invoice or subscription", ev.ID, ev.Kind)
	}
	now := s.now()
	at := ev.Created
	if at.IsZero() {
		at = now
	}
	return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		fresh, err := s.Store.RecordEvent(ctx, tx, s.Provider.Name(), ev.ID, string(ev.Kind), subID, now)
		if err != nil || !fresh {
			return err
		}
		sub, err := s.Store.GetSubscription(ctx, tx, subID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && (sub.Provider != s.Provider.Name() ||
			(sub.ProviderRef.Valid && sub.ProviderRef.String != ref))) {
			// Not ours (another app on the account, or a forged metadata
			// id): acknowledged and ignored, as a retry would change nothing.
			s.Logger.WarnContext(ctx, "subscription: event for an unknown subscription", "event", ev.ID, "subscription", subID, "ref", ref)
			return nil
		}
		if err != nil {
			return err
		}
		if !sub.ProviderRef.Valid {
			// Not bound to a Stripe subscription yet (its start was never
			// answered): only an event billing this customer's Stripe
			// customer may bind it.
			mine, err := s.Store.StripeCustomer(ctx, s.Store.DB, sub.CustomerID)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			if customer == "" || customer != mine {
				s.Logger.WarnContext(ctx, "subscription: event for an unbound subscription from another customer", "event", ev.ID,
					"subscription", subID, "customer", customer)
				return nil
			}
		}
		switch ev.Kind {
		case payment.EventInvoicePaid, payment.EventInvoiceFailed:
			return s.applyInvoice(ctx, tx, sub, *ev.Invoice, ev.Kind == payment.EventInvoicePaid, at)
		case payment.EventSubscriptionUpdated, payment.EventSubscriptionDeleted:
			bs := *ev.Subscription
			if ev.Kind == payment.EventSubscriptionDeleted && bs.Status != "incomplete_expired" {
				bs.Status = "canceled"
			}
			return s.applySubscription(ctx, tx, sub.ID, bs, at)
		}
		return nil
	})
}

// stale reports whether something the provider said at `at` is older than
// what the subscription already follows.
func (s *Service) stale(ctx context.Context, tx *sqlx.Tx, id string, at time.Time) (bool, error) {
	synced, err := s.Store.SubscriptionSyncedAt(ctx, tx, id)
	if err != nil {
		return false, err
	}
	return synced.Valid && at.Before(synced.Time), nil
}

// providerStatus maps the provider's subscription status onto ours, from
// the state we are in. unpaid (Stripe's retries ended without cancelling)
// keeps it past due; a cancelled past-due subscription is canceled, any
// other cancelled one expired (cancelled at its period's end, or ended
// before it was ever paid).
func providerStatus(st string, from Status) Status {
	switch st {
	case "incomplete":
		return Incomplete
	case "incomplete_expired":
		return Expired
	case "trialing":
		return Trialing
	case "active":
		return Active
	case "past_due", "unpaid":
		return PastDue
	case "canceled":
		if from == PastDue {
			return Canceled
		}
		return Expired
	}
	return from
}

// applySubscription makes our row follow the provider's subscription as it
// was at `at`: status (through the state machine), period (forward only),
// trial end, cancel at the period's end, and plan (from the price). An
// answer older than one already applied changes nothing.
func (s *Service) applySubscription(ctx context.Context, tx *sqlx.Tx, id string, bs payment.BillingSubscription, at time.Time) error {
	old, err := s.stale(ctx, tx, id, at)
	if err != nil || old {
		return err
	}
	var plan store.StripePrice
	if bs.PriceRef != "" {
		if plan, err = s.Store.StripePriceByID(ctx, tx, bs.PriceRef); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	err = s.update(ctx, tx, id, func(sub *store.Subscription) ([]mailKind, error) {
		var mails []mailKind
		if !sub.ProviderRef.Valid && bs.Ref != "" {
			sub.ProviderRef = sql.NullString{String: bs.Ref, Valid: true}
		}
		from := sub.Status
		if to := providerStatus(bs.Status, from); to != from {
			if !CanMove(from, to) {
				s.Logger.WarnContext(ctx, "subscription: provider state not followed", "subscription", sub.ID, "from", from,
					"provider", bs.Status)
			} else {
				sub.Status = to
				if to == Canceled || to == Expired {
					ended := bs.EndedAt
					if ended.IsZero() {
						ended = at
					}
					sub.EndedAt = sql.NullTime{Time: ended, Valid: true}
				}
				if to == Canceled {
					sub.CanceledAt = sql.NullTime{Time: at, Valid: true}
					inv, err := s.Store.LatestInvoice(ctx, tx, sub.ID)
					if err != nil && !errors.Is(err, store.ErrNotFound) {
						return nil, err
					}
					if errors.Is(err, store.ErrNotFound) {
						inv = store.Invoice{Amount: sub.Price, Currency: sub.Currency}
					}
					mails = append(mails, mailKind{kind: mailCanceledUnpaid, inv: inv})
				}
			}
		}
		if !sub.Status.Live() {
			return mails, nil
		}
		if !bs.PeriodEnd.IsZero() && bs.PeriodEnd.After(sub.CurrentPeriodEnd) {
			sub.CurrentPeriodStart, sub.CurrentPeriodEnd = bs.PeriodStart, bs.PeriodEnd
		}
		if !bs.TrialEnd.IsZero() {
			sub.TrialEnd = sql.NullTime{Time: bs.TrialEnd, Valid: true}
		}
		switch {
		case bs.CancelAtPeriodEnd && !sub.CancelAtPeriodEnd:
			canceled := bs.CanceledAt
			if canceled.IsZero() {
				canceled = at
			}
			sub.CancelAtPeriodEnd, sub.CanceledAt = true, sql.NullTime{Time: canceled, Valid: true}
			mails = append(mails, mailKind{kind: mailCanceled})
		case !bs.CancelAtPeriodEnd && sub.CancelAtPeriodEnd:
			sub.CancelAtPeriodEnd, sub.CanceledAt = false, sql.NullTime{}
		}
		if plan.PlanID != "" && plan.PlanID != sub.PlanID && bs.Currency != "" {
			sub.PlanID, sub.Price, sub.Currency = plan.PlanID, bs.Amount, bs.Currency
		}
		return mails, nil
	})
	if err != nil {
		return err
	}
	return s.Store.MarkSubscriptionSynced(ctx, tx, id, at)
}

// invoiceKind names what a provider's invoice paid for, from its billing
// reason.
func invoiceKind(reason string, sub store.Subscription) string {
	switch reason {
	case "subscription_create":
		if sub.TrialEnd.Valid {
			return KindTrial
		}
		return KindPayNow
	case "subscription_update":
		return KindUpgrade
	}
	return KindRenewal
}

// applyInvoice records a provider's invoice (paid, or a declined attempt)
// and what it does: a paid one sends its receipt and makes the
// subscription trialing or active (a first payment, a renewal or retry, an
// upgrade); a declined renewal makes it past due and mails the failure
// while the provider will try again. A declined first payment or upgrade
// changes nothing here: the request that made it answers it.
func (s *Service) applyInvoice(ctx context.Context, tx *sqlx.Tx, sub store.Subscription, bi payment.BillingInvoice, paid bool, at time.Time) error {
	ev := invoiceEvent{bi: bi, kind: invoiceKind(bi.BillingReason, sub), paid: paid, at: at}
	planID, err := s.invoicePlan(ctx, tx, sub, bi)
	if err != nil {
		return err
	}
	row := providerInvoice(sub.ID, ev, planID)
	ev.inv, ev.recorded, err = s.Store.RecordProviderInvoice(ctx, tx, row, bi.Ref)
	if err != nil {
		return err
	}
	if !ev.recorded {
		s.Logger.WarnContext(ctx, "subscription: provider invoice's period already recorded", "subscription", sub.ID, "invoice", bi.Ref)
		ev.inv = row
	}
	if ev.old, err = s.stale(ctx, tx, sub.ID, at); err != nil {
		return err
	}
	err = s.update(ctx, tx, sub.ID, func(sub *store.Subscription) ([]mailKind, error) {
		return s.followInvoice(ctx, sub, ev), nil
	})
	if err != nil || ev.old {
		return err
	}
	return s.Store.MarkSubscriptionSynced(ctx, tx, sub.ID, at)
}

// invoiceEvent is a provider's invoice as applyInvoice applies it: what it
// paid for, whether it was paid, our record of it (recorded false when its
// period was recorded before), and whether an answer newer than at was
// already applied (old).
type invoiceEvent struct {
	bi       payment.BillingInvoice
	kind     string
	paid     bool
	at       time.Time
	inv      store.Invoice
	recorded bool
	old      bool
}

// invoicePlan is the plan a provider's invoice bills, which for an upgrade
// whose answer is not applied yet is not the subscription's plan.
func (s *Service) invoicePlan(ctx context.Context, tx *sqlx.Tx, sub store.Subscription, bi payment.BillingInvoice) (string, error) {
	if bi.PriceRef == "" {
		return sub.PlanID, nil
	}
	p, err := s.Store.StripePriceByID(ctx, tx, bi.PriceRef)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	if err == nil && p.Kind == "recurring" {
		return p.PlanID, nil
	}
	return sub.PlanID, nil
}

// providerInvoice is our row of a provider's invoice.
func providerInvoice(subID string, ev invoiceEvent, planID string) store.Invoice {
	bi, at := ev.bi, ev.at
	row := store.Invoice{ID: ids.New(), SubscriptionID: subID, Kind: ev.kind, PlanID: planID, PeriodStart: bi.PeriodStart,
		PeriodEnd: bi.PeriodEnd, Amount: bi.Amount, Currency: bi.Currency, Status: store.InvoiceFailed, Attempts: bi.Attempts,
		NextAttemptAt: bi.NextAttempt, ProviderRef: sql.NullString{String: bi.Ref, Valid: true},
		FailureCode: sql.NullString{String: bi.FailureCode, Valid: bi.FailureCode != ""}, CreatedAt: at, UpdatedAt: at}
	if row.NextAttemptAt.IsZero() {
		row.NextAttemptAt = at
	}
	if ev.paid {
		row.Status, row.PaidAt = store.InvoicePaid, sql.NullTime{Time: at, Valid: true}
	}
	return row
}

// followInvoice is what a provider's invoice does to its subscription,
// and the mails it sends.
func (s *Service) followInvoice(ctx context.Context, sub *store.Subscription, ev invoiceEvent) []mailKind {
	if !sub.ProviderRef.Valid && ev.bi.SubscriptionRef != "" {
		// A start whose answer was lost learns its Stripe subscription
		// from the first invoice, so cancel and upgrade can reach it.
		sub.ProviderRef = sql.NullString{String: ev.bi.SubscriptionRef, Valid: true}
	}
	if ev.paid {
		return s.followPaidInvoice(ctx, sub, ev)
	}
	from := sub.Status
	if ev.old || ev.inv.Status == store.InvoicePaid || ev.kind != KindRenewal || (from != Trialing && from != Active && from != PastDue) {
		return nil
	}
	sub.Status = PastDue
	if ev.bi.NextAttempt.IsZero() {
		// The last try: the provider ends (or marks unpaid) the
		// subscription next, and that mail says so.
		return nil
	}
	return []mailKind{{kind: mailPaymentFailed, inv: ev.inv}}
}

// followPaidInvoice moves a subscription whose invoice was paid: a first
// trial payment makes it trialing; any other payment (first, renewal,
// retry, upgrade) active, ending a trial early and moving its period
// forward. The receipt is mailed once, when the invoice is first recorded.
func (s *Service) followPaidInvoice(ctx context.Context, sub *store.Subscription, ev invoiceEvent) []mailKind {
	from := sub.Status
	if !from.Live() {
		s.Logger.ErrorContext(ctx, "subscription: invoice paid for a subscription that ended: refund it",
			"subscription", sub.ID, "invoice", ev.bi.Ref, "status", sub.Status)
		return nil
	}
	if !ev.old {
		to := from
		switch {
		case from == Incomplete && ev.kind == KindTrial:
			to = Trialing
		case from == Incomplete || from == PastDue || (from == Trialing && ev.kind != KindTrial):
			to = Active
		}
		sub.Status = to
		if ev.kind != KindTrial && sub.TrialEnd.Valid && sub.TrialEnd.Time.After(ev.at) {
			sub.TrialEnd.Time = ev.at
		}
		if ev.bi.PeriodEnd.After(sub.CurrentPeriodEnd) {
			sub.CurrentPeriodStart, sub.CurrentPeriodEnd = ev.bi.PeriodStart, ev.bi.PeriodEnd
		}
	}
	if !ev.recorded {
		return nil
	}
	return []mailKind{{kind: mailReceipt, inv: ev.inv}}
}
