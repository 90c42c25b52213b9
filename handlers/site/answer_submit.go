package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/views"
)

// answerSubmitted serves /answer/submit/{p} and /quiz/submit/{p}: the
// answers are saved; get the report or change an answer. A test finished
// while signed in joins the account here at once, so My Page, the report
// list and the orders show it (at log-in otherwise).
func (s *Server) answerSubmitted(c echo.Context) error {
	r, err := s.flowResult(c)
	if err != nil {
		return flowError(c, err)
	}
	if err := s.Accounts.ClaimResult(c.Request().Context(), s.MemberID(c), r.ID, s.Owns(c)); err != nil {
		return err
	}
	st := httpx.State(c)
	return s.Render(c, http.StatusOK, views.Submitted(views.SubmittedPage{
		ReportHref: flowURL(c, "/answer/email", r.ID),
		EditHref:   st.LocalPath("/answer/question/"+httpx.Pair(c).String()) + "?edit=1",
		Minutes:    (r.DurationSeconds + 30) / 60,
	}))
}
