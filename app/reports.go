package app

import (
	"context"
	"time"

	"selfmap/handlers"
	"selfmap/internal/exam"
	"selfmap/internal/exam/crisis"
	"selfmap/internal/jobs"
	"selfmap/internal/mail"
	"selfmap/internal/pdf"
	"selfmap/internal/report"
	neoreport "selfmap/internal/report/ipipneo"
	"selfmap/internal/report/screen"
	"selfmap/internal/reportpdf"
	"selfmap/internal/store"
)

// reportBuilders are the report builders of the instruments, one each, by
// the instrument's name: a new instrument (exam.loadInstruments) adds its
// builder here. Every exam's instrument must have one, or the start fails.
// The screens (PHQ-9, K10) are given the crisis lines of every country.
func reportBuilders(exams *exam.Registry, stats *report.StatsCache) (report.Builders, error) {
	inst, _ := exams.Instrument(exam.IPIPNEO120)
	neo, err := neoreport.New(inst, stats)
	if err != nil {
		return nil, err
	}
	lines, err := crisis.Load()
	if err != nil {
		return nil, err
	}
	b := report.Builders{exam.IPIPNEO120: neo}
	for name, spec := range map[string]func() (screen.Spec, error){exam.PHQ9: screen.PHQ9, exam.K10: screen.K10} {
		sp, err := spec()
		if err != nil {
			return nil, err
		}
		if b[name], err = screen.New(sp, lines); err != nil {
			return nil, err
		}
	}
	return b, b.Check(exams)
}

// wireReports builds the report side in order, with nothing half-built:
// the report service, the PDF renderer given it, the job queue given the
// renderer (withJobs), then the PDF downloads given the queue. Without a
// queue a PDF is printed in the request that asks for it (the HTTP tests,
// tools). It fills d.Reports and d.PDFs, and a.Jobs when withJobs.
func (a *App) wireReports(st *store.Store, d *handlers.Deps, withJobs bool) error {
	stats := &report.StatsCache{Store: st, Now: d.Now, TTL: time.Minute}
	builders, err := reportBuilders(d.Exams, stats)
	if err != nil {
		return err
	}
	d.Reports = &report.Service{Store: st, Exams: d.Exams, Builders: builders, Catalog: d.Catalog, Results: d.Results,
		Retrieval: d.Retrieval, Packs: d.Packs, Logger: d.Logger, Now: d.Now}
	printer, err := pdf.Find(d.Config.ChromiumPath)
	if err != nil {
		d.Logger.Warn("app: PDF reports are off", "err", err)
	}
	renderer := &reportpdf.Renderer{Reports: d.Reports, Store: st, Printer: printer, Catalog: d.Catalog, Assets: d.Assets,
		BaseURL: d.Config.BaseURL, Now: d.Now}
	enqueue := func(ctx context.Context, resultID, locale string, _ int) error {
		return renderer.Render(ctx, resultID, locale)
	}
	if withJobs {
		q, err := a.newQueue(st, d, renderer.Render)
		if err != nil {
			return err
		}
		a.Jobs = q
		enqueue = func(ctx context.Context, resultID, locale string, packs int) error {
			return q.Insert(ctx, jobs.ReportPDFArgs{ResultID: resultID, Locale: locale, Packs: packs}, nil)
		}
	}
	if printer == nil {
		enqueue = nil
	}
	d.PDFs = &report.PDFs{Store: st, Packs: d.Packs, Enqueue: enqueue}
	return nil
}

// newQueue builds the job queue with every worker, not started: the mail
// outbox (when MAIL_URL is set), payment reconciliation, the sandbox's
// subscription renewals and the report PDFs.
func (a *App) newQueue(st *store.Store, d *handlers.Deps, renderPDF func(ctx context.Context, resultID, locale string) error) (*jobs.Queue, error) {
	deps := jobs.Deps{Store: st, Logger: d.Logger, Now: d.Now, Reconcile: a.Checkout.Reconcile, RenderPDF: renderPDF}
	if a.Subscriptions != nil {
		deps.RenewSubscriptions = a.Subscriptions.RenewDue
	}
	if d.Config.MailURL != "" {
		var err error
		if deps.Mail, err = mail.NewSMTP(d.Config.MailURL, d.Config.MailFrom); err != nil {
			return nil, err
		}
	}
	return jobs.New(deps, true)
}
