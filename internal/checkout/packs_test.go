package checkout_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"selfmap/internal/apperr"
	"selfmap/internal/checkout"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// pay confirms a started payment with the sandbox's good card.
func (f *fixture) pay(t *testing.T, c checkout.Created) {
	t.Helper()
	out, err := f.sandbox.Confirm(context.Background(), f.ref(t, c.AttemptID), payment.Card{Number: "4242424242424242"})
	if err != nil || out.Status != "succeeded" {
		t.Fatalf("confirm: %+v %v", out, err)
	}
}

func (f *fixture) createPack(sku string) (checkout.Created, error) {
	return f.svc.CreatePack(context.Background(), checkout.CreateInput{OrderNumber: "SM1", SKUID: sku}, mine)
}

func errID(err error) string {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return ae.ID
	}
	return ""
}

// A pack is sold only with a paid report, as its own order, priced by the
// server, and fulfilled through the one webhook path.
func TestPackIsItsOwnOrderAfterTheReport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixtureIn(t, s, "DE")
		if _, err := f.createPack("mbti-pack-career"); errID(err) != "pay.pack.report_first" {
			t.Fatalf("pack before the report: %v", err)
		}
		f.pay(t, f.create(t))
		c, err := f.createPack("mbti-pack-career")
		if err != nil {
			t.Fatal(err)
		}
		if c.OrderNumber == "" || c.OrderNumber == "SM1" || c.Total != 499 || c.Currency != "EUR" {
			t.Fatalf("pack payment %+v; want an order of its own at the DE price 499 EUR", c)
		}
		// A PDF printed before the pack lacks its sections: buying the pack
		// drops it, so the next download prints it again.
		if err := s.SaveReportPDF(context.Background(), s.DB, store.ReportPDF{ResultID: "result-1", Locale: "en", PDF: []byte("%PDF-"), Pages: 1,
			CreatedAt: f.now}); err != nil {
			t.Fatal(err)
		}
		f.pay(t, c)
		if _, err := s.GetReportPDF(context.Background(), s.DB, "result-1", "en"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the PDF printed before the pack is still served: %v", err)
		}
		pack, err := s.GetOrderByNumber(context.Background(), s.DB, c.OrderNumber)
		if err != nil {
			t.Fatal(err)
		}
		if pack.Status != "paid" || pack.Kind != store.OrderPack || pack.SKUID.String != "mbti-pack-career" || pack.Email.String != "a@example.com" {
			t.Fatalf("pack order after paying: %+v", pack)
		}
		if n := f.count(t, receipts); n != 2 {
			t.Errorf("%d receipts; want one for the report and one for the pack", n)
		}
		if n, links := f.count(t, reportReady), f.count(t, "report_links"); n != 1 || links != 1 {
			t.Errorf("%d report-ready mails and %d links; a pack order must not send one", n, links)
		}
		if _, err := f.createPack("mbti-pack-career"); !errors.Is(err, checkout.ErrPackOwned) {
			t.Errorf("buying a pack twice: %v", err)
		}
		report, err := s.OrderForResult(context.Background(), s.DB, "result-1")
		if err != nil || report.OrderNumber != "SM1" {
			t.Errorf("the result's report order is now %+v (%v)", report, err)
		}
	})
}

// A pack's order sells only its pack: not the report, not another pack; and
// the report's order never sells a pack.
func TestPackOrdersSellOnlyTheirPack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		if _, err := f.svc.Create(ctx, checkout.CreateInput{OrderNumber: "SM1", SKUID: "mbti-pack-growth", Email: "a@example.com"}, mine); errID(err) != "pay.unknown_product" {
			t.Fatalf("report order paid with a pack: %v", err)
		}
		f.pay(t, f.create(t))
		if _, err := f.createPack("mbti-report"); errID(err) != "pay.unknown_product" {
			t.Fatalf("the report sold as a pack: %v", err)
		}
		c, err := f.createPack("mbti-pack-growth")
		if err != nil {
			t.Fatal(err)
		}
		for _, sku := range []string{"mbti-report", "mbti-pack-career"} {
			_, err := f.svc.Create(ctx, checkout.CreateInput{OrderNumber: c.OrderNumber, SKUID: sku, Email: "a@example.com"}, mine)
			if errID(err) != "pay.unknown_product" {
				t.Errorf("pack order %s paid with %s: %v", c.OrderNumber, sku, err)
			}
		}
		stranger := func(string) bool { return false }
		if _, err := f.svc.CreatePack(ctx, checkout.CreateInput{OrderNumber: "SM1", SKUID: "mbti-pack-growth"}, stranger); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("a stranger bought a pack on someone's order: %v", err)
		}
	})
}

// Two concurrent clicks on a pack make one order and one attempt.
func TestConcurrentPackClicksMakeOneOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.pay(t, f.create(t))
		var wg sync.WaitGroup
		got := make([]checkout.Created, 4)
		errs := make([]error, len(got))
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = f.createPack("mbti-pack-relationships")
			}()
		}
		wg.Wait()
		for i := range got {
			if errs[i] != nil {
				t.Fatalf("click %d: %v", i, errs[i])
			}
			if got[i].OrderNumber != got[0].OrderNumber || got[i].AttemptID != got[0].AttemptID {
				t.Fatalf("clicks made different payments: %+v", got)
			}
		}
		var orders, attempts int
		if err := s.DB.Get(&orders, `SELECT COUNT(*) FROM orders WHERE kind = 'pack'`); err != nil {
			t.Fatal(err)
		}
		if err := s.DB.Get(&attempts, s.DB.Rebind(`SELECT COUNT(*) FROM payment_attempts a JOIN orders o ON o.id = a.order_id WHERE o.kind = 'pack'`)); err != nil {
			t.Fatal(err)
		}
		if orders != 1 || attempts != 1 {
			t.Fatalf("%d pack orders and %d attempts; want 1 and 1", orders, attempts)
		}
	})
}
