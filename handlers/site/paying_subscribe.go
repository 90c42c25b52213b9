package site

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// subscribeCSS is the subscription screens' stylesheet, after checkout.css
// whose card fields they reuse.
func (s *Server) subscribeCSS() (string, string) {
	return s.Assets.URL("static/css/checkout.css"), s.Assets.URL("static/css/subscribe.css")
}

// refusalID is the message id of a service's refusal of the customer's
// input (a 4xx apperr), ok false for any other error.
func refusalID(err error) (string, bool) {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Status < 500 {
		return ae.ID, true
	}
	return "", false
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

// planCards words the plans for the screens, each linking to the landing
// with its plan (and promo, when one is typed), the chosen one selected;
// trial is whether their trials are offered.
func planCards(c echo.Context, plans []subscription.Offer, chosen, promo string, trial bool) []views.PlanCard {
	t := httpx.Tr(c)
	cards := make([]views.PlanCard, 0, len(plans))
	for _, p := range plans {
		card := httpx.PlanCard(t, p, trial)
		q := url.Values{"plan": {p.ID}}
		if promo != "" {
			q.Set("promo", promo)
		}
		card.Href = httpx.SubscribePath(c, "/paying/premiumSubscriptions", q) + "#subscribe"
		card.Selected = p.ID == chosen
		cards = append(cards, card)
	}
	return cards
}

// payingScheme serves /paying/scheme/{p}: the plans and their prices for
// the visitor's country, each with its button to start.
func (s *Server) payingScheme(c echo.Context) error {
	if s.Subscriptions == nil {
		return httpx.ErrSubscribeUnavailable
	}
	plans, err := s.Subscriptions.Plans(c.Request().Context(), s.Visitor(c))
	if err != nil {
		return err
	}
	chosen := ""
	if len(plans) > 0 {
		chosen = plans[0].ID
	}
	css, sub := s.subscribeCSS()
	return s.Render(c, http.StatusOK, views.Scheme(views.SchemePage{CSS: css, SubCSS: sub, Plans: planCards(c, plans, chosen, "", true)}))
}
