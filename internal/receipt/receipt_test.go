package receipt_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/pdf"
	"selfmap/internal/receipt"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

var epoch = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

// member stores an account on s and subscribes it, paid now, with the
// sandbox's good card; it returns the subscription service and the row.
func member(t *testing.T, s *store.Store, now func() time.Time, id, email string) (*subscription.Service, subscription.Subscription) {
	t.Helper()
	ctx := context.Background()
	if err := s.CreateUser(ctx, s.DB, store.User{ID: id, Email: email, Name: "Ada", PasswordHash: "x", SessionGen: 1,
		CreatedAt: now(), UpdatedAt: now()}); err != nil {
		t.Fatal(err)
	}
	sb := storetest.Sandbox(s, now)
	svc := &subscription.Service{Store: s, Provider: sb, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: now}
	sub, err := svc.PayNow(ctx, subscription.StartInput{CustomerID: id, Email: email, Locale: "en", Country: "US", PlanID: "basic-weekly",
		Method: storetest.GoodCard(t, sb)})
	if err != nil {
		t.Fatal(err)
	}
	return svc, sub
}

func TestReceiptsFromRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		at := epoch
		now := func() time.Time { return at }
		subs, sub := member(t, s, now, "u1", "ada@example.com")
		member(t, s, now, "u2", "bob@example.com")

		// A paid report of the account, later than the subscription's charge.
		at = at.Add(time.Hour)
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r1", Code: "INTJ", ResultEmail: "ada@example.com", Report: store.OrderPaid, At: at})
		if _, err := s.DB.Exec(s.DB.Rebind(`UPDATE orders SET total = ?, currency = ? WHERE id = ?`), 1500, "USD", "o-r1"); err != nil {
			t.Fatal(err)
		}
		// An order a promo code paid in full took no money: no receipt.
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r2", Code: "ENFP", ResultEmail: "ada@example.com", Report: store.OrderPaid, At: at})
		if err := s.ClaimByEmail(ctx, s.DB, "u1", "ada@example.com"); err != nil {
			t.Fatal(err)
		}
		// The card is replaced after both were paid.
		at = at.Add(time.Hour)
		if _, errs, err := subs.ReplaceCard(ctx, "u1", sub.ID, subscription.CardInput{Number: "4000000000009995", Expiry: "12/30", CVC: "123"}); err != nil || errs.Any() {
			t.Fatalf("replace card: %v %v", errs, err)
		}

		svc := &receipt.Service{Store: s, Now: now}
		o, err := svc.Overview(ctx, "u1")
		if err != nil {
			t.Fatal(err)
		}
		if o.Subscription == nil || o.Subscription.ID != sub.ID || !o.NextCharge.Equal(sub.CurrentPeriodEnd) || o.NextAmount != sub.Price {
			t.Fatalf("overview: %+v", o)
		}
		if len(o.Receipts) != 2 {
			t.Fatalf("receipts: %+v", o.Receipts)
		}
		order, charge := o.Receipts[0], o.Receipts[1]
		if order.Kind != receipt.KindReport || order.Number != "SM-r1" || order.ID != "oo-r1" || order.Amount != 1500 || order.Currency != "USD" {
			t.Errorf("newest receipt: %+v", order)
		}
		if charge.Kind != receipt.KindSubscription || charge.Item != "basic-weekly" || charge.InvoiceKind != subscription.KindPayNow ||
			charge.Amount != 1999 || charge.Currency != "USD" || charge.CardBrand != "visa" || charge.CardLast4 != "4242" || !charge.Date.Equal(epoch) {
			t.Errorf("subscription receipt (charged to the card before the change): %+v", charge)
		}
		got, err := svc.Get(ctx, "u1", charge.ID)
		if err != nil || got != charge {
			t.Errorf("Get = %+v, %v", got, err)
		}
		for _, id := range []string{charge.ID, order.ID, "snothere", ""} {
			if _, err := svc.Get(ctx, "u2", id); !errors.Is(err, apperr.ErrNotFound) {
				t.Errorf("u2 reads %q: %v", id, err)
			}
		}
		if _, _, err := svc.PDF(ctx, "u1", charge.ID, "en"); !errors.Is(err, receipt.ErrNoPrinter) {
			t.Errorf("PDF without a printer: %v", err)
		}
		if _, _, err := svc.PDF(ctx, "u2", charge.ID, "en"); !errors.Is(err, apperr.ErrNotFound) {
			t.Errorf("PDF of another member's receipt: %v", err)
		}

		none, err := svc.Overview(ctx, "nobody")
		if err != nil || none.Subscription != nil || len(none.Receipts) != 0 {
			t.Errorf("a member with nothing: %+v, %v", none, err)
		}
	})
}

// The PDF is the receipt's own document printed by Chromium; without
// Chromium the test is skipped, except in CI.
func TestReceiptPDF(t *testing.T) {
	printer, err := pdf.Find(os.Getenv("CHROMIUM_PATH"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	s := storetest.SQLite(t)
	now := func() time.Time { return epoch }
	member(t, s, now, "u1", "ada@example.com")
	var drawn receipt.Receipt
	svc := &receipt.Service{Store: s, Now: now, Printer: printer, Document: func(_ context.Context, r receipt.Receipt, tag string) ([]byte, error) {
		drawn = r
		return []byte(`<!DOCTYPE html><html lang="` + tag + `"><body><h1>Selfmap ` + r.Number + `</h1></body></html>`), nil
	}}
	list, err := svc.List(context.Background(), "u1")
	if err != nil || len(list) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
	r, out, err := svc.PDF(context.Background(), "u1", list[0].ID, "de")
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != list[0].ID || drawn.ID != r.ID || !bytes.HasPrefix(out, []byte("%PDF-")) || pdf.Pages(out) != 1 {
		t.Fatalf("PDF of %s: %d bytes, %d pages", r.ID, len(out), pdf.Pages(out))
	}
}
