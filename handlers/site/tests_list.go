package site

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/catalogue"
	"selfmap/internal/exam"
	"selfmap/views"
)

// testsList serves /tests/{p}: every test of the catalogue, with its full
// report priced for the visitor's country. A test starts with the page's
// own code when the page belongs to it.
func (s *Server) testsList(c echo.Context) error {
	p, t := httpx.Pair(c), httpx.Tr(c)
	exams := s.Exams.List()
	ids := make([]int, len(exams))
	for i, e := range exams {
		ids[i] = e.ID
	}
	country := visitorRegion(c)
	if country == "" {
		country = catalogue.Default
	}
	reports, err := s.Catalogue.ReportPrices(c.Request().Context(), ids, country)
	if err != nil {
		return err
	}
	var cards []views.TestCard
	for _, e := range exams {
		id := strconv.Itoa(e.ID)
		start := exam.Pair{Code: e.Codes[0], ExamID: e.ID}
		if p.ExamID == e.ID {
			start = p
		}
		card := views.TestCard{
			ID: e.ID, Name: t.T("exam.name_" + id), Summary: t.T("tests.summary_" + id), Category: t.T("exam.category." + e.Category),
			Questions: e.Instrument.ItemCount(), Parts: e.Parts, MinMinutes: e.Minutes[0], MaxMinutes: e.Minutes[1],
			StartHref: startHref(c, start),
		}
		if r, ok := reports[e.ID]; ok {
			card.Report, card.ReportShows = t.T("sku."+r.SKU.ID+".name"), t.T("sku."+r.SKU.ID+".desc")
			card.Price = httpx.MustFormat(r.Amount, r.Currency)
		}
		cards = append(cards, card)
	}
	return s.Render(c, http.StatusOK, views.Tests(views.TestsPage{CSS: s.pagesCSS(), Tests: cards, More: len(cards) < 2}))
}
