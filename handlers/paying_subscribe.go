package handlers

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/internal/apperr"
	"selfmap/internal/geo"
	"selfmap/internal/i18n"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// subscribeCSS is the subscription screens' stylesheet, after checkout.css
// whose card fields they reuse.
func (s *Server) subscribeCSS() (string, string) {
	return s.Assets.URL("static/css/checkout.css"), s.Assets.URL("static/css/subscribe.css")
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

// visitor is who asks for a subscription screen, as the subscription
// service reads them: the signed-in user, if any, and the region of their
// browser's language, which prices the plans when their tests gave no
// country.
func (s *Server) visitor(c echo.Context) subscription.Visitor {
	v := subscription.Visitor{Locale: state(c).Locale.Tag}
	if region, ok := geo.FromAcceptLanguage(c.Request().Header.Get("Accept-Language")); ok {
		v.Region = region
	}
	if u, ok, err := s.currentUser(c); err == nil && ok {
		v.CustomerID, v.Email = u.ID, u.Email
	}
	return v
}

// subscribeProps is what the subscribe island reads with the stripe
// provider: Stripe's key and locale, and the first charge as the element
// shows it.
type subscribeProps struct {
	PublishableKey string `json:"publishableKey"`
	StripeLocale   string `json:"stripeLocale"`
	Amount         int64  `json:"amount"`
	Currency       string `json:"currency"`
	Email          string `json:"email"`
	// ClientSecret is set on the check page of a start whose first
	// payment waits for 3-D Secure: the island finishes it.
	ClientSecret string            `json:"clientSecret,omitempty"`
	Messages     map[string]string `json:"messages"`
}

// subscribePath is a subscription screen of the request's pair and locale.
func subscribePath(c echo.Context, screen string, q url.Values) string {
	pr := pair(c)
	if pr.Code == "" {
		// The JSON calls have no pair in their path: the site's home pair.
		pr = state(c).Home
	}
	p := state(c).LocalPath(screen + "/" + pr.String())
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}

// planCard words a plan's prices: its first charge, what follows and the
// price per day (the period's price over its days, rounded to the cent).
// trial is whether the visitor is offered the plan's trial.
func planCard(t *i18n.Translator, p subscription.Offer, trial bool) views.PlanCard {
	price := mustFormat(p.Price, p.Currency)
	// "a month", "每月", "月額": a period of one has words of its own, which
	// a plural form cannot give in languages with only "other".
	every := t.TN("subscribe.every."+p.TimeUnit, p.Period, map[string]any{"Price": price})
	if p.Period == 1 {
		every = t.TD("subscribe.every_one."+p.TimeUnit, map[string]any{"Price": price})
	}
	card := views.PlanCard{ID: p.ID, Tier: p.Tier, Title: t.T("subscribe.tier." + p.Tier), Headline: every}
	if days := p.PeriodDays; days > 0 {
		card.PerDay = t.TD("subscribe.per_day", map[string]any{"Price": mustFormat((p.Price+int64(days)/2)/int64(days), p.Currency)})
	}
	if trial && p.HasTrial() {
		card.Trial = true
		card.Headline = t.TN("subscribe.trial", p.TrialDays, map[string]any{"Price": mustFormat(p.TrialPrice.Int64, p.Currency)})
		card.Then = t.TD("subscribe.then", map[string]any{"Every": every})
	}
	return card
}

// planCards words the plans for the screens, each linking to the landing
// with its plan (and promo, when one is typed), the chosen one selected;
// trial is whether their trials are offered.
func planCards(c echo.Context, plans []subscription.Offer, chosen, promo string, trial bool) []views.PlanCard {
	t := tr(c)
	cards := make([]views.PlanCard, 0, len(plans))
	for _, p := range plans {
		card := planCard(t, p, trial)
		q := url.Values{"plan": {p.ID}}
		if promo != "" {
			q.Set("promo", promo)
		}
		card.Href = subscribePath(c, "/paying/premiumSubscriptions", q) + "#subscribe"
		card.Selected = p.ID == chosen
		cards = append(cards, card)
	}
	return cards
}

// payingScheme serves /paying/scheme/{p}: the plans and their prices for
// the visitor's country, each with its button to start.
func (s *Server) payingScheme(c echo.Context) error {
	if s.Subscriptions == nil {
		return errSubscribeUnavailable
	}
	plans, err := s.Subscriptions.Plans(c.Request().Context(), s.visitor(c))
	if err != nil {
		return err
	}
	chosen := ""
	if len(plans) > 0 {
		chosen = plans[0].ID
	}
	css, sub := s.subscribeCSS()
	return s.render(c, http.StatusOK, views.Scheme(views.SchemePage{CSS: css, SubCSS: sub, Plans: planCards(c, plans, chosen, "", true)}))
}
