package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/unsubscribe"
	"selfmap/views"
)

// cancelConfirmPage serves GET /cancel/confirm/{p}?t=...: what the link
// would cancel and a button to confirm, or, for a used or expired link,
// how the subscription ends or a button for one fresh link. Opening it
// changes nothing.
func (s *Server) cancelConfirmPage(c echo.Context) error {
	httpx.Private(c)
	if s.Unsubscribe == nil {
		return echo.ErrNotFound
	}
	token := c.QueryParam("t")
	page := views.CancelConfirmPage{Action: confirmAction(c), Token: token, RequestHref: cancelAction(c)}
	preview, err := s.Unsubscribe.Preview(c.Request().Context(), token)
	if err != nil {
		return s.cancelLinkRefused(c, page, preview.Spent, err)
	}
	page.None, page.Until = preview.None, httpx.LongDay(c, preview.AccessUntil)
	page.Ending = cancelEnding(c, preview.Ending)
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
		page := views.CancelConfirmPage{Action: confirmAction(c), Token: token, RequestHref: cancelAction(c)}
		return s.cancelLinkRefused(c, page, out.Spent, err)
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

// cancelLinkRefused shows why a link cannot be followed and what it still
// offers: how the subscription ends, or one fresh link (the form keeps the
// spent token, which names the mailbox).
func (s *Server) cancelLinkRefused(c echo.Context, page views.CancelConfirmPage, sp unsubscribe.Spent, err error) error {
	f, err := s.FormFailure(c, "cancel link", err)
	if err != nil {
		return err
	}
	page.Error = f.Id
	page.Cancelled, page.Ending = sp.Cancelled, cancelEnding(c, sp.Ending)
	if sp.Fresh {
		page.ResendAction = resendAction(c)
	} else {
		page.Token = ""
	}
	if sp.Fresh || sp.Cancelled {
		page.RequestHref = ""
	}
	return s.Render(c, f.Status, views.CancelConfirm(page))
}

// cancelEnding is how a subscription's access ends, for the cancel pages.
func cancelEnding(c echo.Context, e unsubscribe.Ending) views.CancelEnding {
	return views.CancelEnding{Until: httpx.LongDay(c, e.Until), Ended: e.Ended}
}
