package report

import (
	"context"
	"fmt"
	"sort"

	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/result"
)

// Input is what a report is built from: a stored result, its order number,
// the reader's language and the packs bought for it.
type Input struct {
	Result result.Result
	// Order is the report order's number ("" for the free result).
	Order  string
	Locale i18n.Locale
	T      *i18n.Translator
	// Packs are the SKU ids of the packs bought, oldest first.
	Packs []string
}

// Report is one instrument's report of a result, as its Builder made it:
// the page, the PDF and the free result draw it (views.ReportView knows
// each instrument's model).
type Report interface {
	// Headline names the result in a line: what its share links carry.
	Headline() Headline
}

// Headline names a result: its code ("ENFP-T"), its title, and the slug of
// its type's public page ("enfp"; "" when the instrument has none).
type Headline struct {
	Code, Title, TypePage string
}

// Builder turns the results of one instrument into its reports. Every
// instrument has one (Builders), so a new instrument brings its own report
// instead of a branch in the screens.
type Builder interface {
	// Free is what a result shows before its report is bought.
	Free(ctx context.Context, in Input) (Report, error)
	// Build is the full report of a paid result.
	Build(ctx context.Context, in Input) (Report, error)
}

// Builders are the report builders by instrument name (the instrument of
// exams.json, e.g. exam.IPIPNEO120).
type Builders map[string]Builder

// For returns the builder of an exam's instrument.
func (b Builders) For(exams *exam.Registry, examID int) (Builder, error) {
	e, ok := exams.Exam(examID)
	if !ok {
		return nil, fmt.Errorf("report: exam %d is not served", examID)
	}
	bl, ok := b[e.InstrumentName]
	if !ok {
		return nil, fmt.Errorf("report: instrument %s of exam %d has no report builder", e.InstrumentName, examID)
	}
	return bl, nil
}

// Check fails when an exam's instrument has no builder, so that a missing
// one stops the start instead of a report page.
func (b Builders) Check(exams *exam.Registry) error {
	var missing []string
	for _, e := range exams.List() {
		if _, ok := b[e.InstrumentName]; !ok {
			missing = append(missing, e.InstrumentName)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("report: no report builder for instruments %v", missing)
	}
	return nil
}
