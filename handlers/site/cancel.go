package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/views"
)

// Session flash keys of the cancel pages.
const (
	flashCancelSent  = "cancel_sent"
	flashCancelUntil = "cancel_until"
)

// cancelPage serves GET /cancel/subscription/{p}: the form that mails a
// one-time cancel link, or, just after one was mailed, "check your
// mailbox".
func (s *Server) cancelPage(c echo.Context) error {
	httpx.Private(c)
	if s.Unsubscribe == nil {
		return echo.ErrNotFound
	}
	sent, err := s.TakeFlash(c, flashCancelSent)
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, views.CancelRequest(views.CancelRequestPage{Action: cancelAction(c), Sent: sent != ""}))
}

// cancelPost takes the form (POST /cancel/subscription/{p}). Sent redirects
// back to "check your mailbox" (Post/Redirect/Get); any other outcome shows
// the form again with the address kept and its message.
func (s *Server) cancelPost(c echo.Context) error {
	httpx.Private(c)
	if s.Unsubscribe == nil {
		return echo.ErrNotFound
	}
	email := c.FormValue("email")
	err := s.Unsubscribe.Send(c.Request().Context(), email, httpx.State(c).Locale, httpx.Pair(c).String())
	if err == nil {
		if err := s.AddFlash(c, "1", flashCancelSent); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, cancelAction(c))
	}
	f, err := s.FormFailure(c, "cancel", err)
	if err != nil {
		return err
	}
	return s.Render(c, f.Status, views.CancelRequest(views.CancelRequestPage{Action: cancelAction(c), Email: email, Error: f.Id,
		FieldError: f.Field}))
}

// cancelConfirmPage serves GET /cancel/confirm/{p}?t=...: what the link
// would cancel and a button to confirm. Opening it changes nothing.
func (s *Server) cancelConfirmPage(c echo.Context) error {
	httpx.Private(c)
	if s.Unsubscribe == nil {
		return echo.ErrNotFound
	}
	token := c.QueryParam("t")
	page := views.CancelConfirmPage{Action: confirmAction(c), Token: token, RequestHref: cancelAction(c)}
	preview, err := s.Unsubscribe.Preview(c.Request().Context(), token)
	if err != nil {
		return s.cancelLinkRefused(c, page, err)
	}
	page.None, page.Until = preview.None, httpx.Day(preview.AccessUntil)
	return s.Render(c, http.StatusOK, views.CancelConfirm(page))
}

// cancelConfirmPost follows the link (POST /cancel/confirm/{p}, the token
// in the form) and redirects to the success page, which says until when
// the access lasts. A replayed POST finds the link used and changes
// nothing.
func (s *Server) cancelConfirmPost(c echo.Context) error {
	httpx.Private(c)
	if s.Unsubscribe == nil {
		return echo.ErrNotFound
	}
	token := c.FormValue("t")
	out, err := s.Unsubscribe.Confirm(c.Request().Context(), token)
	if err != nil {
		return s.cancelLinkRefused(c, views.CancelConfirmPage{Action: confirmAction(c), RequestHref: cancelAction(c)}, err)
	}
	until := httpx.Day(out.AccessUntil)
	if until == "" {
		until = "ended"
	}
	if err := s.AddFlash(c, until, flashCancelUntil); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, httpx.State(c).LocalPath("/cancel/success/"+httpx.Pair(c).String()))
}

// cancelSuccess serves GET /cancel/success/{p}.
func (s *Server) cancelSuccess(c echo.Context) error {
	httpx.Private(c)
	until, err := s.TakeFlash(c, flashCancelUntil)
	if err != nil {
		return err
	}
	page := views.CancelSuccessPage{Until: until, Ended: until == "ended"}
	if page.Ended {
		page.Until = ""
	}
	return s.Render(c, http.StatusOK, views.CancelSuccess(page))
}

// cancelLinkRefused shows why a link cannot be followed.
func (s *Server) cancelLinkRefused(c echo.Context, page views.CancelConfirmPage, err error) error {
	f, err := s.FormFailure(c, "cancel link", err)
	if err != nil {
		return err
	}
	page.Error, page.Token = f.Id, ""
	return s.Render(c, f.Status, views.CancelConfirm(page))
}

func cancelAction(c echo.Context) string {
	return httpx.State(c).LocalPath("/cancel/subscription/" + httpx.Pair(c).String())
}

func confirmAction(c echo.Context) string {
	return httpx.State(c).LocalPath("/cancel/confirm/" + httpx.Pair(c).String())
}
