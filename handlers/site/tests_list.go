package site

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/exam"
	"selfmap/views"
)

// testsList serves /tests/{p}: every test of the catalogue. A test starts
// with the page's own code when the page belongs to it.
func (s *Server) testsList(c echo.Context) error {
	p, t := httpx.Pair(c), httpx.Tr(c)
	var cards []views.TestCard
	for _, e := range s.Exams.List() {
		id := strconv.Itoa(e.ID)
		start := exam.Pair{Code: e.Codes[0], ExamID: e.ID}
		if p.ExamID == e.ID {
			start = p
		}
		cards = append(cards, views.TestCard{
			ID: e.ID, Name: t.T("exam.name_" + id), Summary: t.T("tests.summary_" + id), Category: t.T("exam.category." + e.Category),
			Questions: e.Instrument.ItemCount(), Parts: e.Parts, MinMinutes: e.Minutes[0], MaxMinutes: e.Minutes[1],
			StartHref: startHref(c, start),
		})
	}
	return s.Render(c, http.StatusOK, views.Tests(views.TestsPage{CSS: s.pagesCSS(), Tests: cards}))
}
