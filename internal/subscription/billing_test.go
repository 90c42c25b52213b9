package subscription_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

// Stripe mode: the service talks to a payment.Billing. fakeStripe answers
// the Billing calls the way Stripe does (stripe-mock, being stateless,
// cannot: its request shapes are checked in internal/payment), and keeps
// the real Stripe provider's Name and ParseEvent, so the events below are
// signed payloads verified and decoded exactly as in production.

const whsec = "whsec_billing_test"

type fakeStripe struct {
	*payment.Stripe
	now func() time.Time

	mu             sync.Mutex
	calls          []string // method and idempotency key of each call
	prices         map[string]payment.PriceSpec
	subs           map[string]payment.BillingSubscription // by idempotency key: a repeated key answers the first
	declineStart   bool
	declineUpgrade bool
	// actionStart: a first payment waits for 3-D Secure; authenticated
	// then makes Subscription answer it paid.
	actionStart   bool
	authenticated bool
	processing    bool // the authenticated payment is not settled yet
	n             int
}

func newFakeStripe(now func() time.Time) *fakeStripe {
	return &fakeStripe{Stripe: payment.NewStripe("sk_test_123", whsec), now: now, prices: map[string]payment.PriceSpec{},
		subs: map[string]payment.BillingSubscription{}}
}

func (f *fakeStripe) record(call string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
}

func (f *fakeStripe) called(prefix string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	return out
}

func (f *fakeStripe) EnsureCustomer(_ context.Context, c payment.BillingCustomer) (string, error) {
	f.record("customer " + c.IdempotencyKey)
	return "cus_" + strings.TrimPrefix(c.IdempotencyKey, "cus_")[:8], nil
}

func (f *fakeStripe) AttachMethod(_ context.Context, customer, method string) (payment.SavedCard, error) {
	f.record("attach " + method + " " + customer)
	return payment.SavedCard{Ref: method, Brand: "visa", Last4: "4242"}, nil
}

func (f *fakeStripe) EnsurePrice(_ context.Context, p payment.PriceSpec) (string, error) {
	f.record("price " + p.LookupKey())
	f.mu.Lock()
	defer f.mu.Unlock()
	ref := "price_" + p.LookupKey()
	f.prices[ref] = p
	return ref, nil
}

func (f *fakeStripe) CreateSubscription(_ context.Context, r payment.SubscriptionRequest) (payment.BillingSubscription, error) {
	f.record("create " + r.IdempotencyKey)
	f.mu.Lock()
	defer f.mu.Unlock()
	if bs, ok := f.subs[r.IdempotencyKey]; ok {
		return bs, nil
	}
	f.n++
	now := f.now().UTC().Truncate(time.Second)
	p := f.prices[r.PriceRef]
	bs := payment.BillingSubscription{Ref: fmt.Sprintf("sub_stripe_%d", f.n), SubscriptionID: r.SubscriptionID, Status: "active",
		PeriodStart: now, PeriodEnd: now.AddDate(0, 0, 7*p.Count), PriceRef: r.PriceRef, Amount: p.Amount, Currency: p.Currency,
		LatestInvoice: &payment.BillingInvoice{Ref: fmt.Sprintf("in_first_%d", f.n), Status: "paid"}}
	if r.TrialDays > 0 {
		bs.Status, bs.PeriodEnd = "trialing", now.AddDate(0, 0, r.TrialDays)
		bs.TrialEnd = bs.PeriodEnd
	}
	if f.declineStart || f.actionStart {
		bs.Status, bs.LatestInvoice.Status = "incomplete", "open"
	}
	if f.actionStart {
		bs.LatestInvoice.ActionSecret = fmt.Sprintf("pi_%d_secret_x", f.n)
	}
	f.subs[r.IdempotencyKey] = bs
	return bs, nil
}

func (f *fakeStripe) Subscription(_ context.Context, ref string) (payment.BillingSubscription, error) {
	f.record("read " + ref)
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, bs := range f.subs {
		if bs.Ref != ref {
			continue
		}
		if f.processing && bs.AwaitsAction() {
			inv := *bs.LatestInvoice
			inv.ActionSecret = ""
			bs.LatestInvoice = &inv
		}
		if f.authenticated && bs.AwaitsAction() {
			inv := *bs.LatestInvoice
			inv.Status, inv.ActionSecret = "paid", ""
			bs.Status, bs.LatestInvoice = "trialing", &inv
		}
		return bs, nil
	}
	return payment.BillingSubscription{}, fmt.Errorf("no subscription %s", ref)
}

func (f *fakeStripe) UpdateSubscription(_ context.Context, ref string, u payment.SubscriptionUpdate) (payment.BillingSubscription, error) {
	f.record("update " + ref + " " + u.PriceRef + " " + u.IdempotencyKey)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.declineUpgrade {
		return payment.BillingSubscription{Ref: ref, Status: "trialing", Pending: true}, nil
	}
	now := f.now().UTC().Truncate(time.Second)
	p := f.prices[u.PriceRef]
	return payment.BillingSubscription{Ref: ref, Status: "active", PeriodStart: now, PeriodEnd: now.AddDate(0, p.Count, 0),
		TrialEnd: now, PriceRef: u.PriceRef, Amount: p.Amount, Currency: p.Currency,
		LatestInvoice: &payment.BillingInvoice{Ref: "in_upgrade", Status: "paid"}}, nil
}

func (f *fakeStripe) CancelAtPeriodEnd(_ context.Context, ref, key string) (payment.BillingSubscription, error) {
	f.record("cancel_at_period_end " + ref + " " + key)
	return payment.BillingSubscription{Ref: ref, CancelAtPeriodEnd: true}, nil
}

func (f *fakeStripe) CancelNow(_ context.Context, ref, _ string) (payment.BillingSubscription, error) {
	f.record("cancel_now " + ref)
	return payment.BillingSubscription{Ref: ref, Status: "canceled"}, nil
}

var _ payment.Billing = (*fakeStripe)(nil)

type stripeFixture struct {
	*fixture
	stripe *fakeStripe
}

func setupStripe(t *testing.T, st *store.Store) *stripeFixture {
	c := &clock{now: t0}
	fs := newFakeStripe(c.Now)
	return &stripeFixture{fixture: &fixture{st: st, clock: c, svc: &subscription.Service{Store: st, Provider: fs,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: c.Now}}, stripe: fs}
}

func (f *stripeFixture) start(t *testing.T, customer string) store.Subscription {
	t.Helper()
	in := f.input(customer, payment.SavedCard{Ref: "pm_card_" + customer})
	sub, err := f.svc.StartTrial(context.Background(), in)
	if err != nil {
		t.Fatalf("StartTrial: %v", err)
	}
	return sub
}

// deliver signs payload now, as Stripe would, and hands it to the service
// as the webhook does.
func (f *stripeFixture) deliver(t *testing.T, payload []byte) {
	t.Helper()
	h := http.Header{}
	h.Set("Stripe-Signature", payment.Sign(whsec, payload, f.clock.Now()))
	handled, err := f.svc.Receive(context.Background(), payload, h)
	if err != nil || !handled {
		t.Fatalf("Receive = %v, %v", handled, err)
	}
}

type stripeInvoice struct {
	id, reason, status string
	price              string // of the subscription line; "" for none
	amount             int64  // cents
	start, end         time.Time
	attempts           int
	next               time.Time
	customer           string // the Stripe customer billed; "" for none
}

func invoiceEvent(t *testing.T, evID, typ string, created time.Time, sub store.Subscription, in stripeInvoice) []byte {
	t.Helper()
	next := any(nil)
	if !in.next.IsZero() {
		next = in.next.Unix()
	}
	obj := map[string]any{"id": in.id, "object": "invoice", "status": in.status, "billing_reason": in.reason, "currency": "usd",
		"amount_paid": map[bool]int64{true: in.amount}[in.status == "paid"], "amount_due": in.amount, "attempt_count": in.attempts,
		"next_payment_attempt": next, "period_start": in.start.Add(-time.Hour).Unix(), "period_end": in.start.Unix(),
		"parent": map[string]any{"type": "subscription_details", "subscription_details": map[string]any{
			"subscription": sub.ProviderRef.String, "metadata": map[string]any{"subscription_id": sub.ID}}},
		"lines": map[string]any{"object": "list", "data": []any{map[string]any{"id": "il_" + in.id, "object": "line_item",
			"amount": in.amount, "currency": "usd", "period": map[string]any{"start": in.start.Unix(), "end": in.end.Unix()}}}},
	}
	if in.customer != "" {
		obj["customer"] = in.customer
	}
	if in.price != "" {
		line := obj["lines"].(map[string]any)["data"].([]any)[0].(map[string]any)
		line["pricing"] = map[string]any{"type": "price_details", "price_details": map[string]any{"price": in.price, "product": "prod_x"}}
	}
	return eventJSON(t, evID, typ, created, obj)
}

type stripeSub struct {
	status            string
	cancelAtPeriodEnd bool
	start, end        time.Time
	price             string
	amount            int64
}

func subscriptionEvent(t *testing.T, evID, typ string, created time.Time, sub store.Subscription, s stripeSub) []byte {
	t.Helper()
	obj := map[string]any{"id": sub.ProviderRef.String, "object": "subscription", "status": s.status,
		"cancel_at_period_end": s.cancelAtPeriodEnd, "metadata": map[string]any{"subscription_id": sub.ID},
		"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_1", "object": "subscription_item",
			"current_period_start": s.start.Unix(), "current_period_end": s.end.Unix(),
			"price": map[string]any{"id": s.price, "object": "price", "currency": "usd", "unit_amount": s.amount}}}}}
	return eventJSON(t, evID, typ, created, obj)
}

func eventJSON(t *testing.T, id, typ string, created time.Time, obj map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"id": id, "object": "event", "created": created.Unix(), "type": typ,
		"data": map[string]any{"object": obj}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const stripeBasicPrice = "price_selfmap_basic-weekly_any_usd_1999_week4"

func TestStripeTrialPaidPastDueDeleted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		ctx := context.Background()
		sub := f.start(t, "ana")

		// The start at Stripe: customer, card, prices (made once, lazily),
		// and a subscription with a 7-day trial and the trial price.
		if sub.Status != "trialing" || sub.ProviderRef.String != "sub_stripe_1" || sub.CardLast4.String != "4242" ||
			sub.CardBrand.String != "visa" || !sub.CurrentPeriodEnd.Equal(t0.AddDate(0, 0, 7)) {
			t.Fatalf("after start: %+v", sub)
		}
		if got := f.stripe.called("create "); len(got) != 1 || got[0] != "create sub_create_"+sub.ID {
			t.Fatalf("creates = %v", got)
		}
		if got := f.stripe.called("price "); len(got) != 2 || got[0] != "price selfmap_basic-weekly_any_usd_1999_week4" ||
			got[1] != "price selfmap_basic-weekly_any_usd_149_once" {
			t.Fatalf("prices = %v", got)
		}
		if e := f.tier(t, "ana", t0.Add(time.Hour)); e.Tier != subscription.TierBasic {
			t.Fatalf("entitlement in the trial = %+v", e)
		}

		// invoice.paid of the first invoice: recorded with its receipt, once.
		first := invoiceEvent(t, "evt_1", "invoice.paid", t0.Add(time.Second), sub, stripeInvoice{id: "in_1",
			reason: "subscription_create", status: "paid", amount: 149, start: t0, end: t0.AddDate(0, 0, 7), attempts: 1})
		f.deliver(t, first)
		f.deliver(t, first) // replayed
		invs := f.invoices(t, sub.ID)
		if len(invs) != 1 || invs[0].Kind != subscription.KindTrial || invs[0].Amount != 149 || invs[0].Status != store.InvoicePaid {
			t.Fatalf("invoices after the first = %+v", invs)
		}
		if n := f.mails(t, "subscription_receipt"); n != 1 {
			t.Fatalf("receipts = %d, want 1", n)
		}

		// The trial ends: Stripe renews and says so.
		p2 := t0.AddDate(0, 0, 7)
		f.clock.Set(p2.Add(time.Minute))
		f.deliver(t, invoiceEvent(t, "evt_2", "invoice.paid", p2.Add(time.Second), sub, stripeInvoice{id: "in_2",
			reason: "subscription_cycle", status: "paid", amount: 1999, start: p2, end: p2.AddDate(0, 0, 28), attempts: 1}))
		sub = f.sub(t, sub.ID)
		if sub.Status != "active" || !sub.CurrentPeriodEnd.Equal(p2.AddDate(0, 0, 28)) {
			t.Fatalf("after the renewal: %s until %v", sub.Status, sub.CurrentPeriodEnd)
		}
		if n := f.mails(t, "subscription_receipt"); n != 2 {
			t.Fatalf("receipts = %d, want 2", n)
		}
		// The renewal job does nothing for Stripe's subscriptions.
		if n := f.run(t); n != 0 || len(f.stripe.called("create ")) != 1 {
			t.Fatalf("RenewDue settled %d", n)
		}

		// The next renewal is declined: past due, and a mail that Stripe
		// tries again.
		p3 := p2.AddDate(0, 0, 28)
		f.clock.Set(p3.Add(time.Hour))
		f.deliver(t, invoiceEvent(t, "evt_3", "invoice.payment_failed", p3.Add(time.Minute), sub, stripeInvoice{id: "in_3",
			reason: "subscription_cycle", status: "open", amount: 1999, start: p3, end: p3.AddDate(0, 0, 28), attempts: 1,
			next: p3.AddDate(0, 0, 3)}))
		if got := f.sub(t, sub.ID).Status; got != "past_due" {
			t.Fatalf("after the decline: %s", got)
		}
		if n := f.mails(t, "subscription_payment_failed"); n != 1 {
			t.Fatalf("failure mails = %d", n)
		}
		if e := f.tier(t, "ana", p3.Add(2*time.Hour)); e.Tier != subscription.TierBasic {
			t.Fatalf("a past-due customer lost access before the retries: %+v", e)
		}
		// An update created before the decline, delivered late, changes nothing.
		f.deliver(t, subscriptionEvent(t, "evt_late", "customer.subscription.updated", p2.Add(2*time.Second), sub,
			stripeSub{status: "active", start: p2, end: p3, price: stripeBasicPrice, amount: 1999}))
		if got := f.sub(t, sub.ID).Status; got != "past_due" {
			t.Fatalf("a stale update moved it to %s", got)
		}

		// Stripe's last retry fails and it deletes the subscription.
		end := p3.AddDate(0, 0, 10)
		f.clock.Set(end)
		f.deliver(t, subscriptionEvent(t, "evt_4", "customer.subscription.deleted", end, sub,
			stripeSub{status: "canceled", start: p2, end: p3, price: stripeBasicPrice, amount: 1999}))
		sub = f.sub(t, sub.ID)
		if sub.Status != "canceled" || !sub.EndedAt.Valid {
			t.Fatalf("after deletion: %+v", sub)
		}
		if n := f.mails(t, "subscription_ended_unpaid"); n != 1 {
			t.Fatalf("ended mails = %d", n)
		}
		if e := f.tier(t, "ana", end.Add(time.Minute)); e.Tier != subscription.TierGuest {
			t.Fatalf("after deletion: %+v", e)
		}
		// Anything later changes nothing: canceled is final.
		f.deliver(t, subscriptionEvent(t, "evt_5", "customer.subscription.updated", end.Add(time.Second), sub,
			stripeSub{status: "active", start: p3, end: p3.AddDate(0, 0, 28), price: stripeBasicPrice, amount: 1999}))
		if got := f.sub(t, sub.ID).Status; got != "canceled" {
			t.Fatalf("a canceled subscription moved to %s", got)
		}
		// A new subscription for the customer is possible again, without
		// a second trial (the first was paid through Stripe).
		if _, err := f.svc.StartTrial(ctx, f.input("ana", payment.SavedCard{Ref: "pm_new"})); !errors.Is(err, subscription.ErrTrialUsed) {
			t.Fatalf("a second trial: %v", err)
		}
		if _, err := f.svc.PayNow(ctx, f.input("ana", payment.SavedCard{Ref: "pm_new"})); err != nil {
			t.Fatalf("start after the end: %v", err)
		}
	})
}

func TestStripeRetryPaidOutOfOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		sub := f.start(t, "bo")
		other := f.start(t, "cy")
		p2 := t0.AddDate(0, 0, 7)
		f.clock.Set(p2.AddDate(0, 0, 2))
		failed := invoiceEvent(t, "evt_fail", "invoice.payment_failed", p2.Add(time.Minute), sub, stripeInvoice{id: "in_r",
			reason: "subscription_cycle", status: "open", amount: 1999, start: p2, end: p2.AddDate(0, 0, 28), attempts: 1,
			next: p2.AddDate(0, 0, 1)})
		paid := invoiceEvent(t, "evt_paid", "invoice.paid", p2.AddDate(0, 0, 1), sub, stripeInvoice{id: "in_r",
			reason: "subscription_cycle", status: "paid", amount: 1999, start: p2, end: p2.AddDate(0, 0, 28), attempts: 2})
		// The retry's success arrives before the first attempt's failure.
		f.deliver(t, paid)
		f.deliver(t, failed)
		sub = f.sub(t, sub.ID)
		if sub.Status != "active" || !sub.CurrentPeriodEnd.Equal(p2.AddDate(0, 0, 28)) {
			t.Fatalf("after paid then a stale failure: %s until %v", sub.Status, sub.CurrentPeriodEnd)
		}
		invs := f.invoices(t, sub.ID)
		if len(invs) != 1 || invs[0].Status != store.InvoicePaid || invs[0].Attempts != 2 {
			t.Fatalf("invoices = %+v", invs)
		}
		if f.mails(t, "subscription_payment_failed") != 0 || f.mails(t, "subscription_receipt") != 1 {
			t.Fatalf("mails: failed %d, receipts %d", f.mails(t, "subscription_payment_failed"), f.mails(t, "subscription_receipt"))
		}

		// In order, a failure then the retry's success: past due, then active.
		f.deliver(t, invoiceEvent(t, "evt_f2", "invoice.payment_failed", p2.Add(time.Minute), other, stripeInvoice{id: "in_c",
			reason: "subscription_cycle", status: "open", amount: 1999, start: p2, end: p2.AddDate(0, 0, 28), attempts: 1,
			next: p2.AddDate(0, 0, 1)}))
		if got := f.sub(t, other.ID).Status; got != "past_due" {
			t.Fatalf("after the failure: %s", got)
		}
		f.deliver(t, invoiceEvent(t, "evt_p2", "invoice.paid", p2.AddDate(0, 0, 1), other, stripeInvoice{id: "in_c",
			reason: "subscription_cycle", status: "paid", amount: 1999, start: p2, end: p2.AddDate(0, 0, 28), attempts: 2}))
		if got := f.sub(t, other.ID).Status; got != "active" {
			t.Fatalf("after the paid retry: %s", got)
		}
		if invs := f.invoices(t, other.ID); len(invs) != 1 || invs[0].Status != store.InvoicePaid {
			t.Fatalf("invoices = %+v", invs)
		}
	})
}

func TestStripeUpgrade(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		ctx := context.Background()
		sub := f.start(t, "di")
		f.clock.Add(2 * 24 * time.Hour)
		now := f.clock.Now()
		up, err := f.svc.Upgrade(ctx, "di", sub.ID, "premium-monthly")
		if err != nil {
			t.Fatalf("Upgrade: %v", err)
		}
		if up.Status != "active" || up.PlanID != "premium-monthly" || up.Price != 3999 || !up.TrialEnd.Time.Equal(now) ||
			!up.CurrentPeriodStart.Equal(now) || !up.CurrentPeriodEnd.Equal(now.AddDate(0, 1, 0)) {
			t.Fatalf("after the upgrade: %+v", up)
		}
		want := "update sub_stripe_1 price_selfmap_premium-monthly_any_usd_3999_month1 sub_upgrade_" + sub.ID + "_premium-monthly_"
		if got := f.stripe.called("update "); len(got) != 1 || !strings.HasPrefix(got[0], want) {
			t.Fatalf("updates = %v, want %s...", got, want)
		}
		if e := f.tier(t, "di", now.Add(time.Minute)); e.Tier != subscription.TierPremium {
			t.Fatalf("entitlement after the upgrade: %+v", e)
		}
		// Replayed: the plan is already premium, Stripe is not asked again.
		if _, err := f.svc.Upgrade(ctx, "di", sub.ID, "premium-monthly"); err != nil || len(f.stripe.called("update ")) != 1 {
			t.Fatalf("replayed upgrade: %v, %d updates", err, len(f.stripe.called("update ")))
		}
		// Stripe's invoice for it: the receipt, no move.
		f.deliver(t, invoiceEvent(t, "evt_up", "invoice.paid", now.Add(time.Second), up, stripeInvoice{id: "in_up",
			reason: "subscription_update", status: "paid", amount: 3999, start: now, end: now.AddDate(0, 1, 0), attempts: 1}))
		invs := f.invoices(t, sub.ID)
		if len(invs) != 1 || invs[0].Kind != subscription.KindUpgrade || invs[0].Amount != 3999 {
			t.Fatalf("invoices = %+v", invs)
		}
		if got := f.sub(t, sub.ID); got.Status != "active" || got.PlanID != "premium-monthly" {
			t.Fatalf("after the upgrade's invoice: %+v", got)
		}

		// Declined: Stripe keeps the update pending; the plan stays basic.
		other := f.start(t, "ed")
		f.stripe.declineUpgrade = true
		if _, err := f.svc.Upgrade(ctx, "ed", other.ID, "premium-monthly"); !errors.Is(err, subscription.ErrUpgradeFailed) {
			t.Fatalf("declined upgrade: err = %v", err)
		}
		if got := f.sub(t, other.ID); got.PlanID != "basic-weekly" || got.Status != "trialing" {
			t.Fatalf("after a declined upgrade: %+v", got)
		}
		// Another customer's subscription answers as missing.
		if _, err := f.svc.Upgrade(ctx, "di", other.ID, "premium-monthly"); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("foreign upgrade: err = %v", err)
		}
	})
}

func TestStripeCancel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		ctx := context.Background()
		sub := f.start(t, "fa")
		f.clock.Set(t0.Add(time.Minute))
		if _, err := f.svc.Cancel(ctx, "someone", sub.ID); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("foreign cancel: %v", err)
		}
		got, err := f.svc.Cancel(ctx, "fa", sub.ID)
		if err != nil || !got.CancelAtPeriodEnd || got.Status != "trialing" {
			t.Fatalf("Cancel = %+v, %v", got, err)
		}
		if c := f.stripe.called("cancel_at_period_end "); len(c) != 1 || c[0] != "cancel_at_period_end sub_stripe_1 sub_cancel_"+sub.ID+"_v"+strconv.Itoa(sub.Version) {
			t.Fatalf("cancel calls = %v", c)
		}
		// An update Stripe sent before the cancel, delivered after it, does
		// not take the cancel back.
		f.deliver(t, subscriptionEvent(t, "evt_late", "customer.subscription.updated", t0.Add(30*time.Second), got,
			stripeSub{status: "trialing", start: t0, end: t0.AddDate(0, 0, 7), price: stripeBasicPrice, amount: 1999}))
		if s := f.sub(t, sub.ID); !s.CancelAtPeriodEnd || !s.CanceledAt.Valid {
			t.Fatalf("a late event undid the cancel: %+v", s)
		}
		// Stripe's echo of it, and a second click, change nothing more.
		f.deliver(t, subscriptionEvent(t, "evt_c", "customer.subscription.updated", t0.Add(time.Minute), got,
			stripeSub{status: "trialing", cancelAtPeriodEnd: true, start: t0, end: t0.AddDate(0, 0, 7), price: stripeBasicPrice, amount: 1999}))
		if _, err := f.svc.Cancel(ctx, "fa", sub.ID); err != nil {
			t.Fatal(err)
		}
		if n := len(f.stripe.called("cancel_at_period_end ")); n != 1 || f.mails(t, "subscription_canceled") != 1 {
			t.Fatalf("after the echo and a second click: %d calls, %d mails", n, f.mails(t, "subscription_canceled"))
		}
		if e := f.tier(t, "fa", t0.AddDate(0, 0, 7).Add(-time.Minute)); e.Tier != subscription.TierBasic || !e.CancelAtPeriodEnd {
			t.Fatalf("access until the period's end: %+v", e)
		}
		// The period ends: Stripe deletes it, and it expires.
		end := t0.AddDate(0, 0, 7)
		f.clock.Set(end.Add(time.Second))
		f.deliver(t, subscriptionEvent(t, "evt_d", "customer.subscription.deleted", end, got,
			stripeSub{status: "canceled", cancelAtPeriodEnd: true, start: t0, end: end, price: stripeBasicPrice, amount: 1999}))
		if s := f.sub(t, sub.ID); s.Status != "expired" || !s.EndedAt.Time.Equal(end) {
			t.Fatalf("after the period: %+v", s)
		}
		if f.mails(t, "subscription_ended_unpaid") != 0 {
			t.Fatal("an expired subscription was mailed as unpaid")
		}

		// A cancel made in Stripe's dashboard reaches us by its event.
		other := f.start(t, "gu")
		f.deliver(t, subscriptionEvent(t, "evt_dash", "customer.subscription.updated", end.Add(2*time.Second), other,
			stripeSub{status: "trialing", cancelAtPeriodEnd: true, start: end, end: end.AddDate(0, 0, 7), price: stripeBasicPrice, amount: 1999}))
		if s := f.sub(t, other.ID); !s.CancelAtPeriodEnd || f.mails(t, "subscription_canceled") != 2 {
			t.Fatalf("dashboard cancel: %+v, %d mails", s, f.mails(t, "subscription_canceled"))
		}

		// Resumed in the dashboard, then a renewal declined: past due.
		f.deliver(t, subscriptionEvent(t, "evt_resume", "customer.subscription.updated", end.Add(3*time.Second), other,
			stripeSub{status: "trialing", start: end, end: end.AddDate(0, 0, 7), price: stripeBasicPrice, amount: 1999}))
		if s := f.sub(t, other.ID); s.CancelAtPeriodEnd || s.CanceledAt.Valid {
			t.Fatalf("resumed: %+v", s)
		}
		p2 := end.AddDate(0, 0, 7)
		f.clock.Set(p2.Add(time.Hour))
		f.deliver(t, invoiceEvent(t, "evt_pd", "invoice.payment_failed", p2.Add(time.Minute), other,
			stripeInvoice{id: "in_pd", reason: "subscription_cycle", status: "open", amount: 1999, start: p2,
				end: p2.AddDate(0, 0, 28), attempts: 1, next: p2.AddDate(0, 0, 1)}))
		// Past due: cancelled at once, at Stripe and here.
		s, err := f.svc.Cancel(ctx, "gu", other.ID)
		if err != nil || s.Status != "canceled" || !s.EndedAt.Valid {
			t.Fatalf("cancel past due = %+v, %v", s, err)
		}
		if c := f.stripe.called("cancel_now "); len(c) != 1 || c[0] != "cancel_now "+s.ProviderRef.String {
			t.Fatalf("cancel now calls = %v", c)
		}
		// Stripe's deletion event after it changes nothing.
		f.deliver(t, subscriptionEvent(t, "evt_gone", "customer.subscription.deleted", p2.Add(2*time.Hour), other,
			stripeSub{status: "canceled", start: end, end: p2, price: stripeBasicPrice, amount: 1999}))
		if s := f.sub(t, other.ID); s.Status != "canceled" || f.mails(t, "subscription_ended_unpaid") != 0 {
			t.Fatalf("after Stripe's deletion: %+v", s)
		}
	})
}

// A first payment the bank wants authenticated (3-D Secure) keeps the
// start incomplete with Stripe's reference; the browser gets the client
// secret from PendingAction. Authenticated, the invoice.paid event makes
// it trialing; failed, AbandonStart ends it at Stripe and here so another
// card can be tried at once.
func TestStripeStartAwaitingAuthentication(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		ctx := context.Background()
		f.stripe.actionStart = true
		sub, err := f.svc.StartTrial(ctx, f.input("al", payment.SavedCard{Ref: "pm_card_al"}))
		if !errors.Is(err, subscription.ErrActionRequired) || sub.Status != "incomplete" || sub.ProviderRef.String != "sub_stripe_1" {
			t.Fatalf("start = %+v, %v", sub, err)
		}
		if e := f.tier(t, "al", t0); e.Tier != subscription.TierGuest {
			t.Fatalf("access before the payment: %+v", e)
		}
		if _, err := f.svc.PendingAction(ctx, "someone", sub.ID); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("another customer's secret: %v", err)
		}
		secret, err := f.svc.PendingAction(ctx, "al", sub.ID)
		if err != nil || secret != "pi_1_secret_x" {
			t.Fatalf("PendingAction = %q, %v", secret, err)
		}
		// A second submit while it waits starts nothing new.
		if _, err := f.svc.StartTrial(ctx, f.input("al", payment.SavedCard{Ref: "pm_card_al"})); !errors.Is(err, subscription.ErrAlreadySubscribed) {
			t.Fatalf("second start: %v", err)
		}
		// Authenticated: Stripe pays the invoice and says so.
		f.stripe.authenticated = true
		if secret, err := f.svc.PendingAction(ctx, "al", sub.ID); err != nil || secret != "" {
			t.Fatalf("PendingAction after authentication = %q, %v", secret, err)
		}
		f.deliver(t, invoiceEvent(t, "evt_auth_paid", "invoice.paid", t0.Add(time.Minute), sub, stripeInvoice{id: "in_first_1",
			reason: "subscription_create", status: "paid", amount: 149, start: t0, end: t0.AddDate(0, 0, 7), attempts: 1}))
		if got := f.sub(t, sub.ID); got.Status != "trialing" {
			t.Fatalf("after the paid invoice: %+v", got)
		}
		// Abandoning a paid start changes nothing.
		if got, err := f.svc.AbandonStart(ctx, "al", sub.ID); err != nil || got.Status != "trialing" || len(f.stripe.called("cancel_now ")) != 0 {
			t.Fatalf("abandon after payment = %+v, %v", got, err)
		}

		// Failed: the customer's page gives up on it.
		f.stripe.authenticated = false
		other, err := f.svc.StartTrial(ctx, f.input("bea", payment.SavedCard{Ref: "pm_card_bea"}))
		if !errors.Is(err, subscription.ErrActionRequired) {
			t.Fatalf("second customer's start: %v", err)
		}
		if _, err := f.svc.AbandonStart(ctx, "al", other.ID); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("abandoning another customer's start: %v", err)
		}
		// A payment Stripe is still settling is not given up.
		f.stripe.processing = true
		if got, err := f.svc.AbandonStart(ctx, "bea", other.ID); err != nil || got.Status != "incomplete" || len(f.stripe.called("cancel_now ")) != 0 {
			t.Fatalf("abandon while processing = %+v, %v", got, err)
		}
		f.stripe.processing = false
		ended, err := f.svc.AbandonStart(ctx, "bea", other.ID)
		if !errors.Is(err, subscription.ErrDeclined) || ended.Status != "expired" {
			t.Fatalf("abandon = %+v, %v", ended, err)
		}
		if c := f.stripe.called("cancel_now "); len(c) != 1 || c[0] != "cancel_now "+other.ProviderRef.String {
			t.Fatalf("cancel calls = %v", c)
		}
		f.stripe.actionStart = false
		if again, err := f.svc.StartTrial(ctx, f.input("bea", payment.SavedCard{Ref: "pm_card_bea2"})); err != nil || again.Status != "trialing" {
			t.Fatalf("another card after giving up = %+v, %v", again, err)
		}
	})
}

func TestStripeDeclinedStart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		ctx := context.Background()
		f.stripe.declineStart = true
		sub, err := f.svc.StartTrial(ctx, f.input("hu", payment.SavedCard{Ref: "pm_declined"}))
		if !errors.Is(err, subscription.ErrDeclined) || sub.Status != "expired" {
			t.Fatalf("declined start = %+v, %v", sub, err)
		}
		if c := f.stripe.called("cancel_now "); len(c) != 1 || c[0] != "cancel_now "+sub.ProviderRef.String {
			t.Fatalf("the incomplete subscription was not cancelled at Stripe: %v", c)
		}
		if e := f.tier(t, "hu", t0.Add(time.Minute)); e.Tier != subscription.TierGuest {
			t.Fatalf("a declined start gave access: %+v", e)
		}
		// Another card, at once.
		f.stripe.declineStart = false
		again, err := f.svc.PayNow(ctx, f.input("hu", payment.SavedCard{Ref: "pm_good"}))
		if err != nil || again.Status != "active" || !again.CurrentPeriodEnd.Equal(t0.AddDate(0, 0, 28)) {
			t.Fatalf("PayNow after a decline = %+v, %v", again, err)
		}
		if c := f.stripe.called("price "); len(c) != 2 {
			// The basic price was made once (kept in stripe_prices), then
			// the trial price: pay now made none.
			t.Fatalf("prices asked = %v", c)
		}
		// A double submit starts one.
		if _, err := f.svc.PayNow(ctx, f.input("hu", payment.SavedCard{Ref: "pm_good"})); !errors.Is(err, subscription.ErrAlreadySubscribed) {
			t.Fatalf("double submit: %v", err)
		}
		// Not a Stripe PaymentMethod: refused before Stripe is asked.
		if _, err := f.svc.StartTrial(ctx, f.input("iv", payment.SavedCard{Ref: "4242424242424242"})); !errors.Is(err, subscription.ErrDeclined) {
			t.Fatalf("a raw number as the method: %v", err)
		}
	})
}

func TestStripeEventsRefusedOrIgnored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		ctx := context.Background()
		sub := f.start(t, "jo")
		payload := subscriptionEvent(t, "evt_x", "customer.subscription.updated", t0.Add(time.Minute), sub,
			stripeSub{status: "past_due", start: t0, end: t0.AddDate(0, 0, 7), price: stripeBasicPrice, amount: 1999})
		h := http.Header{}
		h.Set("Stripe-Signature", payment.Sign("whsec_forged", payload, f.clock.Now()))
		if _, err := f.svc.Receive(ctx, payload, h); !errors.Is(err, payment.ErrBadSignature) {
			t.Fatalf("forged delivery: %v", err)
		}
		// A subscription id in the metadata that names someone else's
		// Stripe subscription: acknowledged, nothing changes.
		forged := sub
		forged.ProviderRef.String = "sub_elsewhere"
		f.deliver(t, subscriptionEvent(t, "evt_y", "customer.subscription.updated", t0.Add(time.Minute), forged,
			stripeSub{status: "past_due", start: t0, end: t0.AddDate(0, 0, 7), price: stripeBasicPrice, amount: 1999}))
		if got := f.sub(t, sub.ID).Status; got != "trialing" {
			t.Fatalf("a foreign event moved it to %s", got)
		}
		// A payment's event is not the subscription service's.
		pi := eventJSON(t, "evt_pi", "payment_intent.succeeded", t0, map[string]any{"id": "pi_1", "object": "payment_intent",
			"amount": 999, "currency": "usd", "status": "succeeded", "metadata": map[string]any{"attempt_id": "att_1"}})
		h.Set("Stripe-Signature", payment.Sign(whsec, pi, f.clock.Now()))
		if handled, err := f.svc.Receive(ctx, pi, h); handled || err != nil {
			t.Fatalf("payment event: handled %v, %v", handled, err)
		}
	})
}

// An upgrade made outside Selfmap (Stripe's dashboard) reaches us by its
// events alone: the invoice is recorded under the plan its line bills, and
// the subscription takes the plan when Stripe says it is on that price.
func TestStripeUpgradeFromEventsOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		ctx := context.Background()
		sub := f.start(t, "ko")
		const premium = "price_premium_dashboard"
		if err := st.SaveStripePrice(ctx, st.DB, store.StripePrice{LookupKey: "selfmap_premium-monthly_any_usd_3999_month1",
			StripePriceID: premium, PlanID: "premium-monthly", Country: "*", Kind: "recurring", CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		at := t0.Add(48 * time.Hour)
		f.clock.Set(at.Add(time.Minute))
		f.deliver(t, invoiceEvent(t, "evt_inv", "invoice.paid", at, sub, stripeInvoice{id: "in_dash", reason: "subscription_update",
			status: "paid", price: premium, amount: 3999, start: at, end: at.AddDate(0, 1, 0), attempts: 1}))
		invs := f.invoices(t, sub.ID)
		if len(invs) != 1 || invs[0].PlanID != "premium-monthly" || invs[0].Kind != subscription.KindUpgrade {
			t.Fatalf("invoices = %+v", invs)
		}
		got := f.sub(t, sub.ID)
		if got.Status != "active" || !got.TrialEnd.Time.Equal(at) || !got.CurrentPeriodEnd.Equal(at.AddDate(0, 1, 0)) {
			t.Fatalf("after the upgrade's invoice: %+v", got)
		}
		f.deliver(t, subscriptionEvent(t, "evt_upd", "customer.subscription.updated", at, sub,
			stripeSub{status: "active", start: at, end: at.AddDate(0, 1, 0), price: premium, amount: 3999}))
		got = f.sub(t, sub.ID)
		if got.PlanID != "premium-monthly" || got.Price != 3999 || got.Currency != "USD" {
			t.Fatalf("after the subscription's update: %+v", got)
		}
		if e := f.tier(t, "ko", at.Add(time.Hour)); e.Tier != subscription.TierPremium {
			t.Fatalf("entitlement: %+v", e)
		}
	})
}

// failingStripe fails the creation of subscriptions as a network does: no
// answer, so nothing is known.
type failingStripe struct {
	*fakeStripe
	fail bool
}

func (f *failingStripe) CreateSubscription(ctx context.Context, r payment.SubscriptionRequest) (payment.BillingSubscription, error) {
	if f.fail {
		f.record("create (lost) " + r.IdempotencyKey)
		return payment.BillingSubscription{}, errors.New("read tcp: connection reset by peer")
	}
	return f.fakeStripe.CreateSubscription(ctx, r)
}

// A start whose answer was lost leaves the subscription incomplete; the
// customer's next try, once a request could no longer be in flight,
// finishes it with the same key rather than being refused for ever.
func TestStripeLostStartIsFinishedByTheNextTry(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		fs := &failingStripe{fakeStripe: f.stripe, fail: true}
		f.svc.Provider = fs
		ctx := context.Background()
		in := f.input("lu", payment.SavedCard{Ref: "pm_lu"})
		if _, err := f.svc.StartTrial(ctx, in); err == nil {
			t.Fatal("a lost answer was taken for a start")
		}
		subs, err := st.CustomerSubscriptions(ctx, st.DB, "lu")
		if err != nil || len(subs) != 1 || subs[0].Status != "incomplete" {
			t.Fatalf("after the lost answer: %+v, %v", subs, err)
		}
		fs.fail = false
		// A second click at once: the first may still be in flight.
		if _, err := f.svc.StartTrial(ctx, in); !errors.Is(err, subscription.ErrAlreadySubscribed) {
			t.Fatalf("second click: %v", err)
		}
		f.clock.Add(subscription.DefaultLease + time.Second)
		sub, err := f.svc.StartTrial(ctx, in)
		if err != nil || sub.ID != subs[0].ID || sub.Status != "trialing" {
			t.Fatalf("the next try = %+v, %v", sub, err)
		}
		want := "sub_create_" + sub.ID
		if c := f.stripe.called("create"); len(c) != 2 || c[0] != "create (lost) "+want || c[1] != "create "+want {
			t.Fatalf("creates = %v", c)
		}
	})
}

// A start whose answer was lost, but which Stripe made and charged, learns
// its Stripe subscription from the first paid invoice: the customer can
// then cancel it (before, cancel called Stripe with an empty reference).
// Cancelling before Stripe has said anything answers busy, not a failure.
func TestStripeLostStartBoundByItsInvoice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setupStripe(t, st)
		fs := &failingStripe{fakeStripe: f.stripe, fail: true}
		f.svc.Provider = fs
		ctx := context.Background()
		if _, err := f.svc.StartTrial(ctx, f.input("lb", payment.SavedCard{Ref: "pm_lb"})); err == nil {
			t.Fatal("a lost answer was taken for a start")
		}
		subs, err := st.CustomerSubscriptions(ctx, st.DB, "lb")
		if err != nil || len(subs) != 1 || subs[0].ProviderRef.Valid {
			t.Fatalf("after the lost answer: %+v, %v", subs, err)
		}
		sub := subs[0]
		sub.ProviderRef.String = "sub_stripe_lb"
		customer, err := st.StripeCustomer(ctx, st.DB, "lb")
		if err != nil {
			t.Fatal(err)
		}
		// An event naming our row but billing someone else's Stripe
		// customer (another app on the account) does not bind it.
		f.deliver(t, invoiceEvent(t, "evt_lb_other", "invoice.paid", f.clock.Now(), sub, stripeInvoice{id: "in_other", reason: "subscription_create",
			status: "paid", amount: 149, start: f.clock.Now(), end: f.clock.Now().AddDate(0, 0, 7), customer: "cus_someone_else"}))
		if got, err := st.GetSubscription(ctx, st.DB, sub.ID); err != nil || got.Status != "incomplete" || got.ProviderRef.Valid {
			t.Fatalf("after another customer's invoice: %s ref %q, %v", got.Status, got.ProviderRef.String, err)
		}
		f.deliver(t, invoiceEvent(t, "evt_lb_paid", "invoice.paid", f.clock.Now(), sub, stripeInvoice{id: "in_lb", reason: "subscription_create",
			status: "paid", amount: 149, start: f.clock.Now(), end: f.clock.Now().AddDate(0, 0, 7), customer: customer}))
		got, err := st.GetSubscription(ctx, st.DB, sub.ID)
		if err != nil || got.Status != "trialing" || got.ProviderRef.String != "sub_stripe_lb" {
			t.Fatalf("after the paid invoice: %s ref %q, %v", got.Status, got.ProviderRef.String, err)
		}
		fs.fail = false
		if _, err := f.svc.Cancel(ctx, "lb", sub.ID); err != nil {
			t.Fatalf("cancel: %v", err)
		}
		if c := f.stripe.called("cancel"); len(c) != 1 || !strings.Contains(c[0], "sub_stripe_lb") {
			t.Fatalf("cancels at Stripe = %v", c)
		}
	})
}
