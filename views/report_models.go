package views

import (
	"fmt"

	"github.com/a-h/templ"

	"selfmap/internal/report"
	neoreport "selfmap/internal/report/ipipneo"
	"selfmap/internal/report/screen"
)

// The report's view models are the instruments' own (internal/report/<name>):
// the builders make them, and these functions pick each one's view. A new
// instrument adds its case here beside its templ.

// ReportView draws a built report as its screen, in the screen's chrome.
func ReportView(r report.Report, c ReportChrome) (templ.Component, error) {
	switch m := r.(type) {
	case neoreport.Report:
		return Report(ReportPage{Report: m, ReportChrome: c}), nil
	case screen.Report:
		return ScreenReport(ScreenReportPage{Report: m, ReportChrome: c}), nil
	}
	return nil, fmt.Errorf("views: no report page for %T", r)
}

// ReportPrintView draws a built report as the PDF prints it, with its
// styles inline.
func ReportPrintView(r report.Report, css string) (templ.Component, error) {
	switch m := r.(type) {
	case neoreport.Report:
		return ReportPrint(ReportPage{Report: m, ReportChrome: ReportChrome{Print: true}}, css), nil
	case screen.Report:
		return ScreenReportPrint(ScreenReportPage{Report: m, ReportChrome: ReportChrome{Print: true}}, css), nil
	}
	return nil, fmt.Errorf("views: no printed report for %T", r)
}

// FreeResultView draws a built free result with the way to its full report.
func FreeResultView(r report.Report, unlockHref string) (templ.Component, error) {
	switch m := r.(type) {
	case neoreport.Free:
		return FreeResult(FreeResultPage{Free: m, UnlockHref: unlockHref}), nil
	case screen.Free:
		return ScreenFree(ScreenFreePage{Free: m, UnlockHref: unlockHref}), nil
	}
	return nil, fmt.Errorf("views: no free result for %T", r)
}
