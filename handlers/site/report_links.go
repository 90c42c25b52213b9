package site

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/ids"
	"selfmap/internal/retrieve"
	"selfmap/views"
)

// reportLinkKey is the session value naming the report link this browser
// opened last, by its token's hash: the report's own links (its tabs, the
// PDF, the rating, the language links) then carry no token, and the link
// is checked again on every request, so withdrawing it or its expiry
// takes effect at once.
const reportLinkKey = "reportLink"

// openedReportLink is the hash of the report link this browser opened
// last, or "".
func (s *Server) openedReportLink(c echo.Context) string {
	hash, _ := s.Session(c).Values[reportLinkKey].(string)
	return hash
}

// rememberReportLink keeps a report link's hash in the session, or forgets
// it when hash is "".
func (s *Server) rememberReportLink(c echo.Context, hash string) error {
	if s.openedReportLink(c) == hash {
		return nil
	}
	sess := s.Session(c)
	if hash == "" {
		delete(sess.Values, reportLinkKey)
	} else {
		sess.Values[reportLinkKey] = hash
	}
	return sess.Save(c.Request(), c.Response())
}

// linkDays is the lifetime of a report link in days, as the pages say it.
func linkDays() int { return int(retrieve.LinkLifetime / (24 * time.Hour)) }

// reportError answers an error of a report screen: a link that expired or
// was withdrawn gets the page that leads to a new one; anything else goes
// the flow's way.
func (s *Server) reportError(c echo.Context, err error) error {
	if errors.Is(err, retrieve.ErrLinkClosed) {
		return s.Render(c, http.StatusGone, views.ReportLinkClosed(views.ReportLinkClosedPage{
			Days: linkDays(), RetrieveHref: retrieveAction(c)}))
	}
	return flowError(c, err)
}

// userReportLinks is the links card of one of the user's paid reports.
func (s *Server) userReportLinks(c echo.Context, r views.UserReport) (*views.ReportLinks, error) {
	if !r.Paid {
		return nil, nil
	}
	open, err := s.Retrieval.OpenLinks(c.Request().Context(), r.ID)
	if err != nil {
		return nil, err
	}
	return &views.ReportLinks{ResultID: r.ID, Days: linkDays(), Open: open,
		Action: httpx.State(c).LocalPath("/userCenter/reportLinks/revoke")}, nil
}

// userRevokeReportLinks serves POST /userCenter/reportLinks/revoke (the
// result in r): every link of one of the user's reports stops opening it.
// Another user's result, or an unknown one, answers like a missing page.
// Back to the report in the user centre, with a flash.
func (s *Server) userRevokeReportLinks(c echo.Context) error {
	id := c.FormValue("r")
	if !ids.Valid(id) {
		return httpx.NotFound()
	}
	if err := s.Retrieval.Revoke(c.Request().Context(), httpx.User(c).ID, id); err != nil {
		return err
	}
	if err := s.Flash(c, httpx.Tr(c).T("links.revoked")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, httpx.State(c).LocalPath("/userCenter/resultReport")+"?r="+httpx.URLQueryEscape(id))
}
