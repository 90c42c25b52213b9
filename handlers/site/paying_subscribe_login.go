package site

import (
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
)

// requireSubscriber is RequireUser for the subscription screens: a guest
// is sent to log in ("Please login first") and, once logged in or
// registered, comes back to the screen asked for.
func (s *Server) requireSubscriber(next echo.HandlerFunc) echo.HandlerFunc {
	guarded := s.RequireUser(next)
	return func(c echo.Context) error {
		if _, ok, err := s.CurrentUser(c); err != nil || ok {
			return guarded(c)
		}
		if c.Request().Method == "GET" && !httpx.IsAPIPath(c.Request().URL.Path) {
			back := httpx.State(c).LocalPath(c.Request().URL.Path)
			if q := c.Request().URL.RawQuery; q != "" {
				back += "?" + q
			}
			sess := s.Session(c)
			sess.Values[httpx.ReturnToKey] = back
		}
		return guarded(c)
	}
}

// takeReturnTo reads and forgets where a guest was going before logging
// in; "" when nowhere. Only a path of this site is returned.
func (s *Server) takeReturnTo(c echo.Context) string {
	sess := s.Session(c)
	back, _ := sess.Values[httpx.ReturnToKey].(string)
	delete(sess.Values, httpx.ReturnToKey)
	if !strings.HasPrefix(back, "/") || strings.HasPrefix(back, "//") || strings.HasPrefix(back, "/\\") {
		return ""
	}
	return back
}
