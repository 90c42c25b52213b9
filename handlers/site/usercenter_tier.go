package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/subscription"
)

// requireTier lets through signed-in users whose plan includes tier t. A
// visitor who is not signed in is sent to log in ('Please login first');
// a signed-in user without the plan is sent to buy it (see refuseTier).
// The check reads the subscriptions on every request, so a cancelled or
// lapsed plan stops opening the page at once.
func (s *Server) requireTier(t subscription.Tier) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return s.RequireUser(func(c echo.Context) error {
			ent, err := s.Entitlement(c)
			if err != nil {
				return err
			}
			if !ent.Tier.Includes(t) {
				return s.refuseTier(c, ent.Tier)
			}
			return next(c)
		})
	}
}

// refuseTier answers a signed-in user whose plan lacks what they asked
// for: a basic subscriber is sent to upgrade, a free account to choose a
// plan; the API answers 403 in the envelope.
func (s *Server) refuseTier(c echo.Context, has subscription.Tier) error {
	if httpx.IsAPIPath(c.Request().URL.Path) {
		return &apperr.Error{Status: http.StatusForbidden, ID: "usercenter.error.upgrade_required"}
	}
	if err := s.Flash(c, httpx.Tr(c).T("usercenter.error.upgrade_required")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, httpx.UpgradeHref(c, has))
}
