package site

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/result"
	"selfmap/internal/tracking"
	"selfmap/views"
)

// payingBuy serves /paying/buyreport/{p}: the full report, its price, and
// figures from the database. A paid order goes to its success screen, and
// a report the member's plan opens (Premium, a free report used) to the
// report.
func (s *Server) payingBuy(c echo.Context) error {
	id, err := s.flowID(c)
	if err != nil {
		return s.payError(c, err)
	}
	b, err := s.Checkout.Buy(c.Request().Context(), id, s.Owns(c), s.unlocked(c))
	if err != nil {
		return s.payError(c, err)
	}
	if b.Order.Paid() {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/success", b.Result.ID))
	}
	if b.Open {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/report/result", b.Result.ID))
	}
	httpx.State(c).AdEvents = []tracking.Event{{Name: tracking.ViewContent}}
	q := b.Quote
	lead, includes, err := s.buyWords(c, b.Result)
	if err != nil {
		return err
	}
	p := views.BuyPage{Lead: lead, Includes: includes, Price: httpx.MustFormat(q.Total, q.Currency), UnlockedToday: b.UnlockedToday,
		TestsTotal: b.TestsTotal, Demo: b.Demo, PayHref: flowURL(c, "/paying/payment", b.Result.ID)}
	if q.List > 0 {
		p.ListPrice = httpx.MustFormat(q.List, q.Currency)
	}
	return s.Render(c, http.StatusOK, views.Buy(p))
}

// buyWords says what a result's full report offers, in the exam's own
// words: the 16-type names the type and its four-part report; any other
// exam names its result (the instrument's headline) and lists what its
// question page promised (quiz.exam_<report>.includes_*).
func (s *Server) buyWords(c echo.Context, r result.Result) (string, []string, error) {
	t := httpx.Tr(c)
	h, err := s.Reports.Headline(c.Request().Context(), r, httpx.State(c).Locale)
	if err != nil {
		return "", nil, err
	}
	if h.TypePage != "" {
		return t.TD("buy.lead", map[string]any{"Type": h.Code}), []string{t.T("buy.includes_type"),
			t.T("buy.includes_dimensions"), t.T("buy.includes_strengths"), t.T("buy.includes_life")}, nil
	}
	e, _ := s.Exams.Exam(r.ExamID)
	texts := t.Messages("quiz.exam_" + strings.ToLower(e.Report) + ".")
	var includes []string
	for i := 1; texts["includes_"+strconv.Itoa(i)] != ""; i++ {
		includes = append(includes, texts["includes_"+strconv.Itoa(i)])
	}
	return t.TD("buy.lead_result", map[string]any{"Result": h.Title}), includes, nil
}

// unlocked asks the report service whether a report is open to the
// request's reader without paying, their plan applied.
func (s *Server) unlocked(c echo.Context) func(ctx context.Context, resultID string) (bool, error) {
	member := s.MemberID(c)
	return func(ctx context.Context, resultID string) (bool, error) {
		return s.Reports.Unlocked(ctx, resultID, member)
	}
}
