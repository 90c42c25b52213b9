package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/views"
)

// userResultReport serves /userCenter/resultReport: one of the user's
// results (?r=, else the newest) with what can be done with it: view or
// pay, share, and for a paid one withdraw its links; the others are listed
// to switch to. Another user's id, or an unknown one, answers like a
// missing page.
func (s *Server) userResultReport(c echo.Context) error {
	p, err := s.userCenterPage(c, "reports")
	if err != nil {
		return err
	}
	reports, err := s.ownReports(c, p)
	if err != nil {
		return err
	}
	want := c.QueryParam("r")
	for i := range reports {
		if want == "" || reports[i].ID == want {
			p.Latest = &reports[i]
			break
		}
	}
	if want != "" && p.Latest == nil {
		return httpx.NotFound()
	}
	base := httpx.State(c).LocalPath("/userCenter/resultReport")
	for _, r := range reports {
		if p.Latest != nil && r.ID == p.Latest.ID {
			continue
		}
		r.SelectHref = base + "?r=" + httpx.URLQueryEscape(r.ID)
		p.Others = append(p.Others, r)
	}
	p.TestHref = httpx.State(c).LocalPath("/answer/question/" + httpx.State(c).Home.String())
	p.ReportsHref = httpx.State(c).LocalPath("/userCenter/reportList")
	var links *views.ReportLinks
	if p.Latest != nil {
		if links, err = s.userReportLinks(c, *p.Latest); err != nil {
			return err
		}
	}
	return s.Render(c, http.StatusOK, views.UserResultReport(p, links))
}
