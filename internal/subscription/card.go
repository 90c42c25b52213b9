package subscription

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/ids"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// Message ids of a refused card replacement.
const (
	msgCardRefused = "billing.card.refused"
	msgCardTries   = "billing.card.too_many"
)

// cardOwned reads a customer's subscription whose card may be replaced: a
// live one that has started (trialing, active or past due). Another
// customer's, an ended or a missing one answers ErrNotFound.
func (s *Service) cardOwned(ctx context.Context, customerID, id string) (store.Subscription, error) {
	sub, err := s.owned(ctx, customerID, id)
	if err != nil {
		return store.Subscription{}, err
	}
	if st := sub.Status; st != Trialing && st != Active && st != PastDue {
		return store.Subscription{}, ErrNotFound
	}
	return sub, nil
}

// ReplaceCard saves a card typed in our own form (the sandbox) as the
// subscription's card: its next charge, and a past-due renewal's next
// retry, go to it. The card is checked as the checkout's card form checks
// it (number, expiry, security code); a number the sandbox does not know is
// refused, while its test cards that decline later are saved, as Stripe
// saves them. Each try counts against the customer's card attempts.
func (s *Service) ReplaceCard(ctx context.Context, customerID, id string, card CardInput) (store.Subscription, validate.FieldErrors, error) {
	sub, err := s.cardOwned(ctx, customerID, id)
	if err != nil {
		return store.Subscription{}, nil, err
	}
	saver, ok := s.Provider.(payment.CardSaver)
	if !ok || s.stripeCards() {
		return store.Subscription{}, nil, ErrNotFound
	}
	card.Name, card.Postal = "-", "-"
	typed, errs := s.checkCard(card, sub.Country, s.now())
	if len(errs) > 0 {
		return store.Subscription{}, validate.FieldErrors(errs), nil
	}
	if ok, err := s.allowCard(customerID); err != nil || !ok {
		return store.Subscription{}, validate.ErrorOn(validate.Form, msgCardTries), err
	}
	saved, err := saver.SaveCard(ctx, payment.Card{Number: typed.Number, ExpMonth: typed.ExpMonth, ExpYear: typed.ExpYear})
	if err != nil {
		return store.Subscription{}, nil, err
	}
	if m, err := s.Store.GetSandboxMethod(ctx, s.Store.DB, saved.Ref); err != nil {
		return store.Subscription{}, nil, err
	} else if m.Behaviour == "card_not_supported" {
		return store.Subscription{}, validate.ErrorOn("number", msgCardRefused), nil
	}
	sub, err = s.setCard(ctx, sub.ID, saved)
	return sub, nil, err
}

// StartCardSetup begins replacing a subscription's card with the
// provider's own card form (Stripe): it answers the client secret of a
// SetupIntent of the customer, which the browser confirms, then hands to
// FinishCardSetup.
func (s *Service) StartCardSetup(ctx context.Context, customerID, id string) (string, error) {
	sub, setup, customer, err := s.setupOwned(ctx, customerID, id)
	if err != nil {
		return "", err
	}
	key := "setup_" + sub.ID + "_" + strconv.FormatInt(s.now().UnixMilli(), 10)
	started, err := setup.StartCardSetup(ctx, customer, key)
	if err != nil {
		return "", err
	}
	return started.ClientSecret, nil
}

// FinishCardSetup makes the card of a SetupIntent the browser confirmed
// the subscription's card, at the provider and on our row. A SetupIntent
// of another customer, or one not confirmed, changes nothing and answers
// ErrNotFound.
func (s *Service) FinishCardSetup(ctx context.Context, customerID, id, setupRef string) (store.Subscription, error) {
	sub, setup, customer, err := s.setupOwned(ctx, customerID, id)
	if err != nil {
		return store.Subscription{}, err
	}
	card, err := setup.FinishCardSetup(ctx, customer, strings.TrimSpace(setupRef), sub.ProviderRef.String)
	if errors.Is(err, payment.ErrSetupNotDone) {
		return store.Subscription{}, ErrNotFound
	}
	if err != nil {
		return store.Subscription{}, err
	}
	return s.setCard(ctx, sub.ID, card)
}

// setupOwned reads a customer's subscription run by a provider with its
// own card form, with the provider and the customer's reference there.
func (s *Service) setupOwned(ctx context.Context, customerID, id string) (store.Subscription, payment.CardSetup, string, error) {
	sub, err := s.cardOwned(ctx, customerID, id)
	if err != nil {
		return store.Subscription{}, nil, "", err
	}
	b, ok := s.managed(sub)
	setup, can := b.(payment.CardSetup)
	if !ok || !can || !sub.ProviderRef.Valid {
		return store.Subscription{}, nil, "", ErrNotFound
	}
	customer, err := s.Store.StripeCustomer(ctx, s.Store.DB, sub.CustomerID)
	if errors.Is(err, store.ErrNotFound) {
		return store.Subscription{}, nil, "", ErrNotFound
	}
	return sub, setup, customer, err
}

// setCard writes a saved card on a subscription with the record of the
// card it replaces, in one transaction.
func (s *Service) setCard(ctx context.Context, id string, card payment.SavedCard) (store.Subscription, error) {
	now := s.now()
	err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		var change store.CardChange
		err := s.update(ctx, tx, id, func(sub *store.Subscription) ([]mailKind, error) {
			change = store.CardChange{ID: ids.New(), SubscriptionID: sub.ID, OldBrand: sub.CardBrand, OldLast4: sub.CardLast4, ChangedAt: now}
			sub.PaymentMethodRef = sql.NullString{String: card.Ref, Valid: true}
			sub.CardBrand = sql.NullString{String: card.Brand, Valid: card.Brand != ""}
			sub.CardLast4 = sql.NullString{String: card.Last4, Valid: card.Last4 != ""}
			change.NewBrand, change.NewLast4 = sub.CardBrand, sub.CardLast4
			return nil, nil
		})
		if err != nil {
			return err
		}
		return s.Store.InsertCardChange(ctx, tx, change)
	})
	if err != nil {
		return store.Subscription{}, err
	}
	return s.Store.GetSubscription(ctx, s.Store.DB, id)
}
