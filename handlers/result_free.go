package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/internal/exam/ipipneo"
	"selfmap/internal/report"
	"selfmap/views"
)

// resultFree serves /report/result-free-test/{p}: the type with its title
// and description, the five dimensions, and the way to the full report
// (which it opens once paid).
func (s *Server) resultFree(c echo.Context) error {
	r, err := s.flowResult(c)
	if err != nil {
		return flowError(c, err)
	}
	if paid, err := s.Results.Paid(c.Request().Context(), r.ID); err != nil {
		return err
	} else if paid {
		// Paid: the full report replaces the free result.
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/report/result", r.ID))
	}
	var scored ipipneo.Result
	if err := json.Unmarshal([]byte(r.Scores), &scored); err != nil {
		return fmt.Errorf("handlers: scores of result %s: %w", r.ID, err)
	}
	t := tr(c)
	letters, identity, _ := strings.Cut(scored.Type, "-")
	p := views.FreeResultPage{
		Type:            scored.Type,
		Title:           t.T("type." + letters + ".title"),
		Summary:         t.T("type." + letters + ".summary"),
		IdentityName:    t.T("identity." + identity + ".name"),
		IdentitySummary: t.T("identity." + identity + ".summary"),
		Neighbours:      strings.Join(scored.Neighbours, ", "),
		UnlockHref:      flowURL(c, "/paying/buyreport", r.ID),
		Fast:            report.AnsweredTooFast(r.DurationSeconds),
	}
	for _, d := range []string{"O", "C", "E", "A", "N"} {
		sc := scored.Domains[d]
		meaning := t.T("domain." + d + ".low")
		if sc.High() {
			meaning = t.T("domain." + d + ".high")
		}
		p.Domains = append(p.Domains, views.DomainBar{Code: d, Name: t.T("domain." + d + ".name"), Percent: sc.Percentile, Meaning: meaning})
	}
	return s.render(c, http.StatusOK, views.FreeResult(p))
}
