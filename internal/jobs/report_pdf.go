package jobs

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"selfmap/internal/pdf"
)

// ReportPDFArgs asks for the PDF of a paid report in a locale.
type ReportPDFArgs struct {
	ResultID string `json:"result_id"`
	Locale   string `json:"locale"`
	// Packs is how many packs the report had when asked: a pack bought
	// later asks for a new PDF, which the uniqueness of the first would
	// otherwise refuse.
	Packs int `json:"packs"`
}

// Kind names the job in the queue table.
func (ReportPDFArgs) Kind() string { return "report_pdf" }

// InsertOpts keeps one such job per report and locale waiting or running,
// however many times the download is asked for.
func (ReportPDFArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 5, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// ReportPDFWorker prints a report to PDF and keeps it.
type ReportPDFWorker struct {
	river.WorkerDefaults[ReportPDFArgs]
	Render func(ctx context.Context, resultID, locale string) error
	Logger *slog.Logger
}

// Timeout bounds one printing, the browser's start included.
func (w *ReportPDFWorker) Timeout(*river.Job[ReportPDFArgs]) time.Duration { return 2 * time.Minute }

// Work prints the report; a PDF already made is left as it is.
func (w *ReportPDFWorker) Work(ctx context.Context, job *river.Job[ReportPDFArgs]) error {
	start := time.Now()
	if err := w.Render(ctx, job.Args.ResultID, job.Args.Locale); err != nil {
		if errors.Is(err, pdf.ErrNotPrintable) {
			return river.JobCancel(err)
		}
		return err
	}
	w.Logger.InfoContext(ctx, "jobs: report pdf ready", "result", job.Args.ResultID, "locale", job.Args.Locale, "took", time.Since(start))
	return nil
}
