package site

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/report"
	"selfmap/views"
)

// resultFree serves /report/result-free-test/{p}: the free result its
// instrument's builder makes, and the way to the full report (which
// replaces it once open: paid, or unlocked by the member's plan).
func (s *Server) resultFree(c echo.Context) error {
	r, err := s.flowResult(c)
	if err != nil {
		return flowError(c, err)
	}
	free, err := s.Reports.Free(c.Request().Context(), r, s.MemberID(c), httpx.State(c).Locale)
	if errors.Is(err, report.ErrPaid) {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/report/result", r.ID))
	}
	if err != nil {
		return err
	}
	view, err := views.FreeResultView(free, flowURL(c, "/paying/buyreport", r.ID))
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, view)
}
