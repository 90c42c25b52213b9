package api

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
)

// apiRetrieve serves POST /pay/exam/order/report/retrieve {"email": ...}:
// the same as the form, answered in the envelope. Nothing of a report is in
// the answer.
func (s *Server) apiRetrieve(c echo.Context) error {
	httpx.Sensitive(c)
	var req struct {
		Email string `json:"email"`
	}
	if err := c.Bind(&req); err != nil {
		return httpx.APIInvalid("body")
	}
	if err := s.Retrieval.Send(c.Request().Context(), req.Email, httpx.State(c).Locale); err != nil {
		return err
	}
	return s.APIOK(c, map[string]string{"state": "sent", "message": httpx.Tr(c).T("retrieve.sent")})
}
