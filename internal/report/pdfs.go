package report

import (
	"cmp"
	"context"
	"errors"

	"selfmap/internal/apperr"
	"selfmap/internal/packs"
	"selfmap/internal/store"
)

// ErrNoPrinter is a PDF asked for where no printer (Chromium) was found.
var ErrNoPrinter = errors.New("report: no PDF printer")

// PDFs hands out a report's PDF in a locale, and asks for it when it is not
// made yet. It stands apart from Service so that the wiring can build, in
// order, the report service, the printer given it, the job queue given the
// printer, and then PDFs given the queue.
type PDFs struct {
	Store *store.Store
	Packs *packs.Service
	// Enqueue asks for a PDF to be made: a report_pdf job, or the print
	// itself where no queue runs (tests, tools). It is chosen once, when the
	// service is wired; nil when no printer was found.
	Enqueue func(ctx context.Context, resultID, locale string, packs int) error
}

// Download is a report's PDF in a locale as the download screens see it.
type Download struct {
	// Ready is set once the PDF is made; until then the screens look again.
	Ready bool
	PDF   []byte
	Pages int
	// Name is the file's name, after the order and the locale.
	Name string
}

// Get returns a report's PDF in a locale when it is made, and otherwise
// asks for it (Download.Ready unset): ErrNoPrinter when none can be made.
func (p *PDFs) Get(ctx context.Context, resultID, locale string) (Download, error) {
	d, err := p.kept(ctx, resultID, locale)
	if err != nil || d.Ready {
		return d, err
	}
	if p.Enqueue == nil {
		return d, ErrNoPrinter
	}
	owned, err := p.Packs.Owned(ctx, resultID)
	if err != nil {
		return d, err
	}
	if err := p.Enqueue(ctx, resultID, locale, len(owned)); err != nil {
		return d, err
	}
	// Without a job queue the PDF was printed just now.
	return p.kept(ctx, resultID, locale)
}

// ForOrder is Get for the report of a report order: an order of another
// kind, or one whose report is not open (neither paid nor unlocked by a
// plan, the rule of result.Service.Unlocked), is ErrNotFound.
func (p *PDFs) ForOrder(ctx context.Context, o store.Order, locale string) (Download, error) {
	if o.Kind != store.OrderReport {
		return Download{}, ErrNotFound
	}
	if open, err := p.Store.ReportOpen(ctx, p.Store.DB, o.ResultID); err != nil || !open {
		return Download{}, cmp.Or(err, error(ErrNotFound))
	}
	return p.Get(ctx, o.ResultID, locale)
}

// kept is the PDF made before, if any.
func (p *PDFs) kept(ctx context.Context, resultID, locale string) (Download, error) {
	k, err := p.Store.GetReportPDF(ctx, p.Store.DB, resultID, locale)
	if errors.Is(err, apperr.ErrNotFound) {
		return Download{}, nil
	}
	if err != nil {
		return Download{}, err
	}
	o, err := p.Store.OrderForResult(ctx, p.Store.DB, resultID)
	if err != nil {
		return Download{}, err
	}
	return Download{Ready: true, PDF: k.PDF, Pages: k.Pages, Name: "selfmap-" + o.OrderNumber + "-" + locale + ".pdf"}, nil
}
