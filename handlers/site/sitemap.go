package site

import (
	"encoding/xml"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/content"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/theme"
	"selfmap/internal/typology"
)

// sitemapPaths lists the public, indexable pages of the default locale;
// every locale's version is listed with its alternates. helpSlugs are the
// help articles, which each have a page.
func sitemapPaths(home exam.Pair, helpSlugs []string) []string {
	paths := []string{"/"}
	for _, name := range theme.Landing {
		paths = append(paths, "/landing/"+name+"/"+home.String())
	}
	paths = append(paths, "/types/"+home.String())
	for _, code := range typology.Codes {
		paths = append(paths, typePath(home, code))
	}
	paths = append(paths, "/tests/"+home.String(), "/help/"+home.String())
	for _, slug := range helpSlugs {
		paths = append(paths, helpDetailPath(home, slug))
	}
	paths = append(paths, "/support/"+home.String())
	for _, d := range content.Documents {
		paths = append(paths, httpx.LegalPath(d.Slug, home.String()))
	}
	return paths
}

type sitemapURLSet struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	XHTML   string       `xml:"xmlns:xhtml,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc        string           `xml:"loc"`
	Alternates []sitemapAltLink `xml:"xhtml:link"`
}

type sitemapAltLink struct {
	Rel      string `xml:"rel,attr"`
	Hreflang string `xml:"hreflang,attr"`
	Href     string `xml:"href,attr"`
}

// sitemap serves /sitemap.xml: every public page in all nine locales.
func (s *Server) sitemap(c echo.Context) error {
	st := httpx.State(c)
	articles, err := s.Content.HelpArticles(c.Request().Context(), i18n.Default.Tag, st.Home.ExamID)
	if err != nil {
		return err
	}
	slugs := make([]string, len(articles))
	for i, a := range articles {
		slugs[i] = a.Slug
	}
	set := sitemapURLSet{NS: "http://www.sitemaps.org/schemas/sitemap/0.9", XHTML: "http://www.w3.org/1999/xhtml"}
	for _, p := range sitemapPaths(st.Home, slugs) {
		alts := make([]sitemapAltLink, 0, len(i18n.Locales)+1)
		for _, l := range i18n.Locales {
			alts = append(alts, sitemapAltLink{Rel: "alternate", Hreflang: l.Tag, Href: st.URL(l, p)})
		}
		alts = append(alts, sitemapAltLink{Rel: "alternate", Hreflang: "x-default", Href: st.URL(i18n.Default, p)})
		for _, l := range i18n.Locales {
			set.URLs = append(set.URLs, sitemapURL{Loc: st.URL(l, p), Alternates: alts})
		}
	}
	body, err := xml.MarshalIndent(set, "", " ")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, "application/xml; charset=utf-8", append([]byte(xml.Header), body...))
}

// robots serves /robots.txt.
func (s *Server) robots(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.String(http.StatusOK, "User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /pay/\nDisallow: /userCenter\nDisallow: /user/\n\nSitemap: "+
		httpx.State(c).BaseURL+"/sitemap.xml\n")
}
