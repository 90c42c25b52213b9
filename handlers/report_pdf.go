package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/internal/billing"
	"selfmap/internal/checkout"
	"selfmap/internal/i18n"
	"selfmap/internal/pdf"
	"selfmap/internal/store"
	"selfmap/internal/web"
	"selfmap/views"
)

// NewPDFRenderer returns what the report_pdf job runs: make and keep the
// PDF of a paid result's report in a locale, once.
func NewPDFRenderer(d Deps) func(ctx context.Context, resultID, locale string) error {
	s := &Server{Deps: d}
	return s.renderPDF
}

// renderPDF prints a paid report in a locale with the report's own markup
// and styles, and keeps it; a PDF already made is left as it is.
func (s *Server) renderPDF(ctx context.Context, resultID, tag string) error {
	if _, err := s.Store.GetReportPDF(ctx, resultID, tag); err == nil {
		return nil
	}
	if s.Printer == nil {
		return fmt.Errorf("handlers: report %s: no PDF printer (chromium) available", resultID)
	}
	if paid, err := s.Results.Paid(ctx, resultID); err != nil {
		return err
	} else if !paid {
		return fmt.Errorf("%w: report %s is not paid", pdf.ErrNotPrintable, resultID)
	}
	l, ok := i18n.ByTag(tag)
	if !ok {
		return fmt.Errorf("%w: report %s: unknown locale %q", pdf.ErrNotPrintable, resultID, tag)
	}
	r, err := s.Store.GetResult(ctx, resultID)
	if err != nil {
		return err
	}
	t := s.Catalog.Translator(l)
	p, err := s.reportPage(ctx, t, l, r)
	if err != nil {
		return err
	}
	p.Print = true
	var css bytes.Buffer
	for _, name := range []string{"static/css/app.css", "themes/home/theme.css", "static/css/report.css"} {
		b := s.Assets.Bytes(name)
		if b == nil || bytes.Contains(b, []byte("</")) {
			return fmt.Errorf("handlers: stylesheet %s cannot go inline in the PDF", name)
		}
		css.Write(b)
		css.WriteByte('\n')
	}
	doc := i18n.WithTranslator(web.With(ctx, &web.Request{Locale: l, BaseURL: s.Config.BaseURL}), t)
	var html bytes.Buffer
	if err := views.ReportPrint(p, css.String()).Render(doc, &html); err != nil {
		return err
	}
	out, pages, err := s.Printer.Print(ctx, html.Bytes())
	if err != nil {
		return err
	}
	return s.Store.SaveReportPDF(ctx, store.ReportPDF{ResultID: r.ID, Locale: l.Tag, PDF: out, Pages: pages, CreatedAt: s.Checkout.Now().UTC()})
}

// pdfFor returns a report's PDF in a locale when it is made, and otherwise
// asks for it: through the job queue, or here when there is none.
func (s *Server) pdfFor(ctx context.Context, resultID, locale string) (store.ReportPDF, bool, error) {
	p, err := s.Store.GetReportPDF(ctx, resultID, locale)
	if err == nil {
		return p, true, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return p, false, err
	}
	if s.Printer == nil {
		return p, false, errNoPrinter
	}
	owned, err := s.ownedPacks(ctx, resultID)
	if err != nil {
		return p, false, err
	}
	if err := s.QueuePDF(ctx, resultID, locale, len(owned)); err != nil {
		return p, false, err
	}
	// Without a job queue the PDF was printed just now.
	p, err = s.Store.GetReportPDF(ctx, resultID, locale)
	if errors.Is(err, store.ErrNotFound) {
		return p, false, nil
	}
	return p, err == nil, err
}

var errNoPrinter = errors.New("handlers: no PDF printer")

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
	r, q := v.result, v.query
	ctx := c.Request().Context()
	l := state(c).Locale
	p, ready, err := s.pdfFor(ctx, r.ID, l.Tag)
	back := reportURL(c, "/report/result", q)
	if errors.Is(err, errNoPrinter) {
		return s.render(c, http.StatusServiceUnavailable, views.PDFStatus(views.PDFStatusPage{Failed: true, Back: back}))
	}
	if err != nil {
		return err
	}
	if !ready {
		// The page looks again every 3 seconds for about two minutes, then
		// says the PDF cannot be made now.
		try, _ := strconv.Atoi(c.QueryParam("try"))
		if try >= pdfTries {
			return s.render(c, http.StatusServiceUnavailable, views.PDFStatus(views.PDFStatusPage{Failed: true, Back: back}))
		}
		next := url.Values{}
		for k, v := range q {
			next[k] = v
		}
		next.Set("try", strconv.Itoa(try+1))
		return s.render(c, http.StatusAccepted, views.PDFStatus(views.PDFStatusPage{Refresh: reportURL(c, "/report/result-download", next), Back: back}))
	}
	if c.QueryParam("try") != "" {
		// The waiting page found it: it stops its spinner, says so and starts
		// the download (a file answer would leave that page spinning).
		return s.render(c, http.StatusOK, views.PDFStatus(views.PDFStatusPage{Download: reportURL(c, "/report/result-download", q), Back: back}))
	}
	o, err := s.Store.OrderForResult(ctx, r.ID)
	if err != nil {
		return err
	}
	name := "selfmap-" + o.OrderNumber + "-" + l.Tag + ".pdf"
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	c.Response().Header().Set("Content-Length", strconv.Itoa(len(p.PDF)))
	return c.Blob(http.StatusOK, "application/pdf", p.PDF)
}

// apiFileDownInfo serves POST /api/exam/order/file/down/info
// {"orderNumber": "..."}: whether the order's report PDF is ready in the
// request's locale, and where to download it (it is asked for if not).
func (s *Server) apiFileDownInfo(c echo.Context) error {
	o, err := s.postedOrder(c)
	if err != nil {
		return err
	}
	if o.Kind != store.OrderReport || billing.Status(o.Status) != billing.Paid {
		return checkout.ErrNotFound
	}
	ctx := c.Request().Context()
	l := state(c).Locale
	p, ready, err := s.pdfFor(ctx, o.ResultID, l.Tag)
	if errors.Is(err, errNoPrinter) {
		return s.apiOK(c, map[string]any{"orderNumber": o.OrderNumber, "status": "unavailable"})
	}
	if err != nil {
		return err
	}
	out := map[string]any{"orderNumber": o.OrderNumber, "locale": l.Tag, "status": "pending",
		"url": state(c).LocalPath("/report/result-download/"+state(c).Home.String()) + "?" + url.Values{"r": {o.ResultID}}.Encode()}
	if ready {
		out["status"], out["pages"], out["bytes"] = "ready", p.Pages, len(p.PDF)
	}
	return s.apiOK(c, out)
}
