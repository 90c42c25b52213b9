package app

import (
	"testing"

	"selfmap/internal/exam"
)

// Every instrument an exam uses has its report builder.
func TestEveryInstrumentHasAReportBuilder(t *testing.T) {
	exams, err := exam.LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	b, err := reportBuilders(exams, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range exams.List() {
		if _, err := b.For(exams, e.ID); err != nil {
			t.Error(err)
		}
	}
}
