package handlers

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/internal/exam/ipipneo"
	"selfmap/internal/geo"
	"selfmap/internal/i18n"
	"selfmap/internal/packs"
	"selfmap/internal/report"
	"selfmap/internal/retrieve"
	"selfmap/internal/store"
	"selfmap/views"
)

// reportView is the result a report screen is about, and what the
// screen's own links carry to reach it again.
type reportView struct {
	result store.Result
	// query names the result for the browser or account that owns it
	// (?r=); a link's holder gets none: the session remembers the link.
	query url.Values
	// owner is the test-taker's browser or account, which may buy more.
	owner bool
}

// reportAccess finds the result a report screen is about: a report link
// (?t=, anyone holding the link, for retrieve.LinkLifetime and until its
// owner withdraws it), the browser or account that took the test (?r=),
// or else the link this browser opened last. The token never reaches a
// link of the page: the session keeps its hash instead. A report that is
// not paid, or a token that opens nothing, answers exactly like a missing
// page; a link that expired or was withdrawn says so; the test-taker's own
// browser is sent to the product page instead.
func (s *Server) reportAccess(c echo.Context) (reportView, error) {
	sensitive(c)
	if token := c.QueryParam("t"); token != "" {
		if len(token) > 128 {
			return reportView{}, notFound()
		}
		return s.linkedReport(c, store.HashToken(token))
	}
	if c.QueryParam("r") == "" {
		if hash := s.openedReportLink(c); hash != "" {
			return s.linkedReport(c, hash)
		}
	}
	r, err := s.flowResult(c)
	if err != nil {
		return reportView{}, err
	}
	if paid, err := s.Results.Paid(c.Request().Context(), r.ID); err != nil {
		return reportView{}, err
	} else if !paid {
		return reportView{}, redirectError{to: flowURL(c, "/paying/buyreport", r.ID)}
	}
	return reportView{result: r, query: url.Values{"r": {r.ID}}, owner: true}, nil
}

// linkedReport opens the paid report of a link, found by its token's hash,
// and remembers the link for the report's next screens. The owner's
// browser or account, holding a link too, keeps its own way in.
func (s *Server) linkedReport(c echo.Context, hash string) (reportView, error) {
	ctx := c.Request().Context()
	id, err := s.Retrieval.Open(ctx, hash)
	if err != nil {
		if errors.Is(err, retrieve.ErrLinkClosed) && s.openedReportLink(c) == hash {
			if err := s.rememberReportLink(c, ""); err != nil {
				return reportView{}, err
			}
		}
		return reportView{}, err
	}
	if paid, err := s.Results.Paid(ctx, id); err != nil || !paid {
		return reportView{}, cmp.Or(err, notFound())
	}
	r, err := s.Store.GetResult(ctx, id)
	if err != nil {
		return reportView{}, err
	}
	if s.owns(c)(r.ID) {
		return reportView{result: r, query: url.Values{"r": {r.ID}}, owner: true}, nil
	}
	if err := s.rememberReportLink(c, hash); err != nil {
		return reportView{}, err
	}
	return reportView{result: r, query: url.Values{}}, nil
}

// reportURL is a report screen of the request's pair and locale.
func reportURL(c echo.Context, screen string, q url.Values) string {
	u := state(c).LocalPath(screen + "/" + pair(c).String())
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// reportResult serves /report/result/{p}: the full report, in two tabs.
func (s *Server) reportResult(c echo.Context) error {
	v, err := s.reportAccess(c)
	if err != nil {
		return s.reportError(c, err)
	}
	r, q := v.result, v.query
	p, err := s.reportPage(c.Request().Context(), tr(c), state(c).Locale, r)
	if err != nil {
		return err
	}
	tab := c.QueryParam("tab")
	if tab != "dimensions" {
		tab = "overview"
	}
	with := func(k, v string) url.Values {
		out := url.Values{}
		for key, vals := range q {
			out[key] = vals
		}
		out.Set(k, v)
		return out
	}
	p.Tab = tab
	p.OverviewHref = reportURL(c, "/report/result", q)
	p.DimensionsHref = reportURL(c, "/report/result", with("tab", "dimensions"))
	p.DownloadHref = reportURL(c, "/report/result-download", q)
	p.RatingAction = reportURL(c, "/report/rating", q)
	p.TestsHref = state(c).LocalPath("/tests/" + pair(c).String())
	p.CSS = s.Assets.URL("static/css/report.css")
	p.Share = shareLinks(state(c).BaseURL+state(c).LocalPath("/types/"+pair(c).String()+"/"+strings.ToLower(p.Letters)), p.Title)
	if v.owner {
		p.PacksHref = s.unboughtPacksHref(c, r)
	}
	p.Rated = s.ratingOf(c.Request().Context(), r.ID)
	if e := c.QueryParam("rating"); e == "invalid" {
		p.RatingError = "report.page.rating_invalid"
	}
	return s.render(c, http.StatusOK, views.Report(p))
}

// unboughtPacksHref leads to the upsell when a pack is left to buy.
func (s *Server) unboughtPacksHref(c echo.Context, r store.Result) string {
	offers, err := s.packOffers(c.Request().Context(), r)
	if err != nil {
		return ""
	}
	for _, o := range offers {
		if !o.Owned() {
			return flowURL(c, "/paying/package", r.ID)
		}
	}
	return ""
}

// reportPage builds the report of a paid result in a locale: the web page
// and the PDF share it.
func (s *Server) reportPage(ctx context.Context, t *i18n.Translator, l i18n.Locale, r store.Result) (views.ReportPage, error) {
	var scored ipipneo.Result
	if err := json.Unmarshal([]byte(r.Scores), &scored); err != nil {
		return views.ReportPage{}, fmt.Errorf("handlers: scores of result %s: %w", r.ID, err)
	}
	stats, err := s.ReportStats.Get(ctx, r.ExamID)
	if err != nil {
		return views.ReportPage{}, err
	}
	o, err := s.Store.OrderForResult(ctx, r.ID)
	if err != nil {
		return views.ReportPage{}, err
	}
	letters, identity, _ := strings.Cut(scored.Type, "-")
	pop := stats.Population(letters)
	group, _ := report.NormGroup(scored.NormGroup)
	p := views.ReportPage{
		Name: strings.TrimSpace(r.FirstName.String), Order: o.OrderNumber, Date: r.CreatedAt.Format("2006-01-02"),
		Type: scored.Type, Letters: letters, Title: t.T("type." + letters + ".title"), Summary: t.T("type." + letters + ".summary"),
		IdentityName: t.T("identity." + identity + ".name"), IdentitySummary: t.T("identity." + identity + ".summary"),
		Keywords: t.T("report.keywords." + letters),
		Population: []views.ReportShare{
			shareOf(t, l, "report.page.population_all", pop.All),
			shareOf(t, l, "report.page.population_male", pop.Male),
			shareOf(t, l, "report.page.population_female", pop.Female),
		},
		MinSample: report.MinSample, NormGroup: normGroupWords(t, group), Neighbours: strings.Join(scored.Neighbours, ", "),
		RecentN: len(stats.Recent["E"]), Minutes: r.DurationSeconds / 60, Seconds: r.DurationSeconds % 60,
		Fast: report.AnsweredTooFast(r.DurationSeconds), Demo: stats.Demo,
		Strengths: t.T("typeprofile." + letters + ".strengths"), Challenges: t.T("typeprofile." + letters + ".challenges"),
		Work: t.T("typeprofile." + letters + ".work"), Relationships: t.T("typeprofile." + letters + ".relationships"),
		Growth: t.T("typeprofile." + letters + ".growth"),
	}
	for _, ln := range report.Leans(scored) {
		low := ln.Other
		if ln.Pole != ln.High {
			low = ln.Pole
		}
		p.Leans = append(p.Leans, views.ReportLean{Domain: ln.Domain, High: ln.High, Low: low, HighPercent: ln.HighPercent,
			Pole: ln.Pole, Percent: ln.Percent, Level: ln.Level, Text: t.T("report.pole." + ln.Pole + ".level" + strconv.Itoa(ln.Level))})
	}
	for _, d := range []string{"O", "C", "E", "A", "N"} {
		sc := scored.Domains[d]
		rank := -1
		if p.RecentN >= report.MinSample {
			rank = stats.Rank(d, sc.Percentile)
		}
		p.Domains = append(p.Domains, views.ReportScale{Code: d, Name: t.T("domain." + d + ".name"), Percentile: sc.Percentile,
			Text: t.T("report.domain." + d + "." + ipipneo.Band(sc.Percentile)), Rank: rank, Norm: normLine(t, l, sc, group, d)})
		g := views.ReportFacets{Domain: t.T("domain." + d + ".name")}
		for f := 1; f <= 6; f++ {
			code := d + strconv.Itoa(f)
			fs := scored.Facets[code]
			g.Facets = append(g.Facets, views.ReportScale{Code: code, Name: t.T("facet." + code), Percentile: fs.Percentile,
				Text: t.T("report.facet." + code + "." + ipipneo.Band(fs.Percentile))})
		}
		p.Facets = append(p.Facets, g)
	}
	for _, c := range stats.Countries {
		name := geo.Name(l.Tag, c.Country)
		if name == "" {
			name = c.Country
		}
		p.Countries = append(p.Countries, views.ReportCountry{Name: name, Count: c.N})
	}
	if p.Packs, err = s.boughtPacks(ctx, t, r, scored); err != nil {
		return views.ReportPage{}, err
	}
	return p, nil
}

// boughtPacks are the sections of the packs a result's buyer has paid for,
// chosen by their facet scores.
func (s *Server) boughtPacks(ctx context.Context, t *i18n.Translator, r store.Result, scored ipipneo.Result) ([]views.PackContent, error) {
	owned, err := s.ownedPacks(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	percentiles := make(map[string]int, len(scored.Facets))
	for code, sc := range scored.Facets {
		percentiles[code] = sc.Percentile
	}
	var out []views.PackContent
	for _, o := range owned {
		sku := o.SKUID.String
		name := packs.Name(sku)
		pc := views.PackContent{Name: t.T("sku." + sku + ".name"), Intro: t.T("pack." + name + ".intro")}
		for _, sec := range packs.Sections(name, percentiles) {
			pc.Sections = append(pc.Sections, views.PackSection{Facet: t.T("facet." + sec.Facet), Percent: sec.Percentile, Text: t.T(sec.Key)})
		}
		out = append(out, pc)
	}
	return out, nil
}

// shareTargets are the spec's share targets, each given the public page of
// the reader's type (never the report) and its title.
var shareTargets = []struct{ name, format string }{
	{"Facebook", "https://www.facebook.com/sharer/sharer.php?u=%[1]s"},
	{"X (Twitter)", "https://twitter.com/intent/tweet?url=%[1]s&text=%[2]s"},
	{"LinkedIn", "https://www.linkedin.com/sharing/share-offsite/?url=%[1]s"},
	{"Pinterest", "https://pinterest.com/pin/create/button/?url=%[1]s&description=%[2]s"},
	{"Medium", "https://medium.com/new-story?url=%[1]s"},
	{"Instagram", "https://www.instagram.com/?url=%[1]s"},
}

func shareLinks(page, title string) []views.ShareLink {
	out := make([]views.ShareLink, len(shareTargets))
	for i, s := range shareTargets {
		out[i] = views.ShareLink{Name: s.name, Href: fmt.Sprintf(s.format, url.QueryEscape(page), url.QueryEscape(title))}
	}
	return out
}

// ratingOf is the accuracy rating a result was given, or 0.
func (s *Server) ratingOf(ctx context.Context, resultID string) int {
	score, err := s.Store.RatingFor(ctx, resultID)
	if err != nil {
		s.Logger.WarnContext(ctx, "report: read rating", "result", resultID, "err", err)
	}
	return score
}

// reportRating serves POST /report/rating/{p}: how accurate the reader
// finds the report, 1 to 5, stored once per result (a second rating
// replaces the first). It feeds the landing pages' user-rated accuracy.
func (s *Server) reportRating(c echo.Context) error {
	v, err := s.reportAccess(c)
	if err != nil {
		return s.reportError(c, err)
	}
	r, q := v.result, v.query
	score, err := strconv.Atoi(c.FormValue("score"))
	if err != nil || score < 1 || score > 5 {
		bad := url.Values{}
		for k, v := range q {
			bad[k] = v
		}
		bad.Set("rating", "invalid")
		return c.Redirect(http.StatusSeeOther, reportURL(c, "/report/result", bad)+"#r-rating")
	}
	if err := s.Store.SaveRating(c.Request().Context(), r.ID, score, s.Checkout.Now()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, reportURL(c, "/report/result", q)+"#r-rating")
}

// formatPercent writes a share with one decimal as the locale writes
// percentages: 6.3% in English, Chinese, Japanese and Korean, 6,3 % in
// French, Spanish and German (a no-break space), 6,3% in Portuguese.
func formatPercent(v float64, tag string) string {
	n := formatDecimal(v, tag)
	switch tag {
	case "fr", "es", "de":
		return n + "\u00a0%"
	}
	return n + "%"
}
