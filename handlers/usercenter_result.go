package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

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
	reports, err := s.userReports(c)
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
		return notFound()
	}
	base := state(c).LocalPath("/userCenter/resultReport")
	for _, r := range reports {
		if p.Latest != nil && r.ID == p.Latest.ID {
			continue
		}
		r.SelectHref = base + "?r=" + urlQueryEscape(r.ID)
		p.Others = append(p.Others, r)
	}
	p.TestHref = state(c).LocalPath("/answer/question/" + state(c).Home.String())
	p.ReportsHref = state(c).LocalPath("/userCenter/reportList")
	var links *views.ReportLinks
	if p.Latest != nil {
		if links, err = s.userReportLinks(c, *p.Latest); err != nil {
			return err
		}
	}
	return s.render(c, http.StatusOK, views.UserResultReport(p, links))
}
