package webhook

import (
	"errors"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/payment"
)

// webhook serves POST /pay/webhook/{provider}: the one door through which
// payment outcomes arrive. It is authenticated by the provider's signature,
// not by a session, so it is exempt from CSRF.
func (s *Server) webhook(c echo.Context) error {
	if c.Param("provider") != s.Checkout.Provider.Name() {
		return echo.ErrNotFound
	}
	payload, err := io.ReadAll(io.LimitReader(c.Request().Body, maxWebhookBytes+1))
	if err != nil || len(payload) > maxWebhookBytes {
		return echo.ErrStatusRequestEntityTooLarge
	}
	// A subscription's event (Stripe Billing) goes to the subscription
	// service; everything else (an order's payment, an event it does not
	// take, a delivery it could not verify) to checkout as before, which
	// verifies it again and answers it.
	handled := false
	if s.Subscriptions != nil {
		handled, err = s.Subscriptions.Receive(c.Request().Context(), payload, c.Request().Header)
	}
	if !handled {
		err = s.Checkout.Receive(c.Request().Context(), payload, c.Request().Header)
	}
	if errors.Is(err, payment.ErrBadSignature) {
		s.Logger.WarnContext(c.Request().Context(), "webhook: refused delivery", "err", err)
		return c.JSON(http.StatusBadRequest, map[string]string{"error": "bad signature"})
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"received": true})
}

// maxWebhookBytes bounds a webhook delivery.
const maxWebhookBytes = 64 << 10
