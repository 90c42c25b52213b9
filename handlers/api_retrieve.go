package handlers

import (
	"github.com/labstack/echo/v4"
)

// apiRetrieve serves POST /pay/exam/order/report/retrieve {"email": ...}:
// the same as the form, answered in the envelope. Nothing of a report is in
// the answer.
func (s *Server) apiRetrieve(c echo.Context) error {
	sensitive(c)
	var req struct {
		Email string `json:"email"`
	}
	if err := c.Bind(&req); err != nil {
		return apiInvalid("body")
	}
	if err := s.Retrieval.Send(c.Request().Context(), req.Email, state(c).Locale); err != nil {
		return err
	}
	return s.apiOK(c, map[string]string{"state": "sent", "message": tr(c).T("retrieve.sent")})
}
