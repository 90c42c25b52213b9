package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/views"
)

// retrievePage serves GET /report/retrieve/{p}: the form that mails the
// links to a mailbox's paid reports.
func (s *Server) retrievePage(c echo.Context) error {
	httpx.Sensitive(c)
	return s.Render(c, http.StatusOK, views.Retrieve(views.RetrievePage{Action: retrieveAction(c)}))
}

// retrievePost takes the form (POST /report/retrieve/{p}). Sent redirects
// back with a flash (Post/Redirect/Get); any other outcome shows the form
// again with the address kept and its message. The page never shows a
// report or a link.
func (s *Server) retrievePost(c echo.Context) error {
	httpx.Sensitive(c)
	email := c.FormValue("email")
	err := s.Retrieval.Send(c.Request().Context(), email, httpx.State(c).Locale)
	if err == nil {
		sess := s.Session(c)
		sess.AddFlash(httpx.Tr(c).T("retrieve.sent"))
		if err := sess.Save(c.Request(), c.Response()); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, retrieveAction(c))
	}
	f, err := s.FormFailure(c, "retrieve", err)
	if err != nil {
		return err
	}
	return s.Render(c, f.Status, views.Retrieve(views.RetrievePage{Action: retrieveAction(c), Email: email, Error: f.Id, FieldError: f.Field}))
}

func retrieveAction(c echo.Context) string {
	return httpx.State(c).LocalPath("/report/retrieve/" + httpx.Pair(c).String())
}
