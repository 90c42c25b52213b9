package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v85"
)

// Stripe takes payments with Stripe PaymentIntents. The browser confirms the
// intent with Stripe's Payment Element using the client secret that Start
// returns, and the outcome arrives as a signed webhook that ParseEvent turns
// into an Event, so fulfilment does not depend on the browser coming back.
type Stripe struct {
	client        *stripe.Client
	webhookSecret string
}

// Stripe must keep satisfying Provider; the compiler says so here rather
// than in whichever package wires providers up.
var _ Provider = (*Stripe)(nil)

// StripeOption configures NewStripe.
type StripeOption func(*stripeConfig)

type stripeConfig struct {
	baseURL    string
	httpClient *http.Client
}

// WithStripeBaseURL sends API calls to url (for example stripe-mock's
// "http://127.0.0.1:12111") instead of https://api.stripe.com, so the
// provider can be exercised without a Stripe account.
func WithStripeBaseURL(url string) StripeOption {
	return func(c *stripeConfig) { c.baseURL = url }
}

// WithStripeHTTPClient makes API calls with hc, to set timeouts or a proxy,
// or to observe the requests in tests. The default is stripe-go's own client.
func WithStripeHTTPClient(hc *http.Client) StripeOption {
	return func(c *stripeConfig) { c.httpClient = hc }
}

// NewStripe returns the Stripe provider for an API secret key and the signing
// secret of the webhook endpoint (whsec_...).
func NewStripe(secretKey, webhookSecret string, opts ...StripeOption) *Stripe {
	var cfg stripeConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	// stripe-go logs every failed request to stderr by default; every error
	// is returned to the caller, who logs it once with the request's context.
	quiet := &stripe.LeveledLogger{Level: stripe.LevelNull}
	api := &stripe.BackendConfig{HTTPClient: cfg.httpClient, LeveledLogger: quiet}
	if cfg.baseURL != "" {
		api.URL = stripe.String(cfg.baseURL)
	}
	// Only the API backend follows the base URL: Connect, file uploads and
	// meter events are never called by this provider, and pointing them at a
	// mock would only hide a mistake if one ever were.
	other := &stripe.BackendConfig{HTTPClient: cfg.httpClient, LeveledLogger: quiet}
	backends := &stripe.Backends{
		API:         stripe.GetBackendWithConfig(stripe.APIBackend, api),
		Connect:     stripe.GetBackendWithConfig(stripe.ConnectBackend, other),
		Uploads:     stripe.GetBackendWithConfig(stripe.UploadsBackend, other),
		MeterEvents: stripe.GetBackendWithConfig(stripe.MeterEventsBackend, other),
	}
	return &Stripe{
		client:        stripe.NewClient(secretKey, stripe.WithBackends(backends)),
		webhookSecret: webhookSecret,
	}
}

// Name is "stripe", the {provider} of /pay/webhook/{provider}.
func (s *Stripe) Name() string { return "stripe" }

// Start creates a PaymentIntent for the attempt. The attempt's idempotency
// key goes to Stripe as the Idempotency-Key header, so a retried Start (a
// timeout, a second click answered by the same attempt) returns the same
// intent instead of creating a second charge.
func (s *Stripe) Start(ctx context.Context, r Request) (Started, error) {
	if r.IdempotencyKey == "" {
		// Without our key stripe-go would make up a random one, and a retry
		// of this call could then charge the buyer twice.
		return Started{}, errors.New("payment: stripe: start needs an idempotency key")
	}
	currency := strings.ToLower(r.Currency)
	params := &stripe.PaymentIntentCreateParams{
		Amount:   stripe.Int64(toStripeAmount(r.Amount, r.Currency)),
		Currency: stripe.String(currency),
		// Cards only: they settle at once, so the status page never waits
		// days for a delayed method, and the Payment Element offers the same.
		PaymentMethodTypes: stripe.StringSlice([]string{"card"}),
		// The webhook finds our attempt through this metadata; the order id
		// is there for whoever reads the payment in Stripe's dashboard.
		Metadata: map[string]string{
			"order_id":   r.OrderID,
			"attempt_id": r.AttemptID,
		},
	}
	// Stripe refuses an empty receipt_email, and an empty description is
	// no description: send them only when there is something to send.
	if r.Email != "" {
		params.ReceiptEmail = stripe.String(r.Email)
	}
	if r.Description != "" {
		params.Description = stripe.String(r.Description)
	}
	params.SetIdempotencyKey(r.IdempotencyKey)

	pi, err := s.client.V1PaymentIntents.Create(ctx, params)
	if err != nil {
		return Started{}, fmt.Errorf("payment: stripe: create payment intent: %w", err)
	}
	return Started{Ref: pi.ID, ClientSecret: pi.ClientSecret}, nil
}

// State retrieves the PaymentIntent ref; the reconciler calls it for orders
// whose webhook never arrived.
// Cancel closes a PaymentIntent that a newer attempt replaced, so the
// buyer's card can no longer be charged on it. An intent that already
// succeeded or was cancelled cannot be; Stripe's refusal is returned and
// the caller logs it.
func (s *Stripe) Cancel(ctx context.Context, ref string) error {
	if ref == "" {
		return errors.New("payment: stripe: cancel needs a payment intent id")
	}
	params := &stripe.PaymentIntentCancelParams{CancellationReason: stripe.String("abandoned")}
	params.SetIdempotencyKey("cancel-" + ref)
	if _, err := s.client.V1PaymentIntents.Cancel(ctx, ref, params); err != nil {
		return fmt.Errorf("payment: stripe: cancel payment intent %s: %w", ref, err)
	}
	return nil
}

// State reads a PaymentIntent's state at Stripe.
func (s *Stripe) State(ctx context.Context, ref string) (State, error) {
	if ref == "" {
		// An empty id would retrieve the list endpoint's path and fail
		// confusingly; say what is wrong instead.
		return "", errors.New("payment: stripe: state needs a payment intent id")
	}
	pi, err := s.client.V1PaymentIntents.Retrieve(ctx, ref, nil)
	if err != nil {
		return "", fmt.Errorf("payment: stripe: retrieve payment intent %s: %w", ref, err)
	}
	return intentState(pi), nil
}

// intentState maps a PaymentIntent's status to ours. A declined card sends
// an intent back to requires_payment_method with last_payment_error set, and
// that is a failed attempt (the order becomes payable again); the same status
// without an error is a fresh intent still waiting for the card. Everything
// else (processing, requires_action, ...) has not finished yet.
func intentState(pi *stripe.PaymentIntent) State {
	switch {
	case pi.Status == stripe.PaymentIntentStatusSucceeded:
		return StateSucceeded
	case pi.Status == stripe.PaymentIntentStatusCanceled:
		return StateFailed
	case pi.Status == stripe.PaymentIntentStatusRequiresPaymentMethod && pi.LastPaymentError != nil:
		return StateFailed
	default:
		return StatePending
	}
}

// ParseEvent verifies a webhook delivery's Stripe-Signature header and
// returns the payment_intent.succeeded or payment_intent.payment_failed event
// it carries (for checkout), or the invoice.paid, invoice.payment_failed,
// customer.subscription.updated or customer.subscription.deleted event of one
// of our subscriptions (for the subscription service).
//
// The header ("t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<payload>">", any v1 may
// match, so a secret can be rolled) is checked with this package's Verify
// rather than stripe-go's webhook.ConstructEvent*, because those measure the
// tolerance against the wall clock (time.Since) and offer no way to pass now,
// which the interface requires so that tests agree on time. They also refuse
// events whose API version differs from the library's, which would turn a
// dashboard upgrade into refused payments; the few fields read here have been
// stable across versions.
func (s *Stripe) ParseEvent(payload []byte, header http.Header, now time.Time) (Event, error) {
	if s.webhookSecret == "" {
		// An HMAC keyed with "" is one anybody can compute: a provider
		// without its webhook secret must refuse everything.
		return Event{}, fmt.Errorf("%w: no stripe webhook secret configured", ErrBadSignature)
	}
	// Stripe's scheme is the one Verify implements for the sandbox too, so
	// both providers' deliveries are checked by the same code.
	if err := Verify(s.webhookSecret, payload, header.Get("Stripe-Signature"), now); err != nil {
		return Event{}, err
	}

	var ev stripe.Event
	if err := json.Unmarshal(payload, &ev); err != nil {
		return Event{}, fmt.Errorf("payment: stripe: decode event: %w", err)
	}
	var kind EventKind
	switch ev.Type {
	case stripe.EventTypePaymentIntentSucceeded:
		kind = EventSucceeded
	case stripe.EventTypePaymentIntentPaymentFailed:
		kind = EventFailed
	case stripe.EventTypeInvoicePaid:
		kind = EventInvoicePaid
	case stripe.EventTypeInvoicePaymentFailed:
		kind = EventInvoiceFailed
	case stripe.EventTypeCustomerSubscriptionUpdated:
		kind = EventSubscriptionUpdated
	case stripe.EventTypeCustomerSubscriptionDeleted:
		kind = EventSubscriptionDeleted
	default:
		return Event{}, fmt.Errorf("%w: stripe event type %s", ErrIgnoredEvent, ev.Type)
	}
	if ev.ID == "" || ev.Data == nil || len(ev.Data.Raw) == 0 {
		return Event{}, fmt.Errorf("payment: stripe: event %q has no id or no data.object", ev.ID)
	}
	if kind.Billing() {
		// Stripe Billing's events: the subscription service applies them.
		return parseBillingEvent(ev, kind)
	}
	var pi stripe.PaymentIntent
	if err := json.Unmarshal(ev.Data.Raw, &pi); err != nil {
		return Event{}, fmt.Errorf("payment: stripe: decode payment intent of event %s: %w", ev.ID, err)
	}
	if pi.ID == "" {
		return Event{}, fmt.Errorf("payment: stripe: event %s carries no payment intent id", ev.ID)
	}
	attemptID := pi.Metadata["attempt_id"]
	if attemptID == "" {
		// Every intent Selfmap creates carries attempt_id, so this one was
		// created by something else sharing the Stripe account (the
		// dashboard, another app). Answering "ignored" acknowledges it;
		// an error would make Stripe retry it for days.
		return Event{}, fmt.Errorf("%w: payment intent %s has no attempt_id metadata", ErrIgnoredEvent, pi.ID)
	}
	out := Event{
		ID:        ev.ID,
		Kind:      kind,
		Created:   unixTime(ev.Created),
		Ref:       pi.ID,
		AttemptID: attemptID,
		Amount:    fromStripeAmount(pi.Amount, string(pi.Currency)),
		Currency:  strings.ToUpper(string(pi.Currency)),
	}
	if pi.LastPaymentError != nil {
		out.FailureCode = string(pi.LastPaymentError.Code)
	}
	return out, nil
}

// stripeZeroDecimal lists the currencies Stripe counts in whole units
// (https://docs.stripe.com/currencies#zero-decimal). Selfmap keeps every
// amount in hundredths, JPY included, so these are divided by 100 on the way
// to Stripe and multiplied on the way back.
var stripeZeroDecimal = map[string]bool{
	"BIF": true, "CLP": true, "DJF": true, "GNF": true, "JPY": true, "KMF": true,
	"KRW": true, "MGA": true, "PYG": true, "RWF": true, "UGX": true, "VND": true,
	"VUV": true, "XAF": true, "XOF": true, "XPF": true,
}

// stripeThreeDecimal lists the currencies Stripe counts in thousandths
// (https://docs.stripe.com/currencies#three-decimal). None is priced today;
// they are converted rather than passed through because sending hundredths
// as thousandths would charge a tenth of the price without any error.
var stripeThreeDecimal = map[string]bool{
	"BHD": true, "JOD": true, "KWD": true, "OMR": true, "TND": true,
}

// StripeAmount is an amount of ours in Stripe's unit for the currency: what
// the Payment Element is given before the payment exists.
func StripeAmount(amount int64, currency string) int64 { return toStripeAmount(amount, currency) }

// toStripeAmount converts an amount in our hundredths to Stripe's unit for
// currency. A zero-decimal currency loses its hundredths, rounded half away
// from zero as money.Format shows them, so the buyer pays what the page said.
func toStripeAmount(amount int64, currency string) int64 {
	c := strings.ToUpper(currency)
	switch {
	case stripeZeroDecimal[c]:
		return divRoundHalfAway(amount, 100)
	case stripeThreeDecimal[c]:
		return amount * 10
	default:
		return amount
	}
}

// fromStripeAmount converts an amount in Stripe's unit for currency back to
// our hundredths, so the webhook compares it with the order's total as is.
func fromStripeAmount(amount int64, currency string) int64 {
	c := strings.ToUpper(currency)
	switch {
	case stripeZeroDecimal[c]:
		return amount * 100
	case stripeThreeDecimal[c]:
		return divRoundHalfAway(amount, 10)
	default:
		return amount
	}
}

// divRoundHalfAway divides a by a positive d, rounding half away from zero
// (Go's / truncates toward zero).
func divRoundHalfAway(a, d int64) int64 {
	if a < 0 {
		return -divRoundHalfAway(-a, d)
	}
	return (a + d/2) / d
}
