package site

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/exam"
	"selfmap/views"
)

// quizProps is what the question-flow island reads (docs/quiz-island.md).
type quizProps struct {
	ExamID       int               `json:"examId"`
	Code         string            `json:"code"`
	Version      string            `json:"version"`
	Questions    any               `json:"questions"`
	Scale        exam.Scale        `json:"scale"`
	Parts        int               `json:"parts"`
	PageSize     int               `json:"pageSize"`
	SubmitURL    string            `json:"submitUrl"`
	SubmittedURL string            `json:"submittedUrl"`
	CSRF         string            `json:"csrf"`
	StorageKey   string            `json:"storageKey"`
	Edit         bool              `json:"edit"`
	Texts        views.QuizTexts   `json:"texts"`
	Messages     map[string]string `json:"messages"`
}

// quiz serves /answer/question/{p} and /quiz/standard/{p}: the question
// flow, its first page rendered here and the rest run by the island.
func (s *Server) quiz(c echo.Context) error {
	p := httpx.Pair(c)
	e, ok := s.Exams.Exam(p.ExamID)
	if !ok {
		return httpx.NotFound()
	}
	st := httpx.State(c)
	flow := e.Flow(st.Locale.Tag)
	texts := quizTexts(httpx.Tr(c), e.Report)
	edit := c.QueryParam("edit") == "1"
	// The answers-submitted screen keeps the visit's kept parameters (an
	// ad's click id, the landing's theme), as every later step does.
	submitted := st.LocalPath("/answer/submit/" + p.String())
	if q := httpx.TrackingQuery(st.Query); len(q) > 0 {
		submitted += "?" + q.Encode()
	}
	return s.Render(c, http.StatusOK, views.Quiz(views.QuizPage{
		First: flow.FirstPage(), Total: len(flow.Questions), Parts: flow.Parts, Scale: flow.Scale, Texts: texts, Edit: edit,
		Props: quizProps{
			ExamID: e.ID, Code: p.Code, Version: e.FullVersion(), Questions: flow.Questions, Scale: flow.Scale, Parts: flow.Parts, PageSize: flow.PageSize,
			SubmitURL:    "/api/exam/order/info?hl=" + st.Locale.Spec,
			SubmittedURL: submitted,
			CSRF:         st.CSRF,
			// One key per exam and version: the report code, then the exam.
			StorageKey: e.Report + "-" + strconv.Itoa(e.ID) + "-" + e.FullVersion(),
			Edit:       edit,
			Texts:      texts,
			Messages:   quizMessages(httpx.Tr(c)),
		},
		CSS: s.Assets.URL("static/css/quiz.css"),
	}))
}
