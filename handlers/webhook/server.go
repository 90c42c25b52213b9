// Package webhook holds the handlers of the payment providers' calls. Every route is listed in
// routes.go; each file is one screen or action.
package webhook

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
)

// Server is this surface's handlers: httpx's shared server (the services,
// rendering, request state) with this surface's methods.
type Server struct{ *httpx.Server }

// Routes registers the surface's routes on e, served by base.
func Routes(e *echo.Echo, base *httpx.Server) {
	s := &Server{base}
	s.routes(e)
}
