package checkout_test

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"testing"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/checkout"
	"selfmap/internal/ids"
	"selfmap/internal/packs"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// addFlow stores a test-taker's result, with an id a URL can carry, priced
// in country ("" for the default price), and its report order "SMF".
func (f *fixture) addFlow(t *testing.T, country string) string {
	t.Helper()
	r := store.Result{ID: ids.New(), ExamID: 1807, PageCode: "BMBTI", Locale: "en", Answers: "[]", ExamVersion: "v", ItemsVersion: "i",
		NormsVersion: "n", NormGroup: "pooled", Scores: "{}", ResultCode: "ENFP-T", CreatedAt: f.now, UpdatedAt: f.now,
		Email: sql.NullString{String: "b@example.com", Valid: true}, Country: sql.NullString{String: country, Valid: country != ""}}
	o := store.Order{ID: "order-f", OrderNumber: "SMF", ResultID: r.ID, ExamID: 1807, Status: store.OrderCreated, CreatedAt: f.now, UpdatedAt: f.now}
	if err := f.s.CreateResultWithOrder(context.Background(), f.s.DB, r, o); err != nil {
		t.Fatal(err)
	}
	return r.ID
}

// startAndPay starts paying an order for a SKU and pays it with a card.
func (f *fixture) startAndPay(t *testing.T, c checkout.Created, card string) payment.Outcome {
	t.Helper()
	out, err := f.svc.ConfirmSandbox(context.Background(), checkout.SandboxCard{AttemptID: c.AttemptID, Card: goodCard(card)}, mine)
	if err != nil {
		t.Fatalf("confirm %s: %v", card, err)
	}
	return out
}

func goodCard(number string) payment.CardInput {
	return payment.CardInput{Number: number, ExpMonth: 12, ExpYear: 2030, CVC: "123", Name: "Kim", PostalCode: "10115"}
}

func (f *fixture) createFlow(t *testing.T) checkout.Created {
	t.Helper()
	c, err := f.svc.Create(context.Background(), checkout.CreateInput{OrderNumber: "SMF", SKUID: "mbti-report", Email: "b@example.com"}, mine)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A checkout screen is about a result of the caller's: another's, an id no
// URL carries and an unknown one all look the same.
func TestFlowIsTheCallersOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		id := f.addFlow(t, "")
		ctx := context.Background()
		stranger := func(string) bool { return false }
		for name, try := range map[string]func() error{
			"another's":     func() error { _, err := f.svc.Flow(ctx, id, stranger); return err },
			"not an id":     func() error { _, err := f.svc.Flow(ctx, "result-1", mine); return err },
			"unknown":       func() error { _, err := f.svc.Flow(ctx, ids.New(), mine); return err },
			"buy another's": func() error { _, err := f.svc.Buy(ctx, id, stranger, notUnlocked); return err },
			"pay another's": func() error { _, err := f.svc.Payment(ctx, id, "", stranger); return err },
			"packs of another's": func() error {
				_, err := f.svc.PackStep(ctx, checkout.PackStepInput{ResultID: id, Owns: stranger})
				return err
			},
		} {
			if err := try(); !errors.Is(err, checkout.ErrNotFound) {
				t.Errorf("%s: %v", name, err)
			}
		}
		fl, err := f.svc.Flow(ctx, id, mine)
		if err != nil || fl.Result.ID != id || fl.Order.OrderNumber != "SMF" || fl.Country() != "*" {
			t.Fatalf("own flow: %+v %v", fl, err)
		}
	})
}

// The buy page prices the report for the buyer's country and counts the
// reports paid since midnight UTC; a paid report is not sold again.
func TestBuyCountsTodayAndStopsOncePaid(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		id := f.addFlow(t, "DE")
		ctx := context.Background()
		b, err := f.svc.Buy(ctx, id, mine, notUnlocked)
		if err != nil {
			t.Fatal(err)
		}
		if b.Quote.Total != 999 || b.Quote.Currency != "EUR" || b.UnlockedToday != 0 || b.TestsTotal != 2 {
			t.Fatalf("buy page before any payment: %+v", b)
		}
		f.pay(t, f.create(t))
		if b, _ = f.svc.Buy(ctx, id, mine, notUnlocked); b.UnlockedToday != 1 {
			t.Errorf("a report paid at noon: %d unlocked today", b.UnlockedToday)
		}
		f.now = time.Date(2026, 11, 23, 0, 30, 0, 0, time.UTC)
		if b, _ = f.svc.Buy(ctx, id, mine, notUnlocked); b.UnlockedToday != 0 {
			t.Errorf("after midnight UTC: %d unlocked today; want the new day's 0", b.UnlockedToday)
		}
		f.startAndPay(t, f.createFlow(t), "4242424242424242")
		b, err = f.svc.Buy(ctx, id, mine, notUnlocked)
		if err != nil || !b.Order.Paid() || b.Quote.Total != 0 {
			t.Fatalf("buy page of a paid report: %+v %v; want only its flow", b, err)
		}
	})
}

// The payment page tries a promo code: one that applies discounts the
// price and goes to the card form; one that does not is named and the
// report priced without it.
func TestPaymentTriesThePromo(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		id := f.addFlow(t, "")
		f.savePromo(t, "TEN", 10, nil)
		f.savePromo(t, "OLD", 10, func(p *store.Promo) { p.ValidUntil = sql.NullTime{Time: f.now.Add(-time.Minute), Valid: true} })
		ctx := context.Background()
		for _, tc := range []struct {
			typed, promo, errID, applied string
			discount, total              int64
		}{
			{typed: "", total: 999},
			{typed: " ten ", promo: "TEN", applied: "TEN", discount: 100, total: 899},
			{typed: "nope", promo: "NOPE", errID: "pay.promo.unknown", total: 999},
			{typed: "OLD", promo: "OLD", errID: "pay.promo.expired", total: 999},
		} {
			p, err := f.svc.Payment(ctx, id, tc.typed, mine)
			if err != nil {
				t.Fatal(err)
			}
			if p.Promo != tc.promo || p.PromoError != tc.errID || p.Applied() != tc.applied || p.Quote.Discount != tc.discount ||
				p.Quote.Total != tc.total || p.Quote.SKUID != "mbti-report" {
				t.Errorf("promo %q: %+v (applied %q)", tc.typed, p, p.Applied())
			}
		}
	})
}

// The upsell opens after a paid report, sends a buyer to their first step,
// follows a pack's payment to its end and lists what was bought.
func TestPackStepFollowsThePack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		id := f.addFlow(t, "")
		ctx := context.Background()
		step := func(name string, afterPay bool) checkout.PackStep {
			t.Helper()
			p, err := f.svc.PackStep(ctx, checkout.PackStepInput{ResultID: id, Owns: mine, Step: name, AfterPay: afterPay})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		if p := step(packs.AddPacks, false); p.Order.Paid() || p.Plan != nil {
			t.Fatalf("upsell before the report is paid: %+v", p)
		}
		f.startAndPay(t, f.createFlow(t), "4242424242424242")
		want := []string{packs.AddPacks, packs.DepthContent, packs.MemberExclusive, packs.AccessProduct}
		if p := step("", false); !p.Moved || p.Step != packs.AddPacks || !slices.Equal(p.Plan, want) {
			t.Fatalf("no step asked: %+v", p)
		}
		p := step(packs.AddPacks, false)
		if p.Moved || p.Next != packs.DepthContent || p.Offer.SKU.SKU.ID != "mbti-pack-relationships" || p.State != packs.StateOffer {
			t.Fatalf("first step: %+v", p)
		}
		c, err := f.svc.CreatePack(ctx, checkout.CreateInput{OrderNumber: "SMF", SKUID: "mbti-pack-relationships"}, mine)
		if err != nil {
			t.Fatal(err)
		}
		if p := step(packs.AddPacks, true); p.State != packs.StateChecking {
			t.Errorf("pack payment started: state %s", p.State)
		}
		f.startAndPay(t, c, "4000000000000002")
		if p := step(packs.AddPacks, true); p.State != packs.StateOffer || !p.Failed {
			t.Errorf("pack payment declined: state %s, failed %v", p.State, p.Failed)
		}
		c, err = f.svc.CreatePack(ctx, checkout.CreateInput{OrderNumber: "SMF", SKUID: "mbti-pack-relationships"}, mine)
		if err != nil {
			t.Fatal(err)
		}
		f.startAndPay(t, c, "4242424242424242")
		if p := step(packs.AddPacks, true); p.State != packs.StateAdded {
			t.Errorf("pack just paid: state %s", p.State)
		}
		if p := step(packs.AddPacks, false); p.State != packs.StateOwned {
			t.Errorf("pack paid before: state %s", p.State)
		}
		last := step(packs.AccessProduct, false)
		if last.Next != "" || len(last.Owned) != 1 || last.Owned[0].SKUID.String != "mbti-pack-relationships" {
			t.Errorf("last step: %+v", last)
		}
		list, err := f.svc.PackList(ctx, "SMF", mine)
		if err != nil || len(list.Offers) != 3 || !list.Offers[0].Owned() || list.Offers[1].Owned() || !list.Order.Paid() {
			t.Errorf("pack list: %+v %v", list, err)
		}
		if _, err := f.svc.PackList(ctx, c.OrderNumber, mine); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("pack list of a pack's order: %v", err)
		}
	})
}

// The sandbox's card form checks the card before anything else changes,
// pays an attempt once, answers a retry with its success, and keeps no
// more of the card than its brand and last digits.
func TestConfirmSandbox(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.addFlow(t, "")
		ctx := context.Background()
		c := f.createFlow(t)
		stranger := func(string) bool { return false }
		if _, err := f.svc.ConfirmSandbox(ctx, checkout.SandboxCard{AttemptID: c.AttemptID, Card: goodCard("4242424242424242")}, stranger); !errors.Is(err, checkout.ErrNotFound) {
			t.Fatalf("a stranger's card: %v", err)
		}
		bad := goodCard("4242424242424241")
		var ae *apperr.Error
		if _, err := f.svc.ConfirmSandbox(ctx, checkout.SandboxCard{AttemptID: c.AttemptID, Card: bad}, mine); !errors.As(err, &ae) ||
			ae.ID != "checkout.invalid_number" || ae.Data["Field"] != "number" || ae.Data["Digits"] != 3 {
			t.Fatalf("bad number: %v", err)
		}
		p, err := f.svc.LatestPayment(ctx, "SMF", mine)
		if err != nil || p.Attempt == nil || p.Attempt.CardLast4.Valid {
			t.Fatalf("before paying: %+v %v", p, err)
		}
		for range 2 {
			if out := f.startAndPay(t, c, "4242424242424242"); out.Status != "succeeded" {
				t.Fatalf("paying (or its retry): %+v", out)
			}
		}
		p, err = f.svc.LatestPayment(ctx, "SMF", mine)
		if err != nil || !p.Order.Paid() || p.Attempt.CardLast4.String != "4242" || p.Attempt.CardBrand.String != "visa" {
			t.Fatalf("after paying: %+v %v", p, err)
		}
	})
}

// After the 3-D Secure step a report's buyer goes to its status check and a
// pack's to its step of the upsell.
func TestSandbox3DSGoesBackToItsScreen(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		id := f.addFlow(t, "")
		ctx := context.Background()
		c := f.createFlow(t)
		if out := f.startAndPay(t, c, "4000002760003184"); out.Status != "requires_action" {
			t.Fatalf("3-D Secure card: %+v", out)
		}
		back, err := f.svc.CompleteSandbox3DS(ctx, c.AttemptID, true, mine)
		if err != nil || back.ResultID != id || back.Pack {
			t.Fatalf("after 3-D Secure: %+v %v", back, err)
		}
		if fl, _ := f.svc.Flow(ctx, id, mine); !fl.Order.Paid() {
			t.Fatalf("3-D Secure passed: order %s", fl.Order.Status)
		}
		pack, err := f.svc.CreatePack(ctx, checkout.CreateInput{OrderNumber: "SMF", SKUID: "mbti-pack-career"}, mine)
		if err != nil {
			t.Fatal(err)
		}
		f.startAndPay(t, pack, "4000002760003184")
		back, err = f.svc.CompleteSandbox3DS(ctx, pack.AttemptID, false, mine)
		if err != nil || back.ResultID != id || !back.Pack || back.PackStep != packs.DepthContent {
			t.Fatalf("after a pack's 3-D Secure: %+v %v", back, err)
		}
		if _, err := f.svc.CompleteSandbox3DS(ctx, pack.AttemptID, true, func(string) bool { return false }); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("a stranger's 3-D Secure: %v", err)
		}
	})
}

// notUnlocked is a reader whose plan opens no report.
func notUnlocked(context.Context, string) (bool, error) { return false, nil }
