package site

import (
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/content"
	"selfmap/internal/exam"
	"selfmap/internal/typology"
	"selfmap/views"
)

// typesList serves /types/{p}: the sixteen types in their four families.
func (s *Server) typesList(c echo.Context) error {
	p, t := httpx.Pair(c), httpx.Tr(c)
	groups := make([]views.TypeGroup, len(typology.Groups))
	for i, g := range typology.Groups {
		groups[i] = views.TypeGroup{Key: g, Name: t.T("types.group." + g + ".name"), Text: t.T("types.group." + g + ".text")}
		for _, code := range typology.Codes {
			if typology.Group(code) == g {
				groups[i].Types = append(groups[i].Types, typeSummary(c, p, code))
			}
		}
	}
	return s.RenderPublic(c, "", func() templ.Component {
		return views.TypesList(views.TypesPage{CSS: s.pagesCSS(), Groups: groups, StartHref: startHref(c, p)})
	})
}

// typePage serves /types/{p}/{code}: one type's profile. The code is written
// in lower case; another spelling of a known code moves there for good.
func (s *Server) typePage(c echo.Context) error {
	code := typology.Normalize(c.Param("code"))
	if code == "" {
		return httpx.NotFound()
	}
	p, st, t := httpx.Pair(c), httpx.State(c), httpx.Tr(c)
	if c.Param("code") != strings.ToLower(code) {
		return c.Redirect(http.StatusMovedPermanently, st.WithQuery(typeHref(c, p, code)))
	}
	page := views.TypePage{
		CSS: s.pagesCSS(), Code: code, Title: t.T("type." + code + ".title"), Summary: t.T("type." + code + ".summary"),
		ListHref: st.LocalPath("/types/" + p.String()), StartHref: startHref(c, p),
		Image: st.BaseURL + "/og/type/" + strings.ToLower(code) + ".png",
	}
	page.Description = content.Summary(page.Summary, 160)
	for i, axis := range typology.Axes {
		other := axis.High
		if code[i] == axis.High {
			other = axis.Low
		}
		page.Letters = append(page.Letters, views.TypeLetter{Letter: code[i : i+1], Pole: t.T("pole." + code[i:i+1]),
			Other: t.T("pole." + string(other)), Domain: t.T("domain." + axis.Domain + ".name")})
	}
	for _, key := range []string{"strengths", "challenges", "work", "relationships", "growth"} {
		page.Sections = append(page.Sections, views.TypeSection{ID: key, Title: t.T("typepage." + key), Text: t.T("typeprofile." + code + "." + key)})
	}
	for _, id := range []string{"A", "T"} {
		page.Identities = append(page.Identities, views.TypeSection{ID: id, Title: t.T("identity." + id + ".name"), Text: t.T("identity." + id + ".summary")})
	}
	for _, n := range typology.Neighbours(code) {
		page.Related = append(page.Related, typeSummary(c, p, n))
	}
	page.Crumbs = []views.Crumb{
		{Label: t.T("nav.home"), Href: st.LocalPath("/")},
		{Label: t.T("nav.types"), Href: page.ListHref},
		{Label: code, Href: typeHref(c, p, code)},
	}
	return s.RenderPublic(c, "", func() templ.Component { return views.TypeProfile(page) })
}

func typeSummary(c echo.Context, p exam.Pair, code string) views.TypeSummary {
	t := httpx.Tr(c)
	return views.TypeSummary{Code: code, Title: t.T("type." + code + ".title"), Summary: t.T("type." + code + ".summary"), Href: typeHref(c, p, code)}
}

// typeHref is a type page's path in the request's locale.
func typeHref(c echo.Context, p exam.Pair, code string) string {
	return httpx.State(c).LocalPath(typePath(p, code))
}

// typePath is a type page's path in the default locale.
func typePath(p exam.Pair, code string) string {
	return "/types/" + p.String() + "/" + strings.ToLower(code)
}

// pagesCSS is the stylesheet of the content pages (types, tests, help,
// support, legal).
func (s *Server) pagesCSS() string { return s.Assets.URL("static/css/pages.css") }

// socialCard serves /og/type/{code}.png: the type's card for sharing, drawn
// once at start and cached by browsers and networks for a day.
func (s *Server) socialCard(c echo.Context) error {
	code := typology.Normalize(strings.TrimSuffix(c.Param("file"), ".png"))
	if code == "" || !strings.HasSuffix(c.Param("file"), ".png") {
		return httpx.NotFound()
	}
	cards, err := s.Cards()
	if err != nil {
		return err
	}
	card := cards[code]
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.Blob(http.StatusOK, "image/png", card)
}
