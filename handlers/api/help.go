package api

import (
	"errors"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/content"
	"selfmap/internal/i18n"
)

// apiHelpArticle is a help article as the API returns it; Content (the
// article's text, marks as in internal/content) only from the info call.
type apiHelpArticle struct {
	ID           string    `json:"id"`
	Section      string    `json:"section"`
	SectionTitle string    `json:"sectionTitle"`
	Title        string    `json:"title"`
	Summary      string    `json:"summary"`
	Content      string    `json:"content,omitempty"`
	Locale       string    `json:"locale"`
	Sort         int       `json:"sort"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

func helpJSON(tr *i18n.Translator, a content.HelpArticle, withContent bool) apiHelpArticle {
	out := apiHelpArticle{ID: a.Slug, Section: a.Section, SectionTitle: tr.T("help.sections." + a.Section), Title: a.Title,
		Summary: content.Summary(content.Plain(a.Body), 160), Locale: a.Locale, Sort: a.Sort, UpdatedAt: a.UpdatedAt}
	if withContent {
		out.Content = a.Body
	}
	return out
}

// apiHelpList serves GET /api/app/help/list/{examId}/{hl}: the help
// centre's articles in a language, in display order.
func (s *Server) apiHelpList(c echo.Context) error {
	e, err := s.examParam(c, "examId")
	if err != nil {
		return err
	}
	l, err := langParam(c, "hl")
	if err != nil {
		return err
	}
	articles, err := s.Content.HelpArticles(c.Request().Context(), l.Tag, e.ID)
	if err != nil {
		return err
	}
	t := s.Catalog.Translator(l)
	out := make([]apiHelpArticle, len(articles))
	for i, a := range articles {
		out[i] = helpJSON(t, a, false)
	}
	return s.APIOK(c, out)
}

// apiHelpInfo serves GET /api/app/help/info/{id}: one article, in the
// call's language (hl).
func (s *Server) apiHelpInfo(c echo.Context) error {
	a, err := s.Content.HelpArticle(c.Request().Context(), c.Param("id"), httpx.State(c).Locale.Tag, content.AnyExam)
	if errors.Is(err, apperr.ErrNotFound) {
		return apperr.NotFound("api.not_found")
	}
	if err != nil {
		return err
	}
	return s.APIOK(c, helpJSON(httpx.Tr(c), a, true))
}

// langParam reads a language path parameter given by its hl code (EN, CN,
// ...) or its tag (en, zh-CN, ...).
func langParam(c echo.Context, name string) (i18n.Locale, error) {
	if l, ok := i18n.BySpec(c.Param(name)); ok {
		return l, nil
	}
	if l, ok := i18n.ByTag(c.Param(name)); ok {
		return l, nil
	}
	return i18n.Locale{}, httpx.APIInvalid(name)
}
