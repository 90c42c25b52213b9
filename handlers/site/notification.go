package site

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/content"
	"selfmap/internal/notice"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// userNotification serves /userCenter/notification: the published
// notices, newest first, searched by ?q= and paged by ?page=.
func (s *Server) userNotification(c echo.Context) error {
	p, err := s.userCenterPage(c, "notices")
	if err != nil {
		return err
	}
	q, page, msg, err := httpx.NoticeQuery(c)
	if err != nil {
		return err
	}
	p.Search, p.SearchError = q, msg
	status := http.StatusOK
	if msg != "" {
		status, q = http.StatusUnprocessableEntity, ""
	}
	has := subscription.Tier(p.Tier)
	list, total, err := s.Notices.List(c.Request().Context(), httpx.NoticeReader(c, has), q, page)
	if err != nil {
		return err
	}
	for _, n := range list {
		p.Notices = append(p.Notices, httpx.UserNotice(c, n, has))
	}
	p.Pager = pager(c, "/userCenter/notification", q, page, total)
	if page > 1 && page > p.Pager.Pages {
		return httpx.NotFound()
	}
	return s.Render(c, status, views.UserNotices(p))
}

// pager is the pagination of a list at path: page X of Y, with the links
// to the pages before and after, the search kept.
func pager(c echo.Context, path, q string, page, total int) views.Pager {
	pages := (total + notice.PerPage - 1) / notice.PerPage
	pg := views.Pager{Page: page, Pages: max(pages, 1), Total: total}
	href := func(n int) string {
		v := make([]string, 0, 2)
		if q != "" {
			v = append(v, "q="+httpx.URLQueryEscape(q))
		}
		if n > 1 {
			v = append(v, "page="+strconv.Itoa(n))
		}
		h := httpx.State(c).LocalPath(path)
		if len(v) > 0 {
			h += "?" + strings.Join(v, "&")
		}
		return h
	}
	if page > 1 {
		pg.PrevHref = href(min(page-1, pg.Pages))
	}
	if page < pages {
		pg.NextHref = href(page + 1)
	}
	return pg
}

// userNotificationDetail serves /userCenter/notification/detail?id=...:
// one notice, marked read as it opens. An unknown, unpublished or draft
// id answers like a missing page; a notice above the user's plan sends
// them to upgrade.
func (s *Server) userNotificationDetail(c echo.Context) error {
	p, err := s.userCenterPage(c, "notices")
	if err != nil {
		return err
	}
	id := c.QueryParam("id")
	if id == "" || len(id) > 64 {
		return httpx.NotFound()
	}
	has := subscription.Tier(p.Tier)
	n, err := s.Notices.Open(c.Request().Context(), httpx.NoticeReader(c, has), id)
	switch {
	case errors.Is(err, apperr.ErrNotFound):
		return httpx.NotFound()
	case errors.Is(err, notice.ErrLocked):
		return s.refuseTier(c, has)
	case err != nil:
		return err
	}
	un := httpx.UserNotice(c, n, has)
	un.Blocks = content.Parse(n.Body)
	p.Notice, p.Pair = &un, httpx.State(c).Home.String()
	p.BackHref = httpx.State(c).LocalPath("/userCenter/notification")
	return s.Render(c, http.StatusOK, views.UserNoticeDetail(p))
}
