package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// userCancelPage serves GET /userCenter/cancel: the confirmation without
// JavaScript (with it, the home's dialog asks instead). With nothing left
// to cancel it goes back to the home.
func (s *Server) userCancelPage(c echo.Context) error {
	p, err := s.userCenterPage(c, "home")
	if err != nil {
		return err
	}
	if p.Tier == string(subscription.TierGuest) || p.Ending {
		return c.Redirect(http.StatusSeeOther, httpx.State(c).LocalPath("/userCenter/home"))
	}
	p.CancelHref, p.BackHref = httpx.State(c).LocalPath("/userCenter/cancel"), httpx.State(c).LocalPath("/userCenter/home")
	return s.Render(c, http.StatusOK, views.UserCancel(p))
}

// userCancelPost cancels the signed-in user's own subscription (POST
// /userCenter/cancel, CSRF checked by the middleware): no further charge,
// access until the paid period ends. It reads the subscription from the
// session's user, never from the request, so nobody cancels another's.
// Replayed, it finds the subscription already ending, writes nothing and
// the home says the same again.
func (s *Server) userCancelPost(c echo.Context) error {
	home := httpx.State(c).LocalPath("/userCenter/home")
	if s.Subscriptions == nil {
		return c.Redirect(http.StatusSeeOther, home)
	}
	end, err := s.Subscriptions.CancelOwn(c.Request().Context(), httpx.User(c).ID)
	if err != nil {
		return err
	}
	if end.None {
		return c.Redirect(http.StatusSeeOther, home)
	}
	until := httpx.Day(end.Until)
	if end.Ended {
		until = "ended"
	}
	if err := s.AddFlash(c, until, flashCancelled); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, home)
}
