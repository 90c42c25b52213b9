package site

import (
	"errors"
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/content"
	"selfmap/internal/exam"
	"selfmap/views"
)

// help serves /help/{p}: every article of the help centre, by section.
func (s *Server) help(c echo.Context) error {
	p, st := httpx.Pair(c), httpx.State(c)
	articles, err := s.Content.HelpArticles(c.Request().Context(), st.Locale.Tag, p.ExamID)
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, views.Help(views.HelpPage{
		CSS: s.pagesCSS(), Pair: p.String(), Sections: helpSections(c, p, articles), SupportHref: st.LocalPath("/support/" + p.String()),
	}))
}

var slugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,79}$`)

// helpDetail serves /helpDetail/{p}?id={slug}: one article on its own page.
// Without an id there is nothing to show but the help centre.
func (s *Server) helpDetail(c echo.Context) error {
	p, st, t := httpx.Pair(c), httpx.State(c), httpx.Tr(c)
	id := c.QueryParam("id")
	if id == "" {
		return c.Redirect(http.StatusSeeOther, st.WithQuery(st.LocalPath("/help/"+p.String())))
	}
	if !slugPattern.MatchString(id) {
		return httpx.NotFound()
	}
	d, err := s.Content.HelpDetail(c.Request().Context(), id, st.Locale.Tag, p.ExamID)
	if errors.Is(err, apperr.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	a, section := d.Article, helpSection(c, p, d.Article.Section, d.Related)
	view := helpArticleView(c, p, a)
	helpHref := st.LocalPath("/help/" + p.String())
	return s.Render(c, http.StatusOK, views.HelpDetail(views.HelpDetailPage{
		CSS: s.pagesCSS(), Pair: p.String(), Path: helpDetailPath(p, a.Slug), Article: view,
		Description: content.Summary(view.Plain, 160), Section: section, SupportHref: st.LocalPath("/support/" + p.String()),
		Crumbs: []views.Crumb{
			{Label: t.T("nav.home"), Href: st.LocalPath("/")},
			{Label: t.T("help.title"), Href: helpHref},
			{Label: section.Title, Href: helpHref + "#" + a.Section},
			{Label: a.Title, Href: view.Href},
		},
	}))
}

// helpSections groups articles into the help centre's sections, in order;
// a section without articles is left out.
func helpSections(c echo.Context, p exam.Pair, articles []content.HelpArticle) []views.HelpSection {
	var out []views.HelpSection
	for _, key := range content.Sections {
		if sec := helpSection(c, p, key, articles); len(sec.Articles) > 0 {
			out = append(out, sec)
		}
	}
	return out
}

// helpSection is one section of the help centre with those of the
// articles that belong to it.
func helpSection(c echo.Context, p exam.Pair, key string, articles []content.HelpArticle) views.HelpSection {
	t := httpx.Tr(c)
	sec := views.HelpSection{Key: key, Title: t.T("help.sections." + key), Text: t.T("help.section_text." + key)}
	for _, a := range articles {
		if a.Section == key {
			sec.Articles = append(sec.Articles, helpArticleView(c, p, a))
		}
	}
	return sec
}

func helpArticleView(c echo.Context, p exam.Pair, a content.HelpArticle) views.HelpArticle {
	return views.HelpArticle{Slug: a.Slug, Title: a.Title, Href: httpx.State(c).LocalPath(helpDetailPath(p, a.Slug)),
		Blocks: content.Parse(a.Body), Plain: content.Plain(a.Body)}
}

// helpDetailPath is an article's path in the default locale.
func helpDetailPath(p exam.Pair, slug string) string {
	return "/helpDetail/" + p.String() + "?id=" + slug
}
