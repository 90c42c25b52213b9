package handlers

import (
	"strings"

	"github.com/labstack/echo/v4"
)

// requireSubscriber is requireUser for the subscription screens: a guest
// is sent to log in ("Please login first") and, once logged in or
// registered, comes back to the screen asked for.
func (s *Server) requireSubscriber(next echo.HandlerFunc) echo.HandlerFunc {
	guarded := s.requireUser(next)
	return func(c echo.Context) error {
		if _, ok, err := s.currentUser(c); err != nil || ok {
			return guarded(c)
		}
		if c.Request().Method == "GET" && !isAPIPath(c.Request().URL.Path) {
			back := state(c).LocalPath(c.Request().URL.Path)
			if q := c.Request().URL.RawQuery; q != "" {
				back += "?" + q
			}
			sess := s.session(c)
			sess.Values[returnToKey] = back
		}
		return guarded(c)
	}
}

// takeReturnTo reads and forgets where a guest was going before logging
// in; "" when nowhere. Only a path of this site is returned.
func (s *Server) takeReturnTo(c echo.Context) string {
	sess := s.session(c)
	back, _ := sess.Values[returnToKey].(string)
	delete(sess.Values, returnToKey)
	if !strings.HasPrefix(back, "/") || strings.HasPrefix(back, "//") || strings.HasPrefix(back, "/\\") {
		return ""
	}
	return back
}
