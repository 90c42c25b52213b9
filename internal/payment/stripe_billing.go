package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v85"
)

// Stripe runs subscriptions with Stripe Billing, as well as one-off
// payments.
var _ Billing = (*Stripe)(nil)

// stripeProductID is the Stripe Product of one of our plans: its id is
// ours, so creating it again finds the first.
func stripeProductID(planID string) string { return "selfmap_plan_" + planID }

// EnsureCustomer creates a Stripe Customer for one of our customers. The
// caller keeps the id (stripe_customers); the idempotency key, derived
// from our customer id, makes two concurrent first subscriptions of one
// customer make one Stripe Customer.
func (s *Stripe) EnsureCustomer(ctx context.Context, c BillingCustomer) (string, error) {
	if c.IdempotencyKey == "" || c.CustomerID == "" {
		return "", errors.New("payment: stripe: a customer needs our id and an idempotency key")
	}
	params := &stripe.CustomerCreateParams{Metadata: map[string]string{"customer_id": c.CustomerID}}
	if c.Email != "" {
		params.Email = stripe.String(c.Email)
	}
	params.SetIdempotencyKey(c.IdempotencyKey)
	cus, err := s.client.V1Customers.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("payment: stripe: create customer: %w", err)
	}
	return cus.ID, nil
}

// AttachMethod attaches a PaymentMethod made by Stripe.js to a customer and
// makes it the default for the customer's invoices, so Stripe charges it
// for every period. Attaching a method already attached to this customer
// answers it again.
func (s *Stripe) AttachMethod(ctx context.Context, customerRef, methodRef string) (SavedCard, error) {
	if customerRef == "" || !strings.HasPrefix(methodRef, "pm_") {
		return SavedCard{}, fmt.Errorf("payment: stripe: attach needs a customer and a pm_ payment method, not %q", methodRef)
	}
	attach := &stripe.PaymentMethodAttachParams{Customer: stripe.String(customerRef)}
	attach.SetIdempotencyKey("attach_" + methodRef + "_" + customerRef)
	pm, err := s.client.V1PaymentMethods.Attach(ctx, methodRef, attach)
	if err != nil {
		return SavedCard{}, fmt.Errorf("payment: stripe: attach payment method: %w", err)
	}
	update := &stripe.CustomerUpdateParams{InvoiceSettings: &stripe.CustomerUpdateInvoiceSettingsParams{
		DefaultPaymentMethod: stripe.String(pm.ID)}}
	update.SetIdempotencyKey("default_" + methodRef + "_" + customerRef)
	if _, err := s.client.V1Customers.Update(ctx, customerRef, update); err != nil {
		return SavedCard{}, fmt.Errorf("payment: stripe: set default payment method: %w", err)
	}
	card := SavedCard{Ref: pm.ID}
	if pm.Card != nil {
		card.Brand, card.Last4 = string(pm.Card.Brand), pm.Card.Last4
	}
	return card, nil
}

// EnsurePrice finds our price at Stripe by its lookup key, or creates it
// (and the plan's Product) when there is none. Prices are made lazily, on
// the first subscription that needs one; the caller keeps the id
// (stripe_prices) so later subscriptions ask Stripe nothing.
func (s *Stripe) EnsurePrice(ctx context.Context, p PriceSpec) (string, error) {
	key := p.LookupKey()
	list := &stripe.PriceListParams{LookupKeys: stripe.StringSlice([]string{key}), Active: stripe.Bool(true)}
	for price, err := range s.client.V1Prices.List(ctx, list).All(ctx) {
		if err != nil {
			return "", fmt.Errorf("payment: stripe: list prices %s: %w", key, err)
		}
		return price.ID, nil
	}
	product := &stripe.ProductCreateParams{ID: stripe.String(stripeProductID(p.PlanID)), Name: stripe.String("Selfmap " + p.PlanTitle),
		Metadata: map[string]string{"plan_id": p.PlanID}}
	product.SetIdempotencyKey("product_" + p.PlanID)
	if _, err := s.client.V1Products.Create(ctx, product); err != nil {
		var se *stripe.Error
		if !errors.As(err, &se) || se.Code != stripe.ErrorCodeResourceAlreadyExists {
			return "", fmt.Errorf("payment: stripe: create product %s: %w", p.PlanID, err)
		}
	}
	params := &stripe.PriceCreateParams{
		Currency:   stripe.String(strings.ToLower(p.Currency)),
		UnitAmount: stripe.Int64(toStripeAmount(p.Amount, p.Currency)),
		Product:    stripe.String(stripeProductID(p.PlanID)),
		LookupKey:  stripe.String(key),
		Metadata:   map[string]string{"plan_id": p.PlanID, "country": p.Country},
	}
	if p.Interval != "" {
		params.Recurring = &stripe.PriceCreateRecurringParams{Interval: stripe.String(strings.ToLower(p.Interval)),
			IntervalCount: stripe.Int64(int64(p.Count))}
	}
	params.SetIdempotencyKey("price_" + key)
	price, err := s.client.V1Prices.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("payment: stripe: create price %s: %w", key, err)
	}
	return price.ID, nil
}

// CreateSubscription starts a Stripe subscription and pays its first
// invoice at once with the customer's default method. A paid trial is a
// Stripe trial (free) plus the trial price as a one-off invoice item on the
// first invoice. With allow_incomplete a declined first payment answers a
// subscription whose latest invoice is not paid (rather than an error), so
// the caller can tell a decline from a failed call.
func (s *Stripe) CreateSubscription(ctx context.Context, r SubscriptionRequest) (BillingSubscription, error) {
	if r.IdempotencyKey == "" || r.CustomerRef == "" || r.PriceRef == "" {
		return BillingSubscription{}, errors.New("payment: stripe: a subscription needs a customer, a price and an idempotency key")
	}
	params := &stripe.SubscriptionCreateParams{
		Customer:          stripe.String(r.CustomerRef),
		Items:             []*stripe.SubscriptionCreateItemParams{{Price: stripe.String(r.PriceRef)}},
		PaymentBehavior:   stripe.String("allow_incomplete"),
		ProrationBehavior: stripe.String("none"),
		Metadata:          map[string]string{"subscription_id": r.SubscriptionID},
	}
	if r.MethodRef != "" {
		params.DefaultPaymentMethod = stripe.String(r.MethodRef)
	}
	if r.TrialDays > 0 {
		params.TrialPeriodDays = stripe.Int64(int64(r.TrialDays))
		if r.TrialPriceRef != "" {
			params.AddInvoiceItems = []*stripe.SubscriptionCreateAddInvoiceItemParams{{Price: stripe.String(r.TrialPriceRef)}}
		}
	}
	params.AddExpand("latest_invoice.payments")
	params.SetIdempotencyKey(r.IdempotencyKey)
	sub, err := s.client.V1Subscriptions.Create(ctx, params)
	if err != nil {
		return BillingSubscription{}, fmt.Errorf("payment: stripe: create subscription: %w", err)
	}
	return s.withFirstPayment(ctx, sub)
}

// Subscription reads a Stripe subscription with its latest invoice's
// payments, and what an unpaid first payment waits for.
func (s *Stripe) Subscription(ctx context.Context, ref string) (BillingSubscription, error) {
	if ref == "" {
		return BillingSubscription{}, errors.New("payment: stripe: read needs a subscription")
	}
	params := &stripe.SubscriptionRetrieveParams{}
	params.AddExpand("latest_invoice.payments")
	sub, err := s.client.V1Subscriptions.Retrieve(ctx, ref, params)
	if err != nil {
		return BillingSubscription{}, fmt.Errorf("payment: stripe: retrieve subscription %s: %w", ref, err)
	}
	return s.withFirstPayment(ctx, sub)
}

// withFirstPayment reads a subscription and, when it is incomplete (its
// first invoice not paid), asks Stripe for that invoice's PaymentIntent: a
// payment that waits for the customer's authentication gives its client
// secret (ActionSecret); a declined one its decline code.
func (s *Stripe) withFirstPayment(ctx context.Context, sub *stripe.Subscription) (BillingSubscription, error) {
	out := billingSubscription(sub)
	if sub.Status != stripe.SubscriptionStatusIncomplete || out.LatestInvoice == nil || out.LatestInvoice.Paid() ||
		sub.LatestInvoice.Payments == nil {
		return out, nil
	}
	intent := ""
	for _, p := range sub.LatestInvoice.Payments.Data {
		if p.Payment != nil && p.Payment.PaymentIntent != nil && p.Payment.PaymentIntent.ID != "" {
			intent = p.Payment.PaymentIntent.ID
		}
	}
	if intent == "" {
		return out, nil
	}
	pi, err := s.client.V1PaymentIntents.Retrieve(ctx, intent, nil)
	if err != nil {
		return BillingSubscription{}, fmt.Errorf("payment: stripe: retrieve payment intent %s: %w", intent, err)
	}
	switch pi.Status {
	case stripe.PaymentIntentStatusRequiresAction, stripe.PaymentIntentStatusRequiresConfirmation:
		out.LatestInvoice.ActionSecret = pi.ClientSecret
	default:
		if e := pi.LastPaymentError; e != nil && out.LatestInvoice.FailureCode == "" {
			out.LatestInvoice.FailureCode = string(e.DeclineCode)
			if out.LatestInvoice.FailureCode == "" {
				out.LatestInvoice.FailureCode = string(e.Code)
			}
		}
	}
	return out, nil
}

// UpdateSubscription moves the subscription's one item to another price
// now: trial_end=now ends a trial, billing_cycle_anchor=now starts a new
// period billed at once, proration none charges the full new price, and
// pending_if_incomplete keeps the old price if that payment is declined
// (the answer is then Pending).
func (s *Stripe) UpdateSubscription(ctx context.Context, ref string, u SubscriptionUpdate) (BillingSubscription, error) {
	if ref == "" || u.PriceRef == "" || u.IdempotencyKey == "" {
		return BillingSubscription{}, errors.New("payment: stripe: an update needs a subscription, a price and an idempotency key")
	}
	cur, err := s.client.V1Subscriptions.Retrieve(ctx, ref, nil)
	if err != nil {
		return BillingSubscription{}, fmt.Errorf("payment: stripe: retrieve subscription %s: %w", ref, err)
	}
	if cur.Items == nil || len(cur.Items.Data) == 0 {
		return BillingSubscription{}, fmt.Errorf("payment: stripe: subscription %s has no item", ref)
	}
	item := &stripe.SubscriptionUpdateItemParams{ID: stripe.String(cur.Items.Data[0].ID), Price: stripe.String(u.PriceRef)}
	params := &stripe.SubscriptionUpdateParams{
		Items:                 []*stripe.SubscriptionUpdateItemParams{item},
		TrialEndNow:           stripe.Bool(true),
		BillingCycleAnchorNow: stripe.Bool(true),
		ProrationBehavior:     stripe.String("none"),
		PaymentBehavior:       stripe.String("pending_if_incomplete"),
	}
	params.AddExpand("latest_invoice")
	params.SetIdempotencyKey(u.IdempotencyKey)
	sub, err := s.client.V1Subscriptions.Update(ctx, ref, params)
	if err != nil {
		return BillingSubscription{}, fmt.Errorf("payment: stripe: update subscription %s: %w", ref, err)
	}
	if cur.CancelAtPeriodEnd && sub.PendingUpdate == nil {
		// A paid upgrade keeps the subscription: a cancel that was waiting
		// for the period's end is withdrawn (pending_if_incomplete does not
		// take cancel_at_period_end in the same call).
		resume := &stripe.SubscriptionUpdateParams{CancelAtPeriodEnd: stripe.Bool(false)}
		resume.AddExpand("latest_invoice")
		resume.SetIdempotencyKey(u.IdempotencyKey + "_resume")
		if sub, err = s.client.V1Subscriptions.Update(ctx, ref, resume); err != nil {
			return BillingSubscription{}, fmt.Errorf("payment: stripe: resume upgraded subscription %s: %w", ref, err)
		}
	}
	return billingSubscription(sub), nil
}

// CancelAtPeriodEnd sets cancel_at_period_end: Stripe ends the
// subscription (customer.subscription.deleted) when the period is over and
// charges nothing more.
func (s *Stripe) CancelAtPeriodEnd(ctx context.Context, ref, idempotencyKey string) (BillingSubscription, error) {
	if ref == "" || idempotencyKey == "" {
		return BillingSubscription{}, errors.New("payment: stripe: cancel needs a subscription and an idempotency key")
	}
	params := &stripe.SubscriptionUpdateParams{CancelAtPeriodEnd: stripe.Bool(true)}
	params.SetIdempotencyKey(idempotencyKey)
	sub, err := s.client.V1Subscriptions.Update(ctx, ref, params)
	if err != nil {
		return BillingSubscription{}, fmt.Errorf("payment: stripe: cancel subscription %s at period end: %w", ref, err)
	}
	return billingSubscription(sub), nil
}

// CancelNow cancels a subscription at once, without a final invoice or
// proration. Cancelling one Stripe already ended answers Stripe's refusal.
func (s *Stripe) CancelNow(ctx context.Context, ref, idempotencyKey string) (BillingSubscription, error) {
	if ref == "" {
		return BillingSubscription{}, errors.New("payment: stripe: cancel needs a subscription")
	}
	params := &stripe.SubscriptionCancelParams{InvoiceNow: stripe.Bool(false), Prorate: stripe.Bool(false)}
	if idempotencyKey != "" {
		params.SetIdempotencyKey(idempotencyKey)
	}
	sub, err := s.client.V1Subscriptions.Cancel(ctx, ref, params)
	if err != nil {
		return BillingSubscription{}, fmt.Errorf("payment: stripe: cancel subscription %s: %w", ref, err)
	}
	return billingSubscription(sub), nil
}

// unixTime is a Stripe timestamp (0: not set) as a time.
func unixTime(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.Unix(v, 0).UTC()
}

// billingSubscription reads what we use of a Stripe Subscription. Since
// API version 2025-03-31 the current period is on the subscription's items.
func billingSubscription(sub *stripe.Subscription) BillingSubscription {
	out := BillingSubscription{
		Ref:               sub.ID,
		SubscriptionID:    sub.Metadata["subscription_id"],
		Status:            string(sub.Status),
		CancelAtPeriodEnd: sub.CancelAtPeriodEnd,
		TrialEnd:          unixTime(sub.TrialEnd),
		CanceledAt:        unixTime(sub.CanceledAt),
		EndedAt:           unixTime(sub.EndedAt),
		Pending:           sub.PendingUpdate != nil,
	}
	if sub.Customer != nil {
		out.CustomerRef = sub.Customer.ID
	}
	if sub.Items != nil && len(sub.Items.Data) > 0 {
		it := sub.Items.Data[0]
		out.PeriodStart, out.PeriodEnd = unixTime(it.CurrentPeriodStart), unixTime(it.CurrentPeriodEnd)
		if it.Price != nil {
			out.PriceRef = it.Price.ID
			out.Currency = strings.ToUpper(string(it.Price.Currency))
			out.Amount = fromStripeAmount(it.Price.UnitAmount, out.Currency)
		}
	}
	if sub.LatestInvoice != nil && sub.LatestInvoice.Status != "" {
		inv := billingInvoice(sub.LatestInvoice)
		if inv.SubscriptionRef == "" {
			inv.SubscriptionRef, inv.SubscriptionID = sub.ID, out.SubscriptionID
		}
		out.LatestInvoice = &inv
	}
	return out
}

// billingInvoice reads what we use of a Stripe Invoice. The period is the
// one its subscription line bills (the latest-ending line); the invoice's
// own period_start/end is the period whose items it collected, which for a
// renewal is the one before.
func billingInvoice(in *stripe.Invoice) BillingInvoice {
	out := BillingInvoice{
		Ref:           in.ID,
		Status:        string(in.Status),
		BillingReason: string(in.BillingReason),
		Currency:      strings.ToUpper(string(in.Currency)),
		Attempts:      int(in.AttemptCount),
		NextAttempt:   unixTime(in.NextPaymentAttempt),
	}
	if in.Customer != nil {
		out.CustomerRef = in.Customer.ID
	}
	out.Amount = fromStripeAmount(in.AmountDue, out.Currency)
	if in.Status == stripe.InvoiceStatusPaid {
		out.Amount = fromStripeAmount(in.AmountPaid, out.Currency)
	}
	if in.Parent != nil && in.Parent.SubscriptionDetails != nil {
		d := in.Parent.SubscriptionDetails
		if d.Subscription != nil {
			out.SubscriptionRef = d.Subscription.ID
		}
		out.SubscriptionID = d.Metadata["subscription_id"]
	}
	if in.Lines != nil {
		for _, l := range in.Lines.Data {
			if l.Period == nil || l.Period.End <= out.PeriodEnd.Unix() && !out.PeriodEnd.IsZero() {
				continue
			}
			out.PeriodStart, out.PeriodEnd = unixTime(l.Period.Start), unixTime(l.Period.End)
			out.PriceRef = ""
			if l.Pricing != nil && l.Pricing.PriceDetails != nil && l.Pricing.PriceDetails.Price != nil {
				out.PriceRef = l.Pricing.PriceDetails.Price.ID
			}
		}
	}
	if out.PeriodEnd.IsZero() {
		out.PeriodStart, out.PeriodEnd = unixTime(in.PeriodStart), unixTime(in.PeriodEnd)
	}
	if e := in.LastFinalizationError; e != nil {
		out.FailureCode = string(e.Code)
	}
	return out
}

// parseBillingEvent decodes the object of an invoice or subscription event.
// Events about objects Selfmap did not create (no subscription_id in the
// metadata) are ignored, as foreign payment intents are.
func parseBillingEvent(ev stripe.Event, kind EventKind) (Event, error) {
	out := Event{ID: ev.ID, Kind: kind, Created: unixTime(ev.Created)}
	switch kind {
	case EventInvoicePaid, EventInvoiceFailed:
		var in stripe.Invoice
		if err := json.Unmarshal(ev.Data.Raw, &in); err != nil {
			return Event{}, fmt.Errorf("payment: stripe: decode invoice of event %s: %w", ev.ID, err)
		}
		inv := billingInvoice(&in)
		if inv.Ref == "" || inv.SubscriptionRef == "" || inv.SubscriptionID == "" {
			return Event{}, fmt.Errorf("%w: invoice %s is not one of our subscriptions'", ErrIgnoredEvent, in.ID)
		}
		out.Ref, out.Amount, out.Currency, out.FailureCode, out.Invoice = inv.Ref, inv.Amount, inv.Currency, inv.FailureCode, &inv
	default:
		var sub stripe.Subscription
		if err := json.Unmarshal(ev.Data.Raw, &sub); err != nil {
			return Event{}, fmt.Errorf("payment: stripe: decode subscription of event %s: %w", ev.ID, err)
		}
		bs := billingSubscription(&sub)
		if bs.Ref == "" || bs.SubscriptionID == "" {
			return Event{}, fmt.Errorf("%w: subscription %s is not one of ours", ErrIgnoredEvent, sub.ID)
		}
		out.Ref, out.Subscription = bs.Ref, &bs
	}
	return out, nil
}

// Refused reports whether err is Stripe refusing a request for what it
// asked (a declined card, a payment method it cannot use: 400, 402, 404),
// as opposed to a failure to get an answer (network, 5xx, 409 while an
// idempotent request is in flight, 429), after which the same call with the
// same key may still succeed.
func Refused(err error) bool {
	var se *stripe.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.HTTPStatusCode {
	case 400, 402, 404:
		return true
	}
	return false
}
