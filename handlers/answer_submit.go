package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/views"
)

// answerSubmitted serves /answer/submit/{p} and /quiz/submit/{p}: the
// answers are saved; get the report or change an answer.
func (s *Server) answerSubmitted(c echo.Context) error {
	r, err := s.flowResult(c)
	if err != nil {
		return flowError(c, err)
	}
	st := state(c)
	return s.render(c, http.StatusOK, views.Submitted(views.SubmittedPage{
		ReportHref: flowURL(c, "/answer/email", r.ID),
		EditHref:   st.LocalPath("/answer/question/"+pair(c).String()) + "?edit=1",
		Minutes:    (r.DurationSeconds + 30) / 60,
	}))
}
