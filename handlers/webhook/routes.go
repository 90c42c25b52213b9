package webhook

import (
	"github.com/labstack/echo/v4"
)

// routes lists the payment providers' calls: each checks the
// provider's signature itself, so no session, CSRF token or rate limit
// applies.
func (s *Server) routes(e *echo.Echo) {
	e.POST("/pay/webhook/:provider", s.webhook)
}
