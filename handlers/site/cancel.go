package site

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/unsubscribe"
	"selfmap/views"
)

// Session flash keys of the cancel pages.
const (
	// flashCancelAsked carries what a request for a link was answered
	// (cancelAnswer) to the request page.
	flashCancelAsked = "cancel_sent"
	// flashCancelUntil carries a cancel just made, from the confirm POST to
	// the success page: the last day of access, or "ended".
	flashCancelUntil = "cancel_until"
)

// cancelPage serves GET /cancel/subscription/{p}: the form that mails a
// one-time cancel link, or what the last request was answered: "check your
// mailbox", "a fresh link went out minutes ago", or "already cancelled,
// until D".
func (s *Server) cancelPage(c echo.Context) error {
	httpx.Private(c)
	if s.Unsubscribe == nil {
		return echo.ErrNotFound
	}
	asked, err := s.TakeFlash(c, flashCancelAsked)
	if err != nil {
		return err
	}
	page := views.CancelRequestPage{Action: cancelAction(c), Sent: asked == "sent", Recent: asked == "recent"}
	if kind, day, ok := strings.Cut(asked, ":"); ok {
		page.Cancelled, page.Ending = true, views.CancelEnding{Until: httpx.LongDayOf(c, day), Ended: kind == "ended"}
	}
	return s.Render(c, http.StatusOK, views.CancelRequest(page))
}

// cancelPost takes the form (POST /cancel/subscription/{p}). An answer
// (a link mailed, or the subscription already cancelled) redirects back to
// the page that says it (Post/Redirect/Get); a refusal shows the form
// again with the address kept and its message.
func (s *Server) cancelPost(c echo.Context) error {
	httpx.Private(c)
	if s.Unsubscribe == nil {
		return echo.ErrNotFound
	}
	email := c.FormValue("email")
	answer, err := s.Unsubscribe.Send(c.Request().Context(), email, httpx.State(c).Locale, httpx.Pair(c).String())
	if err == nil {
		return s.cancelAnswered(c, answer)
	}
	f, err := s.FormFailure(c, "cancel", err)
	if err != nil {
		return err
	}
	return s.Render(c, f.Status, views.CancelRequest(views.CancelRequestPage{Action: cancelAction(c), Email: email, Error: f.Id,
		FieldError: f.Field}))
}

// cancelAnswered keeps a request's answer for the request page and goes
// there.
func (s *Server) cancelAnswered(c echo.Context, a unsubscribe.Answer) error {
	asked := "sent"
	switch {
	case a.Cancelled && a.Ending.Ended:
		asked = "ended:" + httpx.Day(a.Ending.Until)
	case a.Cancelled:
		asked = "until:" + httpx.Day(a.Ending.Until)
	case a.Recent:
		asked = "recent"
	}
	if err := s.AddFlash(c, asked, flashCancelAsked); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, cancelAction(c))
}

// cancelSuccess serves GET /cancel/success/{p}, once, after a cancel made
// in this browser (the confirm POST's flash); any other visit goes to the
// cancel page.
func (s *Server) cancelSuccess(c echo.Context) error {
	httpx.Private(c)
	until, err := s.TakeFlash(c, flashCancelUntil)
	if err != nil {
		return err
	}
	if until == "" {
		return c.Redirect(http.StatusSeeOther, cancelAction(c))
	}
	page := views.CancelSuccessPage{Ended: until == "ended"}
	if !page.Ended {
		page.Until = httpx.LongDayOf(c, until)
	}
	return s.Render(c, http.StatusOK, views.CancelSuccess(page))
}

func cancelAction(c echo.Context) string {
	return httpx.State(c).LocalPath("/cancel/subscription/" + httpx.Pair(c).String())
}

func confirmAction(c echo.Context) string {
	return httpx.State(c).LocalPath("/cancel/confirm/" + httpx.Pair(c).String())
}

func resendAction(c echo.Context) string {
	return httpx.State(c).LocalPath("/cancel/resend/" + httpx.Pair(c).String())
}
