package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85"
)

// ---- Stripe Billing against stripe-mock: request shapes ----

func newMockedStripe(t *testing.T) (*Stripe, *recordingTransport) {
	t.Helper()
	base := startStripeMock(t)
	rec := &recordingTransport{}
	return NewStripe("sk_test_123", "whsec_test", WithStripeBaseURL(base),
		WithStripeHTTPClient(&http.Client{Transport: rec, Timeout: 30 * time.Second})), rec
}

// form returns the last request's form, checking its method and path.
func lastForm(t *testing.T, rec *recordingTransport, method, path string) (url.Values, http.Header) {
	t.Helper()
	reqs := rec.all()
	if len(reqs) == 0 {
		t.Fatal("no request made")
	}
	r := reqs[len(reqs)-1]
	if r.method != method || r.path != path {
		t.Fatalf("sent %s %s, want %s %s", r.method, r.path, method, path)
	}
	form, err := url.ParseQuery(r.body)
	if err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	return form, r.header
}

func wantForm(t *testing.T, what string, form url.Values, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := form.Get(k); got != v {
			t.Errorf("%s %s = %q, want %q (body %v)", what, k, got, v, form)
		}
	}
}

func TestStripeMockBillingCustomerAndMethod(t *testing.T) {
	s, rec := newMockedStripe(t)
	ctx := context.Background()

	ref, err := s.EnsureCustomer(ctx, BillingCustomer{CustomerID: "user_1", Email: "a@example.com", IdempotencyKey: "cus_k"})
	if err != nil || !strings.HasPrefix(ref, "cus_") {
		t.Fatalf("EnsureCustomer = %q, %v", ref, err)
	}
	form, h := lastForm(t, rec, http.MethodPost, "/v1/customers")
	wantForm(t, "customer", form, map[string]string{"email": "a@example.com", "metadata[customer_id]": "user_1"})
	if h.Get("Idempotency-Key") != "cus_k" {
		t.Errorf("customer Idempotency-Key = %q", h.Get("Idempotency-Key"))
	}

	card, err := s.AttachMethod(ctx, ref, "pm_123")
	if err != nil || card.Ref == "" || card.Last4 == "" {
		t.Fatalf("AttachMethod = %+v, %v", card, err)
	}
	reqs := rec.all()
	attach := reqs[len(reqs)-2]
	if attach.path != "/v1/payment_methods/pm_123/attach" || !strings.Contains(attach.body, "customer="+ref) ||
		attach.header.Get("Idempotency-Key") != "attach_pm_123_"+ref {
		t.Errorf("attach sent %s %q (%q)", attach.path, attach.body, attach.header.Get("Idempotency-Key"))
	}
	form, _ = lastForm(t, rec, http.MethodPost, "/v1/customers/"+ref)
	wantForm(t, "default method", form, map[string]string{"invoice_settings[default_payment_method]": card.Ref})

	if _, err := s.AttachMethod(ctx, ref, "card_1"); err == nil {
		t.Error("a method that is not a pm_ was attached")
	}
	if _, err := s.EnsureCustomer(ctx, BillingCustomer{CustomerID: "user_1"}); err == nil {
		t.Error("a customer without an idempotency key was created")
	}
}

func TestStripeMockBillingPrice(t *testing.T) {
	s, rec := newMockedStripe(t)
	spec := PriceSpec{PlanID: "basic-weekly", PlanTitle: "Basic", Country: "*", Amount: 1999, Currency: "USD", Interval: "WEEK", Count: 4}
	if got := spec.LookupKey(); got != "selfmap_basic-weekly_any_usd_1999_week4" {
		t.Fatalf("LookupKey = %q", got)
	}
	trial := PriceSpec{PlanID: "basic-weekly", Country: "GB", Amount: 129, Currency: "GBP"}
	if got := trial.LookupKey(); got != "selfmap_basic-weekly_GB_gbp_129_once" {
		t.Fatalf("trial LookupKey = %q", got)
	}
	ref, err := s.EnsurePrice(context.Background(), spec)
	if err != nil || !strings.HasPrefix(ref, "price_") {
		t.Fatalf("EnsurePrice = %q, %v", ref, err)
	}
	// stripe-mock lists a price for any lookup key, so this asks and uses
	// the answer; creating is exercised below with createPrice's request.
	reqs := rec.all()
	if len(reqs) != 1 || reqs[0].method != http.MethodGet || reqs[0].path != "/v1/prices" {
		t.Fatalf("EnsurePrice sent %+v, want one GET /v1/prices", reqs)
	}
	if q := reqs[0].query; q.Get("lookup_keys[0]") != spec.LookupKey() || q.Get("active") != "true" {
		t.Errorf("price lookup query = %v", q)
	}
}

func TestStripeMockBillingSubscriptionCalls(t *testing.T) {
	s, rec := newMockedStripe(t)
	ctx := context.Background()

	bs, err := s.CreateSubscription(ctx, SubscriptionRequest{CustomerRef: "cus_1", MethodRef: "pm_1", PriceRef: "price_basic",
		TrialDays: 7, TrialPriceRef: "price_trial", SubscriptionID: "sub_ours", IdempotencyKey: "sub_create_ours"})
	if err != nil || !strings.HasPrefix(bs.Ref, "sub_") {
		t.Fatalf("CreateSubscription = %+v, %v", bs, err)
	}
	form, h := lastForm(t, rec, http.MethodPost, "/v1/subscriptions")
	wantForm(t, "create", form, map[string]string{
		"customer":                    "cus_1",
		"items[0][price]":             "price_basic",
		"trial_period_days":           "7",
		"add_invoice_items[0][price]": "price_trial",
		"payment_behavior":            "allow_incomplete",
		"proration_behavior":          "none",
		"default_payment_method":      "pm_1",
		"metadata[subscription_id]":   "sub_ours",
		"expand[0]":                   "latest_invoice.payments",
	})
	if h.Get("Idempotency-Key") != "sub_create_ours" {
		t.Errorf("create Idempotency-Key = %q", h.Get("Idempotency-Key"))
	}

	// Pay now: no trial and no one-off item.
	if _, err := s.CreateSubscription(ctx, SubscriptionRequest{CustomerRef: "cus_1", PriceRef: "price_basic",
		SubscriptionID: "sub_2", IdempotencyKey: "sub_create_2"}); err != nil {
		t.Fatal(err)
	}
	form, _ = lastForm(t, rec, http.MethodPost, "/v1/subscriptions")
	if form.Has("trial_period_days") || form.Has("add_invoice_items[0][price]") {
		t.Errorf("pay now sent a trial: %v", form)
	}

	n := len(rec.all())
	up, err := s.UpdateSubscription(ctx, "sub_123", SubscriptionUpdate{PriceRef: "price_premium", IdempotencyKey: "sub_upgrade_k"})
	if err != nil {
		t.Fatalf("UpdateSubscription: %v", err)
	}
	_ = up
	reqs := rec.all()[n:]
	if len(reqs) < 2 || reqs[0].method != http.MethodGet || reqs[0].path != "/v1/subscriptions/sub_123" {
		t.Fatalf("update did not first read the subscription: %+v", reqs)
	}
	form, err = url.ParseQuery(reqs[1].body)
	if err != nil || reqs[1].path != "/v1/subscriptions/sub_123" || reqs[1].header.Get("Idempotency-Key") != "sub_upgrade_k" {
		t.Fatalf("update sent %s %q (%v)", reqs[1].path, reqs[1].body, err)
	}
	wantForm(t, "update", form, map[string]string{
		"items[0][price]":      "price_premium",
		"trial_end":            "now",
		"billing_cycle_anchor": "now",
		"proration_behavior":   "none",
		"payment_behavior":     "pending_if_incomplete",
	})
	if form.Get("items[0][id]") == "" {
		t.Errorf("update names no item: %v", form)
	}

	if _, err := s.CancelAtPeriodEnd(ctx, "sub_123", "sub_cancel_ours"); err != nil {
		t.Fatal(err)
	}
	form, h = lastForm(t, rec, http.MethodPost, "/v1/subscriptions/sub_123")
	wantForm(t, "cancel", form, map[string]string{"cancel_at_period_end": "true"})
	if h.Get("Idempotency-Key") != "sub_cancel_ours" {
		t.Errorf("cancel Idempotency-Key = %q", h.Get("Idempotency-Key"))
	}

	if _, err := s.Subscription(ctx, "sub_123"); err != nil {
		t.Fatalf("Subscription: %v", err)
	}
	if r := rec.all()[len(rec.all())-1]; r.method != http.MethodGet || r.path != "/v1/subscriptions/sub_123" ||
		r.query.Get("expand[0]") != "latest_invoice.payments" {
		t.Errorf("read sent %s %s?%s", r.method, r.path, r.query.Encode())
	}

	if _, err := s.CancelNow(ctx, "sub_123", ""); err != nil {
		t.Fatal(err)
	}
	reqs = rec.all()
	if r := reqs[len(reqs)-1]; r.method != http.MethodDelete || r.path != "/v1/subscriptions/sub_123" {
		t.Errorf("cancel now sent %s %s", r.method, r.path)
	}

	if _, err := s.CreateSubscription(ctx, SubscriptionRequest{CustomerRef: "cus_1", PriceRef: "p"}); err == nil {
		t.Error("a subscription without an idempotency key was created")
	}
	if _, err := s.UpdateSubscription(ctx, "sub_123", SubscriptionUpdate{PriceRef: "p"}); err == nil {
		t.Error("an update without an idempotency key was sent")
	}
}

func TestStripeRefused(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&stripe.Error{HTTPStatusCode: 402, Code: stripe.ErrorCodeCardDeclined}, true},
		{fmt.Errorf("payment: stripe: create subscription: %w", &stripe.Error{HTTPStatusCode: 400}), true},
		{&stripe.Error{HTTPStatusCode: 404}, true},
		{&stripe.Error{HTTPStatusCode: 409}, false}, // an idempotent request still in flight
		{&stripe.Error{HTTPStatusCode: 429}, false},
		{&stripe.Error{HTTPStatusCode: 500}, false},
		{errors.New("dial tcp: timeout"), false},
		{nil, false},
	} {
		if got := Refused(c.err); got != c.want {
			t.Errorf("Refused(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// ---- Stripe Billing events: signed payloads ----

func billingEventJSON(t *testing.T, id, typ string, created int64, object map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"id": id, "object": "event", "created": created, "type": typ,
		"data": map[string]any{"object": object}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStripeParseBillingEvents(t *testing.T) {
	now := time.Unix(1800000000, 0)
	s := NewStripe("sk_test_123", testWebhookSecret)
	invoice := map[string]any{
		"id": "in_1", "object": "invoice", "status": "paid", "billing_reason": "subscription_cycle", "currency": "jpy",
		"amount_paid": 1500, "amount_due": 1500, "attempt_count": 1, "next_payment_attempt": nil,
		// The invoice's own period is the one before; the line's is billed.
		"period_start": 1790000000, "period_end": 1800000000,
		"parent": map[string]any{"type": "subscription_details", "subscription_details": map[string]any{
			"subscription": "sub_1", "metadata": map[string]any{"subscription_id": "ours_1"}}},
		"lines": map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "il_1", "object": "line_item", "amount": 1500, "currency": "jpy",
				"period":  map[string]any{"start": 1800000000, "end": 1802419200},
				"pricing": map[string]any{"type": "price_details", "price_details": map[string]any{"price": "price_1", "product": "prod_1"}}},
			map[string]any{"id": "il_2", "object": "line_item", "amount": 0, "currency": "jpy",
				"period": map[string]any{"start": 1800000000, "end": 1800000000}},
		}},
	}
	payload := billingEventJSON(t, "evt_in", "invoice.paid", 1800000001, invoice)
	ev, err := s.ParseEvent(payload, signedHeader(payload, testWebhookSecret, now), now)
	if err != nil {
		t.Fatal(err)
	}
	want := BillingInvoice{Ref: "in_1", SubscriptionRef: "sub_1", SubscriptionID: "ours_1", Status: "paid",
		BillingReason: "subscription_cycle", Amount: 150000, Currency: "JPY", PeriodStart: time.Unix(1800000000, 0).UTC(),
		PeriodEnd: time.Unix(1802419200, 0).UTC(), PriceRef: "price_1", Attempts: 1}
	if ev.Kind != EventInvoicePaid || ev.ID != "evt_in" || ev.Invoice == nil || *ev.Invoice != want ||
		!ev.Created.Equal(time.Unix(1800000001, 0)) || !ev.Kind.Billing() {
		t.Fatalf("invoice.paid = %+v (%+v)\nwant %+v", ev, ev.Invoice, want)
	}

	invoice["status"], invoice["next_payment_attempt"] = "open", 1800086400
	payload = billingEventJSON(t, "evt_fail", "invoice.payment_failed", 1800000002, invoice)
	ev, err = s.ParseEvent(payload, signedHeader(payload, testWebhookSecret, now), now)
	if err != nil || ev.Kind != EventInvoiceFailed || ev.Invoice.Paid() || !ev.Invoice.NextAttempt.Equal(time.Unix(1800086400, 0)) {
		t.Fatalf("invoice.payment_failed = %+v, %v", ev, err)
	}

	sub := map[string]any{"id": "sub_1", "object": "subscription", "status": "past_due", "cancel_at_period_end": true,
		"canceled_at": 1800000100, "metadata": map[string]any{"subscription_id": "ours_1"},
		"items": map[string]any{"object": "list", "data": []any{map[string]any{"id": "si_1", "object": "subscription_item",
			"current_period_start": 1800000000, "current_period_end": 1802419200,
			"price": map[string]any{"id": "price_1", "object": "price", "currency": "usd", "unit_amount": 1999}}}}}
	for typ, kind := range map[string]EventKind{"customer.subscription.updated": EventSubscriptionUpdated,
		"customer.subscription.deleted": EventSubscriptionDeleted} {
		payload = billingEventJSON(t, "evt_"+typ, typ, 1800000003, sub)
		ev, err = s.ParseEvent(payload, signedHeader(payload, testWebhookSecret, now), now)
		if err != nil {
			t.Fatal(err)
		}
		bs := ev.Subscription
		if ev.Kind != kind || bs == nil || bs.Ref != "sub_1" || bs.SubscriptionID != "ours_1" || bs.Status != "past_due" ||
			!bs.CancelAtPeriodEnd || !bs.PeriodEnd.Equal(time.Unix(1802419200, 0)) || bs.PriceRef != "price_1" ||
			bs.Amount != 1999 || bs.Currency != "USD" || !bs.CanceledAt.Equal(time.Unix(1800000100, 0)) {
			t.Fatalf("%s = %+v (%+v)", typ, ev, bs)
		}
	}

	// Someone else's subscription on the account: acknowledged, ignored.
	sub["metadata"] = map[string]any{}
	payload = billingEventJSON(t, "evt_foreign", "customer.subscription.updated", 1800000004, sub)
	if _, err := s.ParseEvent(payload, signedHeader(payload, testWebhookSecret, now), now); !errors.Is(err, ErrIgnoredEvent) {
		t.Fatalf("foreign subscription: err = %v, want ErrIgnoredEvent", err)
	}
	delete(invoice, "parent")
	payload = billingEventJSON(t, "evt_one_off", "invoice.paid", 1800000005, invoice)
	if _, err := s.ParseEvent(payload, signedHeader(payload, testWebhookSecret, now), now); !errors.Is(err, ErrIgnoredEvent) {
		t.Fatalf("invoice of no subscription: err = %v, want ErrIgnoredEvent", err)
	}
	// A forged delivery is refused before anything is read.
	if _, err := s.ParseEvent(payload, signedHeader(payload, "whsec_other", now), now); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("forged: err = %v, want ErrBadSignature", err)
	}
}

// emptyPriceList answers the price lookup with no price (stripe-mock
// always lists one) and passes every other request to stripe-mock, so the
// creation of the Product and Price is checked against Stripe's spec too.
type emptyPriceList struct{ next *recordingTransport }

func (e emptyPriceList) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && req.URL.Path == "/v1/prices" {
		body := `{"object":"list","data":[],"has_more":false,"url":"/v1/prices"}`
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
	}
	return e.next.RoundTrip(req)
}

func TestStripeMockBillingPriceCreated(t *testing.T) {
	base := startStripeMock(t)
	rec := &recordingTransport{}
	s := NewStripe("sk_test_123", "whsec_test", WithStripeBaseURL(base),
		WithStripeHTTPClient(&http.Client{Transport: emptyPriceList{rec}, Timeout: 30 * time.Second}))
	ctx := context.Background()
	spec := PriceSpec{PlanID: "basic-weekly", PlanTitle: "Basic", Country: "JP", Amount: 150000, Currency: "JPY", Interval: "WEEK", Count: 4}
	ref, err := s.EnsurePrice(ctx, spec)
	if err != nil || !strings.HasPrefix(ref, "price_") {
		t.Fatalf("EnsurePrice = %q, %v", ref, err)
	}
	reqs := rec.all()
	if len(reqs) != 2 || reqs[0].path != "/v1/products" || reqs[1].path != "/v1/prices" {
		t.Fatalf("requests = %+v", reqs)
	}
	product, _ := url.ParseQuery(reqs[0].body)
	wantForm(t, "product", product, map[string]string{"id": "selfmap_plan_basic-weekly", "name": "Selfmap Basic",
		"metadata[plan_id]": "basic-weekly"})
	if reqs[0].header.Get("Idempotency-Key") != "product_basic-weekly" {
		t.Errorf("product Idempotency-Key = %q", reqs[0].header.Get("Idempotency-Key"))
	}
	price, _ := url.ParseQuery(reqs[1].body)
	wantForm(t, "price", price, map[string]string{
		"currency":                  "jpy",
		"unit_amount":               "1500", // zero-decimal at Stripe
		"product":                   "selfmap_plan_basic-weekly",
		"lookup_key":                spec.LookupKey(),
		"recurring[interval]":       "week",
		"recurring[interval_count]": "4",
		"metadata[plan_id]":         "basic-weekly",
		"metadata[country]":         "JP",
	})
	if reqs[1].header.Get("Idempotency-Key") != "price_"+spec.LookupKey() {
		t.Errorf("price Idempotency-Key = %q", reqs[1].header.Get("Idempotency-Key"))
	}

	// The one-off trial price has no recurring part.
	trial := PriceSpec{PlanID: "basic-weekly", PlanTitle: "Basic", Country: "*", Amount: 149, Currency: "USD"}
	if _, err := s.EnsurePrice(ctx, trial); err != nil {
		t.Fatal(err)
	}
	reqs = rec.all()
	form, _ := url.ParseQuery(reqs[len(reqs)-1].body)
	if form.Has("recurring[interval]") || form.Get("unit_amount") != "149" || form.Get("lookup_key") != trial.LookupKey() {
		t.Errorf("trial price = %v", form)
	}
}
