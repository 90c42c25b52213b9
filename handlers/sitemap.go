package handlers

import (
	"encoding/xml"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/i18n"
	"selfmap/internal/theme"
)

// sitemapPaths lists the public, indexable pages of the default locale;
// every locale's version is listed with its alternates.
func sitemapPaths(home string) []string {
	paths := []string{"/"}
	for _, name := range theme.Landing {
		paths = append(paths, "/landing/"+name+"/"+home)
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
	st := state(c)
	set := sitemapURLSet{NS: "http://www.sitemaps.org/schemas/sitemap/0.9", XHTML: "http://www.w3.org/1999/xhtml"}
	for _, p := range sitemapPaths(st.Home.String()) {
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
		state(c).BaseURL+"/sitemap.xml\n")
}
