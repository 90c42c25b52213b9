package api

import (
	"io"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
)

// apiQuestionList serves GET /api/exam/question/list/{examId}/{lang}: the
// statements in the exam's fixed order and the answer scale (values, labels
// and stem: exam.Scale), in a language
// given by its hl code (EN, CN, ...) or its tag (en, zh-CN, ...).
func (s *Server) apiQuestionList(c echo.Context) error {
	e, err := s.examParam(c, "examId")
	if err != nil {
		return err
	}
	l, ok := i18n.BySpec(c.Param("lang"))
	if !ok {
		if l, ok = i18n.ByTag(c.Param("lang")); !ok {
			return httpx.APIInvalid("lang")
		}
	}
	return s.APIOK(c, map[string]any{
		"examId": e.ID, "version": e.FullVersion(), "parts": e.Parts, "pageSize": e.PageSize,
		"lang": l.Spec, "questions": e.Instrument.Questions(l.Tag), "scale": e.Instrument.Scale(l.Tag),
	})
}

// apiExamInfo serves GET /api/exam/info/{id}.
func (s *Server) apiExamInfo(c echo.Context) error {
	e, err := s.examParam(c, "id")
	if err != nil {
		return err
	}
	return s.APIOK(c, examInfo(c, e))
}

// apiCategoryList serves GET /api/exam/category/list: the exams by category.
func (s *Server) apiCategoryList(c echo.Context) error {
	type category struct {
		Category string `json:"category"`
		Name     string `json:"name"`
		Exams    []any  `json:"exams"`
	}
	var out []*category
	byName := map[string]*category{}
	for _, e := range s.Exams.List() {
		cat, ok := byName[e.Category]
		if !ok {
			cat = &category{Category: e.Category, Name: httpx.Tr(c).T("exam.category." + e.Category)}
			byName[e.Category] = cat
			out = append(out, cat)
		}
		cat.Exams = append(cat.Exams, examInfo(c, e))
	}
	return s.APIOK(c, out)
}

func examInfo(c echo.Context, e exam.Exam) map[string]any {
	return map[string]any{
		"id": e.ID, "codes": e.Codes, "name": httpx.Tr(c).T("exam.name_" + strconv.Itoa(e.ID)), "report": e.Report,
		"category": e.Category, "questions": e.Instrument.ItemCount(), "parts": e.Parts, "minutes": e.Minutes,
	}
}

func (s *Server) examParam(c echo.Context, name string) (exam.Exam, error) {
	id, err := strconv.Atoi(c.Param(name))
	if err != nil {
		return exam.Exam{}, httpx.APIInvalid(name)
	}
	e, ok := s.Exams.Exam(id)
	if !ok {
		return exam.Exam{}, apiUnknownExam()
	}
	return e, nil
}

// apiSubmitAnswers serves POST /api/exam/order/info: it scores a complete
// answer set, stores the result with its unpaid report order, and lets this
// browser see it.
func (s *Server) apiSubmitAnswers(c echo.Context) error {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, exam.MaxSubmissionBytes+1))
	if err != nil {
		return echo.ErrBadRequest
	}
	r, o, err := s.Results.Submit(c.Request().Context(), body, httpx.State(c).Locale.Tag)
	if err != nil {
		return err
	}
	if err := s.OwnResult(c, r.ID); err != nil {
		return err
	}
	// A test finished while signed in is the account's at once.
	if err := s.Accounts.ClaimResult(c.Request().Context(), s.MemberID(c), r.ID, s.Owns(c)); err != nil {
		return err
	}
	return s.APIOK(c, map[string]any{"resultId": r.ID, "orderNumber": o.OrderNumber, "type": r.ResultCode})
}

// apiUpdateEmail serves POST /api/exam/order/update/email: the address a
// report goes to, for an order of this browser's.
func (s *Server) apiUpdateEmail(c echo.Context) error {
	var req struct {
		OrderNumber string `json:"orderNumber"`
		Email       string `json:"email"`
	}
	if err := c.Bind(&req); err != nil {
		return httpx.APIInvalid("body")
	}
	msg, err := s.Results.SetOrderEmail(c.Request().Context(), req.OrderNumber, req.Email, s.Owns(c))
	if err != nil {
		return err
	}
	if msg != "" {
		return apperr.BadRequest(msg, nil)
	}
	return s.APIOK(c, map[string]string{"orderNumber": req.OrderNumber})
}
