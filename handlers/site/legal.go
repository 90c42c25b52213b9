package site

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/content"
	"selfmap/views"
)

// legalLinkKeys name each legal document in the links table.
var legalLinkKeys = map[string]string{
	"privacy": "privacy", "terms": "terms", "subscription-terms": "subscription_terms", "cookies": "cookies",
}

// legal serves /legal/{doc}/{p}: a legal document in the page's language.
func (s *Server) legal(c echo.Context) error {
	p, st, t := httpx.Pair(c), httpx.State(c), httpx.Tr(c)
	slug := c.Param("doc")
	if _, ok := content.DocumentBySlug(slug); !ok {
		return httpx.NotFound()
	}
	doc, err := s.Content.Protocol(c.Request().Context(), slug, st.Locale.Tag, p.ExamID)
	if errors.Is(err, apperr.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	page := views.LegalPage{
		CSS: s.pagesCSS(), Pair: p.String(), Title: doc.Title, Version: doc.Version,
		Description: t.T("legal.meta_desc." + legalLinkKeys[slug]), Blocks: content.Parse(doc.Body),
	}
	for _, d := range content.Documents {
		page.Documents = append(page.Documents, views.LegalLink{Label: t.T("links." + legalLinkKeys[d.Slug]),
			Href: st.LocalPath(httpx.LegalPath(d.Slug, p.String())), Current: d.Slug == slug})
	}
	page.Crumbs = []views.Crumb{
		{Label: t.T("nav.home"), Href: st.LocalPath("/")},
		{Label: doc.Title, Href: st.LocalPath(httpx.LegalPath(slug, p.String()))},
	}
	return s.Render(c, http.StatusOK, views.Legal(page))
}
