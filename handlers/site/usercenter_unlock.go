package site

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/subscription"
)

// userUnlockReport serves POST /userCenter/reportList/unlock (r): opens one
// of the member's unpaid reports with a free report of their Basic plan's
// period, then shows it. None left, or a plan without free reports, is
// said on the list's pending tab; another member's result, or an unknown
// one, answers like a missing page.
func (s *Server) userUnlockReport(c echo.Context) error {
	id := c.FormValue("r")
	if s.Subscriptions == nil {
		return httpx.NotFound()
	}
	err := s.Subscriptions.UseFreeReport(c.Request().Context(), httpx.User(c).ID, id)
	var refused *apperr.Error
	switch {
	case errors.Is(err, subscription.ErrReportNotFound):
		return httpx.NotFound()
	case errors.As(err, &refused) && refused.Status < http.StatusInternalServerError:
		if err := s.Flash(c, httpx.Tr(c).T(refused.ID)); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, accountPath(c, "/userCenter/reportList")+"?tab=pending")
	case err != nil:
		return err
	}
	if err := s.Flash(c, httpx.Tr(c).T("usercenter.unlock.done")); err != nil {
		return err
	}
	st := httpx.State(c)
	return c.Redirect(http.StatusSeeOther, st.LocalPath("/report/result/"+st.Home.String())+"?r="+httpx.URLQueryEscape(id))
}
