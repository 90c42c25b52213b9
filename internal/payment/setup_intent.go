package payment

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stripe/stripe-go/v85"
)

// CardSaver is a provider that saves a card typed in our own form (the
// sandbox): the billing page replaces a subscription's card with it.
type CardSaver interface {
	SaveCard(ctx context.Context, card Card) (SavedCard, error)
}

// CardSetup is a Billing provider whose card form is its own (Stripe): a
// card is replaced by a SetupIntent made here and confirmed in the
// browser, then made the default of the customer and of the subscription.
// It also withdraws a cancel that waits for the period's end.
type CardSetup interface {
	// StartCardSetup creates a SetupIntent for an off-session card of a
	// customer and returns it with the client secret the browser confirms.
	StartCardSetup(ctx context.Context, customerRef, idempotencyKey string) (Started, error)
	// FinishCardSetup reads a confirmed SetupIntent of the customer and
	// makes its card the default of the customer's invoices and of the
	// subscription; ErrSetupNotDone when it is not the customer's, or not
	// succeeded.
	FinishCardSetup(ctx context.Context, customerRef, setupRef, subscriptionRef string) (SavedCard, error)
	// Resume withdraws a subscription's cancel at the period's end.
	Resume(ctx context.Context, ref, idempotencyKey string) (BillingSubscription, error)
}

// ErrSetupNotDone is a SetupIntent that is not a succeeded one of the
// customer who finishes it.
var ErrSetupNotDone = errors.New("payment: the card setup is not confirmed for this customer")

var (
	_ CardSetup = (*Stripe)(nil)
	_ CardSaver = (*Sandbox)(nil)
)

// StartCardSetup creates a SetupIntent for the customer, for cards charged
// later without them (usage off_session).
func (s *Stripe) StartCardSetup(ctx context.Context, customerRef, idempotencyKey string) (Started, error) {
	if customerRef == "" || idempotencyKey == "" {
		return Started{}, errors.New("payment: stripe: a card setup needs a customer and an idempotency key")
	}
	params := &stripe.SetupIntentCreateParams{Customer: stripe.String(customerRef), Usage: stripe.String("off_session"),
		PaymentMethodTypes: stripe.StringSlice([]string{"card"})}
	params.SetIdempotencyKey(idempotencyKey)
	si, err := s.client.V1SetupIntents.Create(ctx, params)
	if err != nil {
		return Started{}, fmt.Errorf("payment: stripe: create setup intent: %w", err)
	}
	return Started{Ref: si.ID, ClientSecret: si.ClientSecret}, nil
}

// FinishCardSetup checks that the SetupIntent belongs to the customer and
// succeeded, then makes its PaymentMethod the default of the customer's
// invoices and of the subscription, so the next period is charged to it.
func (s *Stripe) FinishCardSetup(ctx context.Context, customerRef, setupRef, subscriptionRef string) (SavedCard, error) {
	if customerRef == "" || subscriptionRef == "" || !strings.HasPrefix(setupRef, "seti_") {
		return SavedCard{}, ErrSetupNotDone
	}
	params := &stripe.SetupIntentRetrieveParams{}
	params.AddExpand("payment_method")
	si, err := s.client.V1SetupIntents.Retrieve(ctx, setupRef, params)
	if err != nil {
		return SavedCard{}, fmt.Errorf("payment: stripe: retrieve setup intent: %w", err)
	}
	if si.Customer == nil || si.Customer.ID != customerRef || si.Status != stripe.SetupIntentStatusSucceeded || si.PaymentMethod == nil {
		return SavedCard{}, ErrSetupNotDone
	}
	pm := si.PaymentMethod
	update := &stripe.CustomerUpdateParams{InvoiceSettings: &stripe.CustomerUpdateInvoiceSettingsParams{
		DefaultPaymentMethod: stripe.String(pm.ID)}}
	update.SetIdempotencyKey("default_" + pm.ID + "_" + customerRef)
	if _, err := s.client.V1Customers.Update(ctx, customerRef, update); err != nil {
		return SavedCard{}, fmt.Errorf("payment: stripe: set default payment method: %w", err)
	}
	sub := &stripe.SubscriptionUpdateParams{DefaultPaymentMethod: stripe.String(pm.ID)}
	sub.SetIdempotencyKey("sub_default_" + pm.ID + "_" + subscriptionRef)
	if _, err := s.client.V1Subscriptions.Update(ctx, subscriptionRef, sub); err != nil {
		return SavedCard{}, fmt.Errorf("payment: stripe: set subscription %s payment method: %w", subscriptionRef, err)
	}
	card := SavedCard{Ref: pm.ID}
	if pm.Card != nil {
		card.Brand, card.Last4 = string(pm.Card.Brand), pm.Card.Last4
	}
	return card, nil
}

// Resume clears cancel_at_period_end: the subscription renews again.
func (s *Stripe) Resume(ctx context.Context, ref, idempotencyKey string) (BillingSubscription, error) {
	if ref == "" || idempotencyKey == "" {
		return BillingSubscription{}, errors.New("payment: stripe: a resume needs a subscription and an idempotency key")
	}
	params := &stripe.SubscriptionUpdateParams{CancelAtPeriodEnd: stripe.Bool(false)}
	params.SetIdempotencyKey(idempotencyKey)
	sub, err := s.client.V1Subscriptions.Update(ctx, ref, params)
	if err != nil {
		return BillingSubscription{}, fmt.Errorf("payment: stripe: resume subscription %s: %w", ref, err)
	}
	return billingSubscription(sub), nil
}
