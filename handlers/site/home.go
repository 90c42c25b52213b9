package site

import (
	"net/url"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/exam"
	"selfmap/internal/geo"
	"selfmap/internal/support"
	"selfmap/views"
)

// home serves / with the site's home pair, and /homepage/{p}: the marketing
// home page.
func (s *Server) home(c echo.Context) error {
	p := httpx.State(c).Home
	if v, ok := c.Get(httpx.PairKey).(exam.Pair); ok {
		p = v
	}
	return s.RenderPublic(c, visitorRegion(c), func() templ.Component {
		return views.Homepage(views.HomePage{
			StartHref: startHref(c, p), CSS: s.LandingCSS, Proof: s.proof(c, p),
			// The contact box posts to the support page, which answers a
			// mistake there with every value kept.
			Contact: views.ContactForm(contactForm(c, p, support.Input{}, nil)),
		})
	})
}

// landing serves /landing/{name}/{p}: the landing's own copy in its own
// theme, unless the host name has chosen one.
func (s *Server) landing(c echo.Context) error {
	name := c.Param("name")
	th, ok := s.Themes.Get(name)
	if !ok || !slices.Contains(views.LandingNames, name) {
		return httpx.NotFound()
	}
	st := httpx.State(c)
	if !st.FromSite {
		st.Theme = th
	}
	p := httpx.Pair(c)
	return s.RenderPublic(c, visitorRegion(c), func() templ.Component {
		// The funnel keeps this landing's look (tracking.KeptParams), unless
		// the host name has its own.
		start := startHref(c, p)
		if !st.FromSite {
			start = withParam(start, "theme", name)
		}
		return views.Landing(views.LandingPage{Name: name, StartHref: start, CSS: s.LandingCSS, Proof: s.proof(c, p)})
	})
}

// withParam sets one query parameter of a local link.
func withParam(href, name, value string) string {
	path, query, _ := strings.Cut(href, "?")
	q, _ := url.ParseQuery(query)
	q.Set(name, value)
	return path + "?" + q.Encode()
}

// startHref is where a page's "Start the test" leads, tracking parameters
// kept.
func startHref(c echo.Context, p exam.Pair) string {
	return httpx.State(c).WithTracking(httpx.State(c).LocalPath("/answer/question/" + p.String()))
}

// proof gathers the page's counters, notices and reviews from the social
// service's memory: map reads, no query.
func (s *Server) proof(c echo.Context, p exam.Pair) views.Proof {
	ctx := c.Request().Context()
	locale := httpx.State(c).Locale.Tag
	region := visitorRegion(c)
	n := s.Social.Counters(ctx, p.ExamID, region)
	out := views.Proof{Counters: views.Counters{
		Today: n.Today, Total: n.Total, InRegion: n.InRegion, Ratings: n.Ratings, Accuracy: n.Accuracy, Demo: n.Demo,
	}}
	if n.Region != "" {
		out.Counters.RegionName = geo.Name(locale, n.Region)
	}
	for _, a := range s.Social.Notices(ctx, p.ExamID) {
		out.Notices = append(out.Notices, views.Notice{
			Unlocked: a.Unlocked(), CountryName: geo.NameInSentence(locale, a.Country), Minutes: a.Minutes,
		})
	}
	for _, r := range s.Social.Reviews(ctx, locale) {
		out.Reviews = append(out.Reviews, views.Review{
			Name: r.Name, TypeCode: r.TypeCode, Content: r.Content, Avatar: r.Avatar, Location: r.Location, CreatedAt: r.CreatedAt,
		})
	}
	return out
}

// visitorRegion is the visitor's country as the browser's language names
// it (de-AT: Austria), or "": the landing counters show its figure.
func visitorRegion(c echo.Context) string {
	region, _ := geo.FromAcceptLanguage(c.Request().Header.Get("Accept-Language"))
	return region
}
