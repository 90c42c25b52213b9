// Package reportpdf prints a paid report to PDF: the report its
// instrument's builder makes (report.Service), drawn by the report's own
// view with its styles inline (views.ReportPrintView), printed by Chromium
// (internal/pdf) and kept. It draws HTML, so like handlers it is an outlet
// of the views rather than a domain package; the report_pdf job runs it,
// and so does a download where no job queue runs.
package reportpdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"selfmap/internal/assets"
	"selfmap/internal/i18n"
	"selfmap/internal/pdf"
	"selfmap/internal/report"
	"selfmap/internal/store"
	"selfmap/internal/web"
	"selfmap/views"
)

// Renderer makes and keeps the PDF of a paid report in a locale.
type Renderer struct {
	Reports *report.Service
	Store   *store.Store
	// Printer prints the PDFs; nil when no Chromium was found.
	Printer *pdf.Printer
	Catalog *i18n.Catalog
	Assets  *assets.Assets
	BaseURL string
	Now     func() time.Time
}

// stylesheets are the report page's styles, inlined in the document.
var stylesheets = []string{"static/css/app.css", "themes/home/theme.css", "static/css/report.css"}

// Render prints a paid report in a locale and keeps it; a PDF already made
// is left as it is. A report that is not paid, or an unknown locale, is
// pdf.ErrNotPrintable: a job stops trying.
func (r *Renderer) Render(ctx context.Context, resultID, tag string) error {
	if _, err := r.Store.GetReportPDF(ctx, r.Store.DB, resultID, tag); err == nil {
		return nil
	}
	if r.Printer == nil {
		return fmt.Errorf("reportpdf: report %s: no PDF printer (chromium) available", resultID)
	}
	l, ok := i18n.ByTag(tag)
	if !ok {
		return fmt.Errorf("%w: report %s: unknown locale %q", pdf.ErrNotPrintable, resultID, tag)
	}
	rep, err := r.Reports.Printable(ctx, resultID, l)
	if errors.Is(err, report.ErrNotPaid) {
		return fmt.Errorf("%w: report %s is not paid", pdf.ErrNotPrintable, resultID)
	}
	if err != nil {
		return err
	}
	html, err := r.document(ctx, rep, l)
	if err != nil {
		return err
	}
	out, pages, err := r.Printer.Print(ctx, html)
	if err != nil {
		return err
	}
	return r.Store.SaveReportPDF(ctx, r.Store.DB, store.ReportPDF{ResultID: resultID, Locale: l.Tag, PDF: out, Pages: pages, CreatedAt: r.Now().UTC()})
}

// document is the report as one self-contained HTML document in a locale.
func (r *Renderer) document(ctx context.Context, rep report.Report, l i18n.Locale) ([]byte, error) {
	var css bytes.Buffer
	for _, name := range stylesheets {
		b := r.Assets.Bytes(name)
		if b == nil || bytes.Contains(b, []byte("</")) {
			return nil, fmt.Errorf("reportpdf: stylesheet %s cannot go inline in the PDF", name)
		}
		css.Write(b)
		css.WriteByte('\n')
	}
	view, err := views.ReportPrintView(rep, css.String())
	if err != nil {
		return nil, err
	}
	doc := i18n.WithTranslator(web.With(ctx, &web.Request{Locale: l, BaseURL: r.BaseURL}), r.Catalog.Translator(l))
	var html bytes.Buffer
	if err := view.Render(doc, &html); err != nil {
		return nil, err
	}
	return html.Bytes(), nil
}
