package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/content"
	"selfmap/internal/notice"
	"selfmap/internal/subscription"
)

// apiNotice is a notice in the JSON calls.
type apiNotice struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Summary     string `json:"summary"`
	Body        string `json:"body,omitempty"`
	Audience    string `json:"audience"`
	PublishedAt string `json:"publishedAt"`
	Read        bool   `json:"read"`
	Locked      bool   `json:"locked"`
}

// apiNotices is GET /api/cms/notices (?q=, ?page=): the notices as the
// list shows them, in the {result, message, data} envelope with the
// spec's pagination. A visitor who is not signed in sees those for all,
// without read state; the text of a notice above the user's plan is left
// out.
func (s *Server) apiNotices(c echo.Context) error {
	q, page, msg, err := httpx.NoticeQuery(c)
	if err != nil {
		return err
	}
	if msg != "" {
		return &apperr.Error{Status: http.StatusBadRequest, ID: "usercenter.notices.search_too_long", Data: map[string]any{"Max": httpx.MaxNoticeSearch}}
	}
	u, signedIn, err := s.CurrentUser(c)
	if err != nil {
		return err
	}
	httpx.Private(c)
	r := notice.Reader{Locale: httpx.State(c).Locale.Tag, Tier: subscription.TierGuest}
	if signedIn {
		ent, err := s.Entitlement(c)
		if err != nil {
			return err
		}
		r.UserID, r.Tier = u.ID, ent.Tier
	}
	list, total, err := s.Notices.List(c.Request().Context(), r, q, page)
	if err != nil {
		return err
	}
	out := struct {
		List        []apiNotice `json:"list"`
		CurrentPage int         `json:"currentPage"`
		TotalPages  int         `json:"totalPages"`
		TotalCount  int         `json:"totalCount"`
	}{List: []apiNotice{}, CurrentPage: page, TotalPages: max((total+notice.PerPage-1)/notice.PerPage, 1), TotalCount: total}
	for _, n := range list {
		un := httpx.UserNotice(c, n, r.Tier)
		an := apiNotice{ID: n.ID, Title: n.Title, Summary: un.Summary, Audience: n.Audience, PublishedAt: un.Date,
			Read: signedIn && n.Read, Locked: un.Locked}
		if !un.Locked {
			an.Body = content.Plain(n.Body)
		}
		out.List = append(out.List, an)
	}
	return s.APIOK(c, out)
}
