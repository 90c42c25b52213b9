package site

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/views"
)

// cancelResend serves POST /cancel/resend/{p}, the button of a used or
// expired link's page (its token in the form): one fresh link to the same
// mailbox, unless one went out minutes ago or nothing is left to cancel;
// the request page then says which (Post/Redirect/Get).
func (s *Server) cancelResend(c echo.Context) error {
	httpx.Private(c)
	if s.Unsubscribe == nil {
		return echo.ErrNotFound
	}
	answer, err := s.Unsubscribe.Resend(c.Request().Context(), c.FormValue("t"), httpx.State(c).Locale, httpx.Pair(c).String())
	if err == nil {
		return s.cancelAnswered(c, answer)
	}
	page := views.CancelConfirmPage{Action: confirmAction(c)}
	f, err := s.FormFailure(c, "cancel resend", err)
	if err != nil {
		return err
	}
	page.Error = f.Id
	return s.Render(c, f.Status, views.CancelConfirm(page))
}
