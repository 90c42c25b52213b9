package checkout_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"selfmap/internal/checkout"
	"selfmap/internal/order"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// savePromo stores a percentage code valid from an hour before the
// fixture's now; change adjusts it before it is saved.
func (f *fixture) savePromo(t *testing.T, code string, percent int64, change func(*store.Promo)) {
	t.Helper()
	p := store.Promo{Code: code, Kind: "percent", Value: percent, ValidFrom: f.now.Add(-time.Hour)}
	if change != nil {
		change(&p)
	}
	if err := f.s.SavePromo(context.Background(), f.s.DB, p); err != nil {
		t.Fatal(err)
	}
}

// maxUses limits a code to n uses, of which used are already counted.
func maxUses(n int64, used int) func(*store.Promo) {
	return func(p *store.Promo) { p.MaxUses, p.Uses = sql.NullInt64{Int64: n, Valid: true}, used }
}

// addOrder stores another test-taker's result and report order, SM<n>.
func (f *fixture) addOrder(t *testing.T, n int) string {
	t.Helper()
	r := store.Result{ID: fmt.Sprintf("result-%d", n), ExamID: 1807, PageCode: "BMBTI", Locale: "en", Answers: "[]", ExamVersion: "v",
		ItemsVersion: "i", NormsVersion: "n", NormGroup: "pooled", Scores: "{}", ResultCode: "INTJ-A", CreatedAt: f.now, UpdatedAt: f.now}
	o := store.Order{ID: fmt.Sprintf("order-%d", n), OrderNumber: fmt.Sprintf("SM%d", n), ResultID: r.ID, ExamID: 1807,
		Status: store.OrderCreated, CreatedAt: f.now, UpdatedAt: f.now}
	if err := f.s.CreateResultWithOrder(context.Background(), f.s.DB, r, o); err != nil {
		t.Fatal(err)
	}
	return o.OrderNumber
}

func (f *fixture) createWith(number, promo string) (checkout.Created, error) {
	return f.svc.Create(context.Background(), checkout.CreateInput{OrderNumber: number, SKUID: "mbti-report", Email: "a@example.com", PromoCode: promo}, mine)
}

func (f *fixture) promo(t *testing.T, code string) store.Promo {
	t.Helper()
	p, err := f.s.GetPromo(context.Background(), f.s.DB, code)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *fixture) orderNo(t *testing.T, number string) store.Order {
	t.Helper()
	o, err := f.s.GetOrderByNumber(context.Background(), f.s.DB, number)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func (f *fixture) sandboxState(t *testing.T, attemptID string) string {
	t.Helper()
	p, err := f.s.GetSandboxPayment(context.Background(), f.s.DB, f.ref(t, attemptID))
	if err != nil {
		t.Fatal(err)
	}
	return p.State
}

// Issue 14: a code with one use left, put on three open payments, was paid
// three times at its price. Each payment now holds a use from its start:
// of three at once, one gets the price and the others are told the code is
// used up, before any card is charged.
func TestPromoWithOneUseLeftGoesToOnePayment(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.savePromo(t, "LAST", 50, maxUses(3, 2))
		orders := []string{"SM1", f.addOrder(t, 2), f.addOrder(t, 3)}
		got := make([]checkout.Created, len(orders))
		errs := make([]error, len(orders))
		var wg sync.WaitGroup
		for i, number := range orders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = f.createWith(number, "last")
			}()
		}
		wg.Wait()
		var winner checkout.Created
		for i := range orders {
			switch {
			case errs[i] == nil && winner.AttemptID == "":
				winner = got[i]
			case errID(errs[i]) != "pay.promo.used_up":
				t.Fatalf("payment %d of the last use: %+v, %v; want one payment at the promo price, the others refused", i, got[i], errs[i])
			}
		}
		if winner.Total != 499 {
			t.Fatalf("the payment that holds the last use: %+v", winner)
		}
		f.pay(t, winner)
		if p := f.promo(t, "LAST"); p.Uses != 3 {
			t.Errorf("uses %d after the last use was paid; want 3", p.Uses)
		}
		// The others pay the full price.
		for i, number := range orders {
			if errs[i] == nil {
				continue
			}
			c, err := f.createWith(number, "")
			if err != nil || c.Total != 999 {
				t.Fatalf("%s without the code: %+v %v", number, c, err)
			}
			f.pay(t, c)
		}
		var discounted int
		if err := s.DB.Get(&discounted, `SELECT COUNT(*) FROM orders WHERE status = 'paid' AND promo_code IS NOT NULL`); err != nil {
			t.Fatal(err)
		}
		if discounted != 1 {
			t.Errorf("%d orders paid at the promo price; want 1", discounted)
		}
	})
}

// A held use comes back when its payment is declined, replaced by one
// without the code, or left open past its hold; a payment left open past
// its hold can then no longer be paid at the price.
func TestPromoHoldIsGivenBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		f.savePromo(t, "ONCE", 50, maxUses(1, 0))
		second := f.addOrder(t, 2)
		first, err := f.createWith("SM1", "ONCE")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.createWith(second, "ONCE"); errID(err) != "pay.promo.used_up" {
			t.Fatalf("a use held by an open payment was given to another: %v", err)
		}
		// Declined: the use is free again.
		if out, err := f.sandbox.Confirm(ctx, f.ref(t, first.AttemptID), payment.Card{Number: "4000000000000002"}); err != nil || out.Status != "declined" {
			t.Fatalf("decline: %+v %v", out, err)
		}
		held, err := f.createWith(second, "ONCE")
		if err != nil || held.Total != 499 {
			t.Fatalf("the use after a decline: %+v %v", held, err)
		}
		if _, err := f.createWith("SM1", "ONCE"); errID(err) != "pay.promo.used_up" {
			t.Fatalf("the declined order took the use back from its new holder: %v", err)
		}
		// Replaced by a payment without the code: free again.
		if c, err := f.createWith(second, ""); err != nil || c.Total != 999 {
			t.Fatalf("replace with the full price: %+v %v", c, err)
		}
		again, err := f.createWith("SM1", "ONCE")
		if err != nil {
			t.Fatalf("the use after its payment was replaced: %v", err)
		}
		// Left open past the hold: free again, and no card is taken on it.
		f.now = f.now.Add(order.PromoHold + time.Minute)
		late, err := f.createWith(second, "ONCE")
		if err != nil || late.Total != 499 {
			t.Fatalf("the use after a hold ran out: %+v %v", late, err)
		}
		abandoned, err := s.GetAttempt(ctx, s.DB, again.AttemptID)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.svc.Payable(ctx, abandoned); !errors.Is(err, checkout.ErrPromoEnded) {
			t.Fatalf("a payment past its hold was payable: %v", err)
		}
		if st := f.sandboxState(t, again.AttemptID); st != "canceled" || f.status(t) != "failed" {
			t.Fatalf("the payment past its hold: sandbox %s, order %s; want canceled and failed (payable again)", st, f.status(t))
		}
		if holder, _ := s.GetAttempt(ctx, s.DB, late.AttemptID); f.svc.Payable(ctx, holder) != nil {
			t.Fatal("the payment holding the use is refused")
		}
		f.pay(t, late)
		if p := f.promo(t, "ONCE"); p.Uses != 1 {
			t.Errorf("uses %d; want 1", p.Uses)
		}
	})
}

// Issue 14: a payment started before its code expired was paid after it at
// the code's price. Before a card is taken the price is checked again; a
// payment confirmed past the end anyway (with Stripe the browser confirms)
// does not pay the order at that price; and the reconciler closes payments
// left open past their code's end.
func TestPromoExpiredAfterTheStartIsNotPaidAtItsPrice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		var logs bytes.Buffer
		f.svc.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		f.savePromo(t, "SOON", 50, func(p *store.Promo) { p.ValidUntil = sql.NullTime{Time: f.now.Add(10 * time.Minute), Valid: true} })
		checked, err := f.createWith("SM1", "SOON")
		if err != nil {
			t.Fatal(err)
		}
		unchecked, err := f.createWith(f.addOrder(t, 2), "SOON")
		if err != nil {
			t.Fatal(err)
		}
		left, err := f.createWith(f.addOrder(t, 3), "SOON")
		if err != nil {
			t.Fatal(err)
		}
		f.now = f.now.Add(11 * time.Minute)

		a, _ := s.GetAttempt(ctx, s.DB, checked.AttemptID)
		if err := f.svc.Payable(ctx, a); !errors.Is(err, checkout.ErrPromoEnded) {
			t.Fatalf("confirm after the code ended: %v", err)
		}
		if st := f.sandboxState(t, checked.AttemptID); st != "canceled" || f.status(t) != "failed" {
			t.Fatalf("after the code ended: sandbox %s, order %s", st, f.status(t))
		}
		if _, err := f.createWith("SM1", "SOON"); errID(err) != "pay.promo.expired" {
			t.Fatalf("starting again with the ended code: %v", err)
		}

		// Confirmed past the end without the check: money taken at a price
		// that no longer stands is not a paid order, and is logged for a
		// refund.
		if _, err := f.sandbox.Confirm(ctx, f.ref(t, unchecked.AttemptID), payment.Card{Number: "4242424242424242"}); err != nil {
			t.Fatal(err)
		}
		if o := f.orderNo(t, "SM2"); o.Status == "paid" {
			t.Fatalf("paid at the price of a code that had ended: %+v", o)
		}
		if !strings.Contains(logs.String(), "refund it") || f.count(t, "conversions") != 0 || f.promo(t, "SOON").Uses != 0 {
			t.Fatalf("%d conversions, %d uses, logs:\n%s", f.count(t, "conversions"), f.promo(t, "SOON").Uses, logs.String())
		}

		// Left open: the reconciler cancels it at the provider.
		if _, err := f.svc.Reconcile(ctx, 2*time.Minute); err != nil {
			t.Fatal(err)
		}
		if st, o := f.sandboxState(t, left.AttemptID), f.orderNo(t, "SM3"); st != "canceled" || o.Status != "failed" {
			t.Fatalf("a payment left open past its code's end: sandbox %s, order %s", st, o.Status)
		}
		if _, err := f.sandbox.Confirm(ctx, f.ref(t, left.AttemptID), payment.Card{Number: "4242424242424242"}); !errors.Is(err, payment.ErrNotPayable) {
			t.Fatalf("the closed payment took a card: %v", err)
		}
	})
}

// Issue 14: switching from one code to another at the same total kept the
// first code on the order, and its use was counted.
func TestSwitchingCodesAtTheSameTotalKeepsTheNewCode(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.savePromo(t, "TENA", 10, nil)
		f.savePromo(t, "TENB", 10, nil)
		first, err := f.createWith("SM1", "TENA")
		if err != nil {
			t.Fatal(err)
		}
		second, err := f.createWith("SM1", "TENB")
		if err != nil || second.Total != first.Total {
			t.Fatalf("the second code: %+v %v", second, err)
		}
		if second.AttemptID == first.AttemptID {
			t.Fatal("the payment of the first code answered for the second")
		}
		f.pay(t, second)
		if o := f.orderNo(t, "SM1"); o.PromoCode.String != "TENB" {
			t.Errorf("order paid with code %q; want TENB", o.PromoCode.String)
		}
		if a, b := f.promo(t, "TENA").Uses, f.promo(t, "TENB").Uses; a != 0 || b != 1 {
			t.Errorf("uses: TENA %d, TENB %d; want 0 and 1", a, b)
		}
	})
}

// Issue 14: the API applied a 100% code to a pack and fulfilled it at 0.
// Promo codes are for the report; a pack is always at its own price.
func TestPromoCodesNeverApplyToPacks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		f.savePromo(t, "FREE", 100, nil)
		f.pay(t, f.create(t))
		c, err := f.createPack("mbti-pack-career")
		if err != nil {
			t.Fatal(err)
		}
		in := checkout.CreateInput{OrderNumber: c.OrderNumber, SKUID: "mbti-pack-career", Email: "a@example.com", PromoCode: "FREE"}
		if got, err := f.svc.Create(ctx, in, mine); errID(err) != "pay.promo.packs" {
			t.Fatalf("a pack's order paid with a promo code: %+v %v", got, err)
		}
		if got, err := f.svc.CreatePack(ctx, checkout.CreateInput{OrderNumber: "SM1", SKUID: "mbti-pack-growth", PromoCode: "FREE"}, mine); errID(err) != "pay.promo.packs" {
			t.Fatalf("a pack bought with a promo code: %+v %v", got, err)
		}
		f.pay(t, c)
		pack := f.orderNo(t, c.OrderNumber)
		if pack.Status != "paid" || pack.Total != 499 || pack.Discount != 0 || pack.PromoCode.Valid || f.count(t, "payment_attempts WHERE amount = 0") != 0 {
			t.Fatalf("pack order %+v", pack)
		}
		if p := f.promo(t, "FREE"); p.Uses != 0 {
			t.Errorf("the code was counted %d times on a pack", p.Uses)
		}
	})
}

// sandboxEvent signs a sandbox delivery about an attempt, as the provider
// would.
func (f *fixture) sandboxEvent(t *testing.T, id string, kind payment.EventKind, c checkout.Created, failure string) ([]byte, http.Header) {
	t.Helper()
	payload, err := json.Marshal(map[string]any{"id": id, "type": string(kind), "ref": f.ref(t, c.AttemptID), "attemptId": c.AttemptID,
		"amount": c.Total, "currency": c.Currency, "failureCode": failure})
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	h.Set(payment.SandboxSignatureHeader, payment.Sign(storetest.SandboxSecret, payload, f.now))
	return payload, h
}

// Issue 14: a failure delivered after a payment's success marked the
// payment failed, and the next delivery of its success (under a new event
// id) was logged as a second payment to refund. A success stays a success,
// and every delivery of it, one after another or at once, is the same
// payment.
func TestLateFailureNeverDowngradesAPaymentThatSucceeded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		var logs bytes.Buffer
		f.svc.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		c := f.create(t)
		f.pay(t, c)
		payload, h := f.sandboxEvent(t, "evt_late_decline", payment.EventFailed, c, "card_declined")
		if err := f.svc.Receive(ctx, payload, h); err != nil {
			t.Fatal(err)
		}
		a, err := s.GetAttempt(ctx, s.DB, c.AttemptID)
		if err != nil || a.Status != store.AttemptSucceeded || f.status(t) != "paid" {
			t.Fatalf("after a late failure: attempt %+v (%v), order %s", a, err, f.status(t))
		}
		var wg sync.WaitGroup
		for i := range 4 {
			payload, h := f.sandboxEvent(t, fmt.Sprintf("evt_again_%d", i), payment.EventSucceeded, c, "")
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := f.svc.Receive(ctx, payload, h); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if f.status(t) != "paid" || f.count(t, "conversions") != 1 || f.count(t, receipts) != 1 || f.count(t, reportReady) != 1 {
			t.Fatalf("status %s, %d conversions, %d receipts, %d report-ready mails", f.status(t), f.count(t, "conversions"),
				f.count(t, receipts), f.count(t, reportReady))
		}
		if strings.Contains(logs.String(), "level=ERROR") {
			t.Errorf("the same payment was reported as another:\n%s", logs.String())
		}
	})
}
