package site

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/report"
	"selfmap/internal/retrieve"
	"selfmap/views"
)

// reportView is the report a screen is about, and what the screen's own
// links carry to reach it again.
type reportView struct {
	report.Opened
	// query names the result for the browser or account that owns it
	// (?r=); a link's holder gets none: the session remembers the link.
	query url.Values
}

// reportAccess finds the report a screen is about (report.Service.Open)
// from the request: a report link (?t=), the owner's result (?r=, or this
// browser's latest), or the link this browser opened last. The token never
// reaches a link of the page: the session keeps its hash instead, and
// forgets it once that link has closed. The test-taker's own browser is
// sent to the product page while the report is unpaid, and to the test
// when it has taken none.
func (s *Server) reportAccess(c echo.Context) (reportView, error) {
	httpx.Sensitive(c)
	v := report.Visit{Token: c.QueryParam("t"), ResultID: c.QueryParam("r"), Remembered: s.openedReportLink(c), Owns: s.Owns(c),
		Member: s.MemberID(c)}
	if len(v.Token) > 128 {
		return reportView{}, httpx.NotFound()
	}
	if v.Token == "" && v.ResultID == "" && v.Remembered == "" {
		v.Latest = s.LatestResult(c)
	}
	o, err := s.Reports.Open(c.Request().Context(), v)
	switch {
	case errors.Is(err, retrieve.ErrLinkClosed) && o.Link == v.Remembered:
		return reportView{}, cmp.Or(s.rememberReportLink(c, ""), err)
	case errors.Is(err, report.ErrNoResult):
		return reportView{}, redirectError{to: httpx.State(c).LocalPath("/answer/question/" + httpx.Pair(c).String())}
	case errors.Is(err, report.ErrNotPaid):
		return reportView{}, redirectError{to: flowURL(c, "/paying/buyreport", o.Result.ID)}
	case err != nil:
		return reportView{}, err
	case o.Owner:
		return reportView{Opened: o, query: url.Values{"r": {o.Result.ID}}}, nil
	}
	return reportView{Opened: o, query: url.Values{}}, s.rememberReportLink(c, o.Link)
}

// reportURL is a report screen of the request's pair and locale.
func reportURL(c echo.Context, screen string, q url.Values) string {
	u := httpx.State(c).LocalPath(screen + "/" + httpx.Pair(c).String())
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// withQuery is q with one more value, q left as it is.
func withQuery(q url.Values, k, v string) url.Values {
	out := url.Values{}
	for key, vals := range q {
		out[key] = vals
	}
	out.Set(k, v)
	return out
}

// reportResult serves /report/result/{p}: the full report, in two tabs.
func (s *Server) reportResult(c echo.Context) error {
	v, err := s.reportAccess(c)
	if err != nil {
		return s.reportError(c, err)
	}
	p, err := s.Reports.Page(c.Request().Context(), v.Opened, httpx.State(c).Locale)
	if err != nil {
		return err
	}
	view, err := views.ReportView(p.Report, s.reportChrome(c, v, p))
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, view)
}

// reportChrome is the report screen around the report: its tabs, links,
// share targets and rating form.
func (s *Server) reportChrome(c echo.Context, v reportView, p report.Page) views.ReportChrome {
	q := v.query
	ch := views.ReportChrome{
		Tab:            "overview",
		OverviewHref:   reportURL(c, "/report/result", q),
		DimensionsHref: reportURL(c, "/report/result", withQuery(q, "tab", "dimensions")),
		DownloadHref:   reportURL(c, "/report/result-download", q),
		RatingAction:   reportURL(c, "/report/rating", q),
		TestsHref:      httpx.State(c).LocalPath("/tests/" + httpx.Pair(c).String()),
		CSS:            s.Assets.URL("static/css/report.css"),
		Rated:          p.Rated,
	}
	if c.QueryParam("tab") == "dimensions" {
		ch.Tab = "dimensions"
	}
	if h := p.Report.Headline(); h.TypePage != "" {
		ch.Share = shareLinks(httpx.State(c).BaseURL+httpx.State(c).LocalPath("/types/"+httpx.Pair(c).String()+"/"+h.TypePage), h.Title)
	}
	if p.PacksLeft {
		ch.PacksHref = flowURL(c, "/paying/package", v.Result.ID)
	}
	if c.QueryParam("rating") == "invalid" {
		ch.RatingError = report.ErrRatingInvalid.ID
	}
	return ch
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

// reportRating serves POST /report/rating/{p}: how accurate the reader
// finds the report, 1 to 5 (report.Service.Rate). A refused score is said
// beside the form.
func (s *Server) reportRating(c echo.Context) error {
	v, err := s.reportAccess(c)
	if err != nil {
		return s.reportError(c, err)
	}
	// A score that is no number is refused like one out of range.
	score, _ := strconv.Atoi(c.FormValue("score"))
	q := v.query
	if err := s.Reports.Rate(c.Request().Context(), v.Result.ID, score); errors.Is(err, report.ErrRatingInvalid) {
		q = withQuery(q, "rating", "invalid")
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, reportURL(c, "/report/result", q)+"#r-rating")
}
