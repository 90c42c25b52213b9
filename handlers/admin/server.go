// Package admin is the back office: a group under /admin that only admins
// (store.RoleAdmin, granted with `selfmap admin grant EMAIL`) get into. It
// has no screens yet; the admin issue adds them here, one file each, and
// lists them in routes.go.
package admin

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
)

// Server is the back office's handlers: httpx's shared server with the
// back office's methods.
type Server struct{ *httpx.Server }

// Routes registers the back office's routes on e, served by base.
func Routes(e *echo.Echo, base *httpx.Server) {
	s := &Server{base}
	s.routes(e)
}
