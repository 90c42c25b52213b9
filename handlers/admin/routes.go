package admin

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
)

// routes lists the back office's routes. Every one is in the /admin group,
// behind a signed-in user (RequireUser) who is an admin (requireAdmin).
func (s *Server) routes(e *echo.Echo) {
	g := e.Group("/admin", s.RequireUser, requireAdmin(httpx.User))
	_ = g // the admin issue adds the back office's screens here
}
