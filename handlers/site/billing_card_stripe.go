package site

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
)

// userBillingCardSetup starts replacing the card of the member's
// subscription with Stripe's card form (POST
// /userCenter/setting/billing/card/setup, from the island): it answers the
// SetupIntent's client secret, which Stripe.js confirms in the browser.
func (s *Server) userBillingCardSetup(c echo.Context) error {
	httpx.Sensitive(c)
	if s.Subscriptions == nil {
		return httpx.NotFound()
	}
	secret, err := s.Subscriptions.StartCardSetup(c.Request().Context(), httpx.User(c).ID, c.FormValue("subscription"))
	if errors.Is(err, subscription.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"clientSecret": secret})
}

// userBillingCardStripe finishes it (POST
// /userCenter/setting/billing/card/stripe): the confirmed SetupIntent's
// card becomes the subscription's. A SetupIntent that is not the member's,
// or not confirmed, and another member's subscription answer as missing.
func (s *Server) userBillingCardStripe(c echo.Context) error {
	if s.Subscriptions == nil {
		return httpx.NotFound()
	}
	_, err := s.Subscriptions.FinishCardSetup(c.Request().Context(), httpx.User(c).ID, c.FormValue("subscription"), c.FormValue("setup_intent"))
	if errors.Is(err, subscription.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	return s.billingDone(c, "billing.card.done")
}
