package site

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/account"
	"selfmap/internal/exam"
	"selfmap/views"
)

// testCenter serves /userCenter/exploreMore/testCenter: every test of the
// catalogue with the member's own results of it and where each stands.
func (s *Server) testCenter(c echo.Context) error {
	return s.renderTestCenter(c, false)
}

// testCenterList serves /userCenter/exploreMore/testCenter/list: the
// member's results of every test, newest first, with where each stands.
func (s *Server) testCenterList(c echo.Context) error {
	return s.renderTestCenter(c, true)
}

func (s *Server) renderTestCenter(c echo.Context, list bool) error {
	uc, err := s.userCenterPage(c, "testcenter")
	if err != nil {
		return err
	}
	own, err := s.Accounts.Reports(c.Request().Context(), httpx.User(c).ID)
	if err != nil {
		return err
	}
	p := views.TestCenterPage{UserCenterPage: uc, List: list,
		ListHref: accountPath(c, "/userCenter/exploreMore/testCenter/list"), CenterHref: accountPath(c, "/userCenter/exploreMore/testCenter")}
	byExam := map[int][]views.TestCenterResult{}
	for _, o := range own {
		r := testCenterResult(c, o)
		p.Results = append(p.Results, r)
		byExam[o.Result.ExamID] = append(byExam[o.Result.ExamID], r)
	}
	for _, e := range s.Exams.List() {
		p.Tests = append(p.Tests, views.TestCenterTest{
			ID: e.ID, Name: httpx.Tr(c).T("exam.name_" + strconv.Itoa(e.ID)), Category: httpx.Tr(c).T("exam.category." + e.Category),
			Questions: e.Instrument.ItemCount(), MinMinutes: e.Minutes[0], MaxMinutes: e.Minutes[1],
			StartHref: startHref(c, exam.Pair{Code: e.Codes[0], ExamID: e.ID}), Results: byExam[e.ID],
		})
	}
	return s.Render(c, http.StatusOK, views.TestCenter(p))
}

// testCenterResult is one of the member's results: an open report links to
// itself, an unpaid one to its buy page.
func testCenterResult(c echo.Context, o account.OwnReport) views.TestCenterResult {
	r, st := o.Result, httpx.State(c)
	pair := exam.Pair{Code: r.PageCode, ExamID: r.ExamID}.String()
	q := "?r=" + httpx.URLQueryEscape(r.ID)
	out := views.TestCenterResult{ID: r.ID, ExamID: r.ExamID, Test: httpx.Tr(c).T("exam.name_" + strconv.Itoa(r.ExamID)),
		Date: httpx.Day(r.CreatedAt), Completed: o.Paid}
	if o.Paid {
		out.Href = st.LocalPath("/report/result/"+pair) + q
	} else {
		out.Href = st.LocalPath("/paying/buyreport/"+pair) + q
	}
	return out
}
