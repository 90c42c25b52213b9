package site

import (
	"errors"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
)

// userBillingResume takes back the cancel of the member's subscription
// (POST /userCenter/setting/billing/resume): it renews again at the
// period's end. One that has ended, or another member's, answers as a
// missing one.
func (s *Server) userBillingResume(c echo.Context) error {
	if s.Subscriptions == nil {
		return httpx.NotFound()
	}
	_, err := s.Subscriptions.Resume(c.Request().Context(), httpx.User(c).ID, c.FormValue("subscription"))
	if errors.Is(err, subscription.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	return s.billingDone(c, "billing.resume.done")
}
