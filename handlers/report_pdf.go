package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/internal/report"
	"selfmap/views"
)

// pdfTries is how many times the download page looks for a PDF being made.
const pdfTries = 40

// reportDownload serves /report/result-download/{p}: the PDF of the report
// in the page's locale, named after the order; while it is being made, a
// page that looks again every 3 seconds.
func (s *Server) reportDownload(c echo.Context) error {
	v, err := s.reportAccess(c)
	if err != nil {
		return s.reportError(c, err)
	}
	q := v.query
	d, err := s.PDFs.Get(c.Request().Context(), v.Result.ID, state(c).Locale.Tag)
	back := reportURL(c, "/report/result", q)
	if errors.Is(err, report.ErrNoPrinter) {
		return s.render(c, http.StatusServiceUnavailable, views.PDFStatus(views.PDFStatusPage{Failed: true, Back: back}))
	}
	if err != nil {
		return err
	}
	if !d.Ready {
		// The page looks again every 3 seconds for about two minutes, then
		// says the PDF cannot be made now.
		try, _ := strconv.Atoi(c.QueryParam("try"))
		if try >= pdfTries {
			return s.render(c, http.StatusServiceUnavailable, views.PDFStatus(views.PDFStatusPage{Failed: true, Back: back}))
		}
		next := withQuery(q, "try", strconv.Itoa(try+1))
		return s.render(c, http.StatusAccepted, views.PDFStatus(views.PDFStatusPage{Refresh: reportURL(c, "/report/result-download", next), Back: back}))
	}
	if c.QueryParam("try") != "" {
		// The waiting page found it: it stops its spinner, says so and starts
		// the download (a file answer would leave that page spinning).
		return s.render(c, http.StatusOK, views.PDFStatus(views.PDFStatusPage{Download: reportURL(c, "/report/result-download", q), Back: back}))
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+d.Name+`"`)
	c.Response().Header().Set("Content-Length", strconv.Itoa(len(d.PDF)))
	return c.Blob(http.StatusOK, "application/pdf", d.PDF)
}

// apiFileDownInfo serves POST /api/exam/order/file/down/info
// {"orderNumber": "..."}: whether the order's report PDF is ready in the
// request's locale, and where to download it (it is asked for if not).
func (s *Server) apiFileDownInfo(c echo.Context) error {
	o, err := s.postedOrder(c)
	if err != nil {
		return err
	}
	l := state(c).Locale
	d, err := s.PDFs.ForOrder(c.Request().Context(), o, l.Tag)
	if errors.Is(err, report.ErrNoPrinter) {
		return s.apiOK(c, map[string]any{"orderNumber": o.OrderNumber, "status": "unavailable"})
	}
	if err != nil {
		return err
	}
	out := map[string]any{"orderNumber": o.OrderNumber, "locale": l.Tag, "status": "pending",
		"url": state(c).LocalPath("/report/result-download/"+state(c).Home.String()) + "?" + url.Values{"r": {o.ResultID}}.Encode()}
	if d.Ready {
		out["status"], out["pages"], out["bytes"] = "ready", d.Pages, len(d.PDF)
	}
	return s.apiOK(c, out)
}
