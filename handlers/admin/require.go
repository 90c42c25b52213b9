package admin

import (
	"github.com/labstack/echo/v4"

	"selfmap/internal/account"
)

// requireAdmin lets admins through, the user read by user (httpx.User, set
// by RequireUser before it). Anyone else gets the page that is not found,
// as for any unknown URL: the back office does not say it exists.
func requireAdmin(user func(echo.Context) account.User) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !user(c).Admin() {
				return echo.ErrNotFound
			}
			return next(c)
		}
	}
}
