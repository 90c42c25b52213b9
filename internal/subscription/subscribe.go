package subscription

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/geo"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// Modes of the subscription form: the plan's trial, or its first full
// period paid now.
const (
	ModeTrial  = "trial"
	ModePayNow = "paynow"
)

// CardInput is the card as the form or the API sends it: with the sandbox,
// the card's fields (checked, saved as brand and last four, and dropped);
// with Stripe, only the PaymentMethod id Stripe.js made.
type CardInput struct {
	Number, Expiry, CVC, Name, Postal string
	PaymentMethod                     string
}

// SubscribeInput is a subscription request as typed.
type SubscribeInput struct {
	Visitor
	PlanID, Mode, Promo string
	Agreed              bool
	Card                CardInput
}

// Message ids of a refused subscription request, by field.
const (
	msgPlan        = "subscribe.error.plan"
	msgMode        = "subscribe.error.mode"
	msgOfferClosed = "subscribe.error.offer_closed"
	msgTerms       = "subscribe.error.terms"
	msgCardMissing = "subscribe.error.card_missing"
	msgTooMany     = "subscribe.error.too_many_cards"
)

// request is a subscription request that passed its checks.
type request struct {
	country string
	plan    PricedPlan
	payNow  bool
	card    payment.Card
}

// Subscribe checks a subscription request and starts it: the card is saved
// with the provider, then the trial or the first period is charged. errs
// holds a message id per refused field ("card" for a declined card, with
// the expired subscription it left). A customer who already has a live
// subscription gets it back unchanged: a double submit starts one
// subscription and one charge. A start that waits for the bank's
// authentication answers the subscription, still incomplete: its check
// page asks the customer.
func (s *Service) Subscribe(ctx context.Context, in SubscribeInput) (Subscription, validate.FieldErrors, error) {
	if live, err := s.live(ctx, in.CustomerID); err != nil || (live != nil && !s.Stalled(*live)) {
		return orZero(live), nil, err
	}
	req, errs, err := s.check(ctx, in)
	if err != nil || errs.Any() {
		return Subscription{}, errs, err
	}
	// Each card tried counts against the account, from any address: a
	// stolen-card tester gets a few tries, not a list's worth.
	if ok, err := s.allowCard(in.CustomerID); err != nil {
		return Subscription{}, nil, err
	} else if !ok {
		return Subscription{}, validate.ErrorOn("card", msgTooMany), nil
	}
	saved, err := s.saveCard(ctx, req.card)
	if err != nil {
		return Subscription{}, nil, err
	}
	start := s.StartTrial
	if req.payNow {
		start = s.PayNow
	}
	sub, err := start(ctx, StartInput{CustomerID: in.CustomerID, Email: in.Email, Locale: in.Locale, Country: req.country,
		PlanID: req.plan.ID, Method: saved, PromoCode: in.Promo})
	return s.started(ctx, in.CustomerID, sub, err)
}

// orZero is the subscription sub points to, or none.
func orZero(sub *Subscription) Subscription {
	if sub == nil {
		return Subscription{}
	}
	return *sub
}

// check checks every field of a request, as the form shows them refused
// all at once.
func (s *Service) check(ctx context.Context, in SubscribeInput) (request, validate.FieldErrors, error) {
	now := s.now()
	errs := validate.FieldErrors{}
	v := s.look(ctx, in.Visitor, now, in.Mode == ModeTrial)
	req := request{country: v.country, payNow: in.Mode == ModePayNow}
	plan, err := s.Store.GetPlan(ctx, s.Store.DB, in.PlanID, v.country)
	switch {
	case errors.Is(err, store.ErrNotFound):
		errs.Add("plan", msgPlan)
	case err != nil:
		return request{}, nil, err
	}
	req.plan = plan
	switch {
	case in.Mode != ModeTrial && !req.payNow:
		errs.Add("mode", msgMode)
	case !req.payNow && !v.trialsOffered():
		errs.Add("mode", msgOfferClosed)
	}
	if !in.Agreed {
		errs.Add("terms", msgTerms)
	}
	if in.Promo != "" && plan.ID != "" {
		promo, err := FindPromo(ctx, s.Store, in.Promo, plan.ID)
		if err == nil {
			_, err = FirstCharge(plan, promo, req.payNow, now)
		}
		id, err := refusalID(err)
		if err != nil {
			return request{}, nil, err
		}
		errs.Add("promo", id)
	}
	card, cardErrs := s.checkCard(in.Card, v.country, now)
	for field, id := range cardErrs {
		errs.Add(field, id)
	}
	req.card = card
	return req, errs, nil
}

// stripeCards reports whether cards are typed into Stripe's own element
// (the stripe provider), which sends us a PaymentMethod, not a number.
func (s *Service) stripeCards() bool { return s.Provider.Name() == "stripe" }

// checkCard checks the card as the checkout's card form is checked, and
// answers a message id per refused field.
func (s *Service) checkCard(card CardInput, country string, now time.Time) (payment.Card, map[string]string) {
	if s.stripeCards() {
		pm := strings.TrimSpace(card.PaymentMethod)
		if !strings.HasPrefix(pm, "pm_") || len(pm) > 255 {
			return payment.Card{}, map[string]string{"card": msgCardMissing}
		}
		return payment.Card{Number: pm}, nil
	}
	month, year := parseExpiry(card.Expiry)
	in := payment.CardInput{Number: card.Number, ExpMonth: month, ExpYear: year, CVC: strings.TrimSpace(card.CVC), Name: card.Name,
		PostalCode: card.Postal, NoPostalCode: !geo.UsesPostalCode(country)}
	number, errs := in.Check(now)
	if year < 100 {
		year += 2000
	}
	return payment.Card{Number: number, ExpMonth: month, ExpYear: year}, errs
}

// parseExpiry reads "MM/YY" (or "MM / YYYY"); zero values fail the check.
func parseExpiry(v string) (int, int) {
	m, y, ok := strings.Cut(strings.ReplaceAll(v, " ", ""), "/")
	if !ok {
		return 0, 0
	}
	month, err1 := strconv.Atoi(m)
	year, err2 := strconv.Atoi(y)
	if err1 != nil || err2 != nil {
		return 0, 0
	}
	return month, year
}

// allowCard counts one more card tried by the customer.
func (s *Service) allowCard(customerID string) (bool, error) {
	if s.CardAttempts == nil {
		return true, nil
	}
	return s.CardAttempts.Allow("user:" + customerID)
}

// saveCard keeps the card with the provider for the subscription's
// charges. The sandbox keeps its brand, last four digits and expiry; with
// Stripe the PaymentMethod is already made by Stripe.js.
func (s *Service) saveCard(ctx context.Context, card payment.Card) (payment.SavedCard, error) {
	if sb, ok := s.Provider.(*payment.Sandbox); ok {
		return sb.SaveCard(ctx, card)
	}
	return payment.SavedCard{Ref: card.Number}, nil
}

// started turns a start's outcome into what the form shows.
func (s *Service) started(ctx context.Context, customerID string, sub Subscription, err error) (Subscription, validate.FieldErrors, error) {
	switch {
	case errors.Is(err, ErrAlreadySubscribed):
		// A concurrent submit won the race: show what it started.
		live, err := s.live(ctx, customerID)
		return orZero(live), nil, err
	case errors.Is(err, ErrDeclined):
		return sub, validate.ErrorOn("card", s.declineReason(ctx, sub.ID)), nil
	case errors.Is(err, ErrTrialUsed):
		// Not offered on the form; sent anyway (an old tab, the API).
		return Subscription{}, validate.ErrorOn("mode", ErrTrialUsed.ID), nil
	case errors.Is(err, ErrActionRequired):
		// Started, waiting for the bank's authentication, which the check
		// page asks the customer for.
		return sub, nil, nil
	case err != nil:
		id, err := refusalID(err)
		if err != nil {
			return Subscription{}, nil, err
		}
		return Subscription{}, validate.ErrorOn("card", id), nil
	}
	return sub, nil, nil
}

// declineReasons are the decline codes with their own message.
var declineReasons = map[string]bool{"card_declined": true, "insufficient_funds": true, "expired_card": true,
	"authentication_required": true, "card_not_supported": true}

// declineReason is the message id of why the first charge of a
// subscription was declined.
func (s *Service) declineReason(ctx context.Context, subID string) string {
	invs, err := s.Store.SubscriptionInvoices(ctx, s.Store.DB, subID)
	if err != nil {
		return declineGeneric
	}
	return declineReasonOf(invs)
}

const declineGeneric = "subscribe.decline.generic"

// declineReasonOf is the message id of the first declined invoice's code,
// when it has a message of its own.
func declineReasonOf(invs []Invoice) string {
	for _, inv := range invs {
		if inv.Status == store.InvoiceFailed && declineReasons[inv.FailureCode.String] {
			return "subscribe.decline." + inv.FailureCode.String
		}
	}
	return declineGeneric
}

// refusalID is the message id of a refusal of the customer's input (a 4xx
// apperr), or the error itself when it is another; "" for no error.
func refusalID(err error) (string, error) {
	if err == nil {
		return "", nil
	}
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Status < 500 {
		return ae.ID, nil
	}
	return "", err
}
