package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/internal/apperr"
	"selfmap/internal/geo"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/subscription"
)

// subscribeCard is the card as the form or the API sends it: with the
// sandbox, the card's fields (checked, saved as brand and last four, and
// dropped); with Stripe, only the PaymentMethod id Stripe.js made.
type subscribeCard struct {
	Number, Expiry, CVC, Name, Postal string
	PaymentMethod                     string
}

// errSubscribeUnavailable answers when the payment provider cannot run
// subscriptions.
var errSubscribeUnavailable = &apperr.Error{Status: http.StatusServiceUnavailable, ID: "subscribe.unavailable"}

// refusalID is the message id of a service's refusal of the customer's
// input (a 4xx apperr), ok false for any other error.
func refusalID(err error) (string, bool) {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Status < 500 {
		return ae.ID, true
	}
	return "", false
}

// startSubscription checks a subscription request and starts it for the
// signed-in user. errs holds a message id per refused field ("card" for a
// declined card, with the expired subscription it left). A user who
// already has a live subscription gets it back unchanged: a double submit
// starts one subscription and one charge.
func (s *Server) startSubscription(c echo.Context, in subscribeInput, card subscribeCard) (store.Subscription, map[string]string, error) {
	if s.Subscriptions == nil {
		return store.Subscription{}, nil, errSubscribeUnavailable
	}
	ctx := c.Request().Context()
	u := user(c)
	if live, ok, err := s.liveSubscription(c); err != nil || (ok && !s.Subscriptions.Stalled(live)) {
		return live, nil, err
	}
	errs := map[string]string{}
	country := s.subscribeCountry(c)
	plan, err := s.Store.GetPlan(ctx, in.PlanID, country)
	switch {
	case errors.Is(err, store.ErrNotFound):
		errs["plan"] = "subscribe.error.plan"
	case err != nil:
		return store.Subscription{}, nil, err
	}
	payNow := in.Mode == "paynow"
	switch {
	case in.Mode != "trial" && !payNow:
		errs["mode"] = "subscribe.error.mode"
	case !payNow && s.offerClosed(c):
		errs["mode"] = "subscribe.error.offer_closed"
	}
	if !in.Agreed {
		errs["terms"] = "subscribe.error.terms"
	}
	if in.Promo != "" && plan.ID != "" {
		promo, err := subscription.FindPromo(ctx, s.Store, in.Promo, plan.ID)
		if err == nil {
			_, err = subscription.FirstCharge(plan, promo, payNow, s.Subscriptions.Now())
		}
		if err != nil {
			if errs["promo"], err = apperrID(err); err != nil {
				return store.Subscription{}, nil, err
			}
		}
	}
	method, cardErrs := s.checkSubscribeCard(card, country)
	for k, v := range cardErrs {
		errs[k] = v
	}
	if len(errs) > 0 {
		return store.Subscription{}, errs, nil
	}
	// Each card tried counts against the account, from any address: a
	// stolen-card tester gets a few tries, not a list's worth.
	if ok, err := s.cardAttempts.Allow("user:" + u.ID); err != nil {
		return store.Subscription{}, nil, err
	} else if !ok {
		return store.Subscription{}, map[string]string{"card": "subscribe.error.too_many_cards"}, nil
	}
	saved, err := s.saveCard(c, method)
	if err != nil {
		return store.Subscription{}, nil, err
	}
	start := s.Subscriptions.StartTrial
	if payNow {
		start = s.Subscriptions.PayNow
	}
	sub, err := start(ctx, subscription.StartInput{CustomerID: u.ID, Email: u.Email, Locale: state(c).Locale.Tag, Country: country,
		PlanID: plan.ID, Method: saved, PromoCode: in.Promo})
	switch {
	case errors.Is(err, subscription.ErrAlreadySubscribed):
		// A concurrent submit won the race: show what it started.
		live, _, err := s.liveSubscription(c)
		return live, nil, err
	case errors.Is(err, subscription.ErrDeclined):
		return sub, map[string]string{"card": s.declineReason(c, sub)}, nil
	case errors.Is(err, subscription.ErrTrialUsed):
		// Not offered on the form; sent anyway (an old tab, the API).
		return store.Subscription{}, map[string]string{"mode": "sub.trial_used"}, nil
	case errors.Is(err, subscription.ErrActionRequired):
		// Started, waiting for the bank's authentication, which the check
		// page asks the customer for.
		return sub, nil, nil
	case err != nil:
		if id, ok := refusalID(err); ok {
			return store.Subscription{}, map[string]string{"card": id}, nil
		}
		return store.Subscription{}, nil, err
	}
	return sub, nil, nil
}

// checkSubscribeCard checks the card as the checkout's card form is
// checked, and answers a message id per refused field.
func (s *Server) checkSubscribeCard(card subscribeCard, country string) (payment.Card, map[string]string) {
	if s.Checkout.Provider.Name() == "stripe" {
		pm := strings.TrimSpace(card.PaymentMethod)
		if !strings.HasPrefix(pm, "pm_") || len(pm) > 255 {
			return payment.Card{}, map[string]string{"card": "subscribe.error.card_missing"}
		}
		return payment.Card{Number: pm}, nil
	}
	month, year := parseExpiry(card.Expiry)
	in := payment.CardInput{Number: card.Number, ExpMonth: month, ExpYear: year, CVC: strings.TrimSpace(card.CVC), Name: card.Name,
		PostalCode: card.Postal, NoPostalCode: !geo.UsesPostalCode(country)}
	number, errs := in.Check(s.Checkout.Now())
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

// saveCard keeps the card with the provider for the subscription's
// charges. The sandbox keeps its brand, last four digits and expiry; with
// Stripe the PaymentMethod is already made by Stripe.js.
func (s *Server) saveCard(c echo.Context, card payment.Card) (payment.SavedCard, error) {
	if sb, ok := s.Checkout.Provider.(*payment.Sandbox); ok {
		return sb.SaveCard(c.Request().Context(), card)
	}
	return payment.SavedCard{Ref: card.Number}, nil
}

// declineReasons are the decline codes with their own message.
var declineReasons = map[string]bool{"card_declined": true, "insufficient_funds": true, "expired_card": true,
	"authentication_required": true, "card_not_supported": true}

// declineReason is the message id of why the first charge of a
// subscription was declined.
func (s *Server) declineReason(c echo.Context, sub store.Subscription) string {
	invs, err := s.Store.SubscriptionInvoices(c.Request().Context(), sub.ID)
	if err == nil {
		for _, inv := range invs {
			if inv.Status == store.InvoiceFailed && declineReasons[inv.FailureCode.String] {
				return "subscribe.decline." + inv.FailureCode.String
			}
		}
	}
	return "subscribe.decline.generic"
}
