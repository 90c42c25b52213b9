package site

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
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
	d, err := s.PDFs.Get(c.Request().Context(), v.Result.ID, httpx.State(c).Locale.Tag)
	back := reportURL(c, "/report/result", q)
	if errors.Is(err, report.ErrNoPrinter) {
		return s.Render(c, http.StatusServiceUnavailable, views.PDFStatus(views.PDFStatusPage{Failed: true, Back: back}))
	}
	if err != nil {
		return err
	}
	if !d.Ready {
		// The page looks again every 3 seconds for about two minutes, then
		// says the PDF cannot be made now.
		try, _ := strconv.Atoi(c.QueryParam("try"))
		if try >= pdfTries {
			return s.Render(c, http.StatusServiceUnavailable, views.PDFStatus(views.PDFStatusPage{Failed: true, Back: back}))
		}
		next := withQuery(q, "try", strconv.Itoa(try+1))
		return s.Render(c, http.StatusAccepted, views.PDFStatus(views.PDFStatusPage{Refresh: reportURL(c, "/report/result-download", next), Back: back}))
	}
	if c.QueryParam("try") != "" {
		// The waiting page found it: it stops its spinner, says so and starts
		// the download (a file answer would leave that page spinning).
		return s.Render(c, http.StatusOK, views.PDFStatus(views.PDFStatusPage{Download: reportURL(c, "/report/result-download", q), Back: back}))
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+d.Name+`"`)
	c.Response().Header().Set("Content-Length", strconv.Itoa(len(d.PDF)))
	return c.Blob(http.StatusOK, "application/pdf", d.PDF)
}
