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
	"selfmap/internal/packs"
	"selfmap/internal/store"
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
		if err := s.addPacks(c, r, scored, &p); err != nil {
			return err
		}
	}
	return s.render(c, http.StatusOK, views.FreeResult(p))
}

// addPacks puts the sections of the packs a paid report's buyer has bought
// on the report, chosen by their facet scores, and the way to the others.
func (s *Server) addPacks(c echo.Context, r store.Result, scored ipipneo.Result, p *views.FreeResultPage) error {
	offers, err := s.packOffers(c.Request().Context(), r)
	if err != nil {
		return err
	}
	percentiles := make(map[string]int, len(scored.Facets))
	for code, sc := range scored.Facets {
		percentiles[code] = sc.Percentile
	}
	t := tr(c)
	for _, step := range packs.Steps {
		offer, ok := offers[step]
		if !ok {
			continue
		}
		if !offer.Owned() {
			p.PacksHref = flowURL(c, "/paying/package", r.ID)
			continue
		}
		name := packs.Name(offer.SKU.SKU.ID)
		pc := views.PackContent{Name: t.T("sku." + offer.SKU.SKU.ID + ".name"), Intro: t.T("pack." + name + ".intro")}
		for _, sec := range packs.Sections(name, percentiles) {
			pc.Sections = append(pc.Sections, views.PackSection{Facet: t.T("facet." + sec.Facet), Percent: sec.Percentile, Text: t.T(sec.Key)})
		}
		p.Packs = append(p.Packs, pc)
	}
	return nil
}
