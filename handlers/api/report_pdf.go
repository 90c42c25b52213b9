package api

import (
	"errors"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/report"
)

// apiFileDownInfo serves POST /api/exam/order/file/down/info
// {"orderNumber": "..."}: whether the order's report PDF is ready in the
// request's locale, and where to download it (it is asked for if not).
func (s *Server) apiFileDownInfo(c echo.Context) error {
	o, err := s.postedOrder(c)
	if err != nil {
		return err
	}
	l := httpx.State(c).Locale
	d, err := s.PDFs.ForOrder(c.Request().Context(), o, l.Tag)
	if errors.Is(err, report.ErrNoPrinter) {
		return s.APIOK(c, map[string]any{"orderNumber": o.OrderNumber, "status": "unavailable"})
	}
	if err != nil {
		return err
	}
	out := map[string]any{"orderNumber": o.OrderNumber, "locale": l.Tag, "status": "pending",
		"url": httpx.State(c).LocalPath("/report/result-download/"+httpx.State(c).Home.String()) + "?" + url.Values{"r": {o.ResultID}}.Encode()}
	if d.Ready {
		out["status"], out["pages"], out["bytes"] = "ready", d.Pages, len(d.PDF)
	}
	return s.APIOK(c, out)
}
