package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

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
	p, st, t := pair(c), state(c), tr(c)
	slug := c.Param("doc")
	if _, ok := content.DocumentBySlug(slug); !ok {
		return notFound()
	}
	doc, err := s.Content.Protocol(c.Request().Context(), slug, st.Locale.Tag, p.ExamID)
	if errors.Is(err, apperr.ErrNotFound) {
		return notFound()
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
			Href: st.LocalPath(legalPath(d.Slug, p.String())), Current: d.Slug == slug})
	}
	page.Crumbs = []views.Crumb{
		{Label: t.T("nav.home"), Href: st.LocalPath("/")},
		{Label: doc.Title, Href: st.LocalPath(legalPath(slug, p.String()))},
	}
	return s.render(c, http.StatusOK, views.Legal(page))
}
