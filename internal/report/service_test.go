package report

import (
	"context"
	"errors"
	"strings"
	"testing"

	"selfmap/internal/exam"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// A rating is 1 to 5; anything else is refused before it is stored.
func TestRateRefusesOutOfRange(t *testing.T) {
	s := &Service{}
	for _, score := range []int{-1, 0, 6, 9} {
		if err := s.Rate(context.Background(), "r1", score); !errors.Is(err, ErrRatingInvalid) {
			t.Errorf("Rate(%d) = %v, want ErrRatingInvalid", score, err)
		}
	}
}

// Only an open report (paid, or unlocked by a plan) has a PDF; a pack's
// order or an unpaid report's is not found, like a missing order.
func TestOrderPDFNeedsAnOpenReport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		storetest.Buy(t, st, storetest.Purchase{ResultID: "r1"})
		p := &PDFs{Store: st}
		for _, o := range []store.Order{
			{Kind: store.OrderReport, Status: store.OrderCreated, ResultID: "r1"},
			{Kind: store.OrderPack, Status: store.OrderPaid, ResultID: "r1"},
		} {
			if _, err := p.ForOrder(context.Background(), o, "en"); !errors.Is(err, ErrNotFound) {
				t.Errorf("ForOrder(%s %s) = %v, want ErrNotFound", o.Kind, o.Status, err)
			}
		}
	})
}

// An exam whose instrument has no report builder stops the start.
func TestBuildersCoverEveryInstrument(t *testing.T) {
	exams, err := exam.LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	if err := (Builders{}).Check(exams); err == nil || !strings.Contains(err.Error(), exam.IPIPNEO120) {
		t.Errorf("Check without builders = %v, want the instrument named", err)
	}
	if _, err := (Builders{}).For(exams, 1807); err == nil {
		t.Error("For found a builder in an empty set")
	}
	if _, err := (Builders{}).For(exams, 1); err == nil {
		t.Error("For found a builder for an exam that is not served")
	}
}
