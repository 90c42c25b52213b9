package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/internal/billing"
	"selfmap/internal/exam/ipipneo"
	"selfmap/views"
)

// resultFree serves /report/result-free-test/{p}: the type with its title
// and description, the five dimensions, and the way to the full report.
func (s *Server) resultFree(c echo.Context) error {
	r, err := s.flowResult(c)
	if err != nil {
		return flowError(c, err)
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
	}
	for _, d := range []string{"O", "C", "E", "A", "N"} {
		sc := scored.Domains[d]
		meaning := t.T("domain." + d + ".low")
		if sc.High() {
			meaning = t.T("domain." + d + ".high")
		}
		p.Domains = append(p.Domains, views.DomainBar{Code: d, Name: t.T("domain." + d + ".name"), Percent: sc.Percentile, Meaning: meaning})
	}
	if o, err := s.Store.OrderForResult(c.Request().Context(), r.ID); err == nil && billing.Status(o.Status) == billing.Paid {
		p.Unlocked = true
		for _, d := range ipipneo.Domains {
			for f := 1; f <= 6; f++ {
				code := d + strconv.Itoa(f)
				p.Facets = append(p.Facets, views.DomainBar{Code: code, Name: t.T("facet." + code), Percent: scored.Facets[code].Percentile})
			}
		}
	}
	return s.render(c, http.StatusOK, views.FreeResult(p))
}
