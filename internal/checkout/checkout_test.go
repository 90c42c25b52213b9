package checkout_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"selfmap/internal/checkout"
	"selfmap/internal/mail"
	"selfmap/internal/packs"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

type fixture struct {
	s       *store.Store
	svc     *checkout.Service
	sandbox *payment.Sandbox
	now     time.Time
	order   store.Order
}

func newFixture(t *testing.T, s *store.Store) *fixture {
	t.Helper()
	return newFixtureIn(t, s, "")
}

// newFixtureIn makes the fixture for a test-taker who gave a country in
// their details ("" for none).
func newFixtureIn(t *testing.T, s *store.Store, country string) *fixture {
	t.Helper()
	f := &fixture{s: s, now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	clock := func() time.Time { return f.now }
	f.sandbox = storetest.Sandbox(s, clock)
	f.svc = &checkout.Service{Store: s, Provider: f.sandbox, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: clock,
		Packs: &packs.Service{Store: s},
		Mails: func(o store.Order, r store.Result, token string) ([]mail.Content, error) {
			out := []mail.Content{{Kind: mail.KindReceipt, Subject: "Receipt " + o.OrderNumber, Text: "Thank you"}}
			if token != "" {
				out = append(out, mail.Content{Kind: mail.KindReportReady, Subject: "Ready", Text: "?t=" + token, HTML: "<a href=\"?t=" + token + "\">"})
			}
			return out, nil
		}}
	f.sandbox.Deliver = f.svc.Receive
	r := store.Result{ID: "result-1", ExamID: 1807, PageCode: "BMBTI", Locale: "en", Answers: "[]", ExamVersion: "v", ItemsVersion: "i",
		NormsVersion: "n", NormGroup: "pooled", Scores: "{}", ResultCode: "INTJ-A", CreatedAt: f.now, UpdatedAt: f.now,
		Country: sql.NullString{String: country, Valid: country != ""}}
	f.order = store.Order{ID: "order-1", OrderNumber: "SM1", ResultID: r.ID, ExamID: 1807, Status: store.OrderCreated, CreatedAt: f.now, UpdatedAt: f.now}
	if err := s.CreateResultWithOrder(context.Background(), s.DB, r, f.order); err != nil {
		t.Fatal(err)
	}
	return f
}

func mine(string) bool { return true }

// The outbox's receipts and report-ready mails, for count.
const (
	receipts    = "mail_outbox WHERE kind = 'receipt'"
	reportReady = "mail_outbox WHERE kind = 'report_ready'"
)

func (f *fixture) create(t *testing.T) checkout.Created {
	t.Helper()
	c, err := f.svc.Create(context.Background(), checkout.CreateInput{OrderNumber: "SM1", SKUID: "mbti-report", Email: "a@example.com"}, mine)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fixture) status(t *testing.T) string {
	t.Helper()
	o, err := f.s.GetOrderByNumber(context.Background(), f.s.DB, "SM1")
	if err != nil {
		t.Fatal(err)
	}
	return string(o.Status)
}

// count counts the rows of a table, or of "table WHERE ...".
func (f *fixture) count(t *testing.T, table string) int {
	t.Helper()
	var n int
	if err := f.s.DB.Get(&n, `SELECT COUNT(*) FROM `+table); err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *fixture) ref(t *testing.T, attemptID string) string {
	t.Helper()
	a, err := f.s.GetAttempt(context.Background(), f.s.DB, attemptID)
	if err != nil {
		t.Fatal(err)
	}
	return a.ProviderRef.String
}

func TestPaySucceedsAndPricesOnTheServer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixtureIn(t, s, "JP")
		c := f.create(t)
		if c.Total != 150000 || c.Currency != "JPY" || c.Provider != "sandbox" {
			t.Fatalf("created %+v; want the JP price 150000 JPY", c)
		}
		out, err := f.sandbox.Confirm(context.Background(), f.ref(t, c.AttemptID), payment.Card{Number: "4242424242424242"})
		if err != nil || out.Status != "succeeded" {
			t.Fatalf("confirm: %+v %v", out, err)
		}
		if st := f.status(t); st != "paid" {
			t.Fatalf("order %s after a successful payment", st)
		}
		if f.count(t, "conversions") != 1 || f.count(t, receipts) != 1 || f.count(t, reportReady) != 1 {
			t.Error("no conversion, receipt or report-ready mail")
		}
		// The report-ready mail carries a link that opens this result; only
		// its hash is stored.
		var ready store.Mail
		if err := s.DB.Get(&ready, `SELECT to_address, body, html_body FROM mail_outbox WHERE kind = 'report_ready'`); err != nil {
			t.Fatal(err)
		}
		token := strings.TrimPrefix(ready.Body, "?t=")
		if r, err := s.ResultForToken(context.Background(), s.DB, token); err != nil || r.ID != "result-1" || len(token) != 43 ||
			ready.To != "a@example.com" || !strings.Contains(ready.HTMLBody.String, token) {
			t.Errorf("report-ready mail %+v: token %q opens %+v (%v)", ready, token, r, err)
		}
	})
}

// Two concurrent Pay clicks create one attempt and one charge.
func TestConcurrentCreatesMakeOneAttempt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		var wg sync.WaitGroup
		ids := make([]string, 2)
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := f.svc.Create(context.Background(), checkout.CreateInput{OrderNumber: "SM1", SKUID: "mbti-report", Email: "a@example.com"}, mine)
				if err != nil {
					t.Error(err)
				}
				ids[i] = c.AttemptID
			}()
		}
		wg.Wait()
		if ids[0] != ids[1] || f.count(t, "payment_attempts") != 1 || f.count(t, "sandbox_payments") != 1 {
			t.Fatalf("attempts %v, %d rows, %d sandbox payments", ids, f.count(t, "payment_attempts"), f.count(t, "sandbox_payments"))
		}
	})
}

// One success event delivered three times in a row and three times at once
// fulfils once and sends one receipt.
func TestReplayedEventFulfilsOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.create(t)
		var payloads [][]byte
		var headers []http.Header
		f.sandbox.Deliver = func(_ context.Context, p []byte, h http.Header) error {
			payloads, headers = append(payloads, p), append(headers, h)
			return nil
		}
		if _, err := f.sandbox.Confirm(context.Background(), f.ref(t, c.AttemptID), payment.Card{Number: "4242424242424242"}); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if err := f.svc.Receive(context.Background(), payloads[0], headers[0]); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := f.svc.Receive(context.Background(), payloads[0], headers[0]); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if f.status(t) != "paid" || f.count(t, "conversions") != 1 || f.count(t, receipts) != 1 || f.count(t, "payment_events") != 1 ||
			f.count(t, reportReady) != 1 || f.count(t, "report_links") != 1 {
			t.Fatalf("status %s, %d conversions, %d receipts, %d events, %d report-ready mails, %d links", f.status(t), f.count(t, "conversions"),
				f.count(t, receipts), f.count(t, "payment_events"), f.count(t, reportReady), f.count(t, "report_links"))
		}
	})
}

// The same success delivered again under another event id (as a provider
// may) changes nothing and is not reported as a second payment to refund.
func TestSuccessUnderAnotherEventIDIsNoSecondPayment(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		var logs bytes.Buffer
		f.svc.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		c := f.create(t)
		var payload []byte
		f.sandbox.Deliver = func(ctx context.Context, p []byte, h http.Header) error { payload = p; return f.svc.Receive(ctx, p, h) }
		if _, err := f.sandbox.Confirm(context.Background(), f.ref(t, c.AttemptID), payment.Card{Number: "4242424242424242"}); err != nil {
			t.Fatal(err)
		}
		var ev map[string]any
		if err := json.Unmarshal(payload, &ev); err != nil {
			t.Fatal(err)
		}
		ev["id"] = "evt_again"
		again, _ := json.Marshal(ev)
		h := http.Header{}
		h.Set(payment.SandboxSignatureHeader, payment.Sign(storetest.SandboxSecret, again, f.now))
		if err := f.svc.Receive(context.Background(), again, h); err != nil {
			t.Fatal(err)
		}
		if f.status(t) != "paid" || f.count(t, "conversions") != 1 || f.count(t, receipts) != 1 || f.count(t, "payment_events") != 2 {
			t.Fatalf("status %s, %d conversions, %d receipts, %d events", f.status(t), f.count(t, "conversions"), f.count(t, receipts),
				f.count(t, "payment_events"))
		}
		if strings.Contains(logs.String(), "level=ERROR") {
			t.Errorf("a duplicate delivery was logged as an error:\n%s", logs.String())
		}
	})
}

// A bad signature or a stale timestamp answers an error and writes nothing.
func TestBadSignaturesWriteNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.create(t)
		var payload []byte
		var header http.Header
		f.sandbox.Deliver = func(_ context.Context, p []byte, h http.Header) error { payload, header = p, h; return nil }
		if _, err := f.sandbox.Confirm(context.Background(), f.ref(t, c.AttemptID), payment.Card{Number: "4242424242424242"}); err != nil {
			t.Fatal(err)
		}
		forged := http.Header{}
		forged.Set(payment.SandboxSignatureHeader, payment.Sign("wrong secret", payload, f.now))
		stale := http.Header{}
		stale.Set(payment.SandboxSignatureHeader, payment.Sign(storetest.SandboxSecret, payload, f.now.Add(-6*time.Minute)))
		tampered := append([]byte{}, payload...)
		tampered[len(tampered)-2] = ' '
		for name, try := range map[string]func() error{
			"wrong secret": func() error { return f.svc.Receive(context.Background(), payload, forged) },
			"stale":        func() error { return f.svc.Receive(context.Background(), payload, stale) },
			"tampered":     func() error { return f.svc.Receive(context.Background(), tampered, header) },
			"no header":    func() error { return f.svc.Receive(context.Background(), payload, http.Header{}) },
		} {
			if err := try(); !errors.Is(err, payment.ErrBadSignature) {
				t.Errorf("%s: %v", name, err)
			}
		}
		if f.status(t) != "pending" || f.count(t, "payment_events") != 0 {
			t.Fatalf("a refused delivery changed the order: %s, %d events", f.status(t), f.count(t, "payment_events"))
		}
		if err := f.svc.Receive(context.Background(), payload, header); err != nil || f.status(t) != "paid" {
			t.Fatalf("the genuine delivery: %v, %s", err, f.status(t))
		}
	})
}

// The process dies after the provider took the money and before we
// committed: the reconciler finds the payment and fulfils the order.
func TestReconcilerFulfilsALostSuccess(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		c := f.create(t)
		f.sandbox.Deliver = func(context.Context, []byte, http.Header) error { return errors.New("killed") }
		if _, err := f.sandbox.Confirm(context.Background(), f.ref(t, c.AttemptID), payment.Card{Number: "4242424242424242"}); err == nil {
			t.Fatal("a lost delivery went unnoticed")
		}
		if f.status(t) != "pending" {
			t.Fatalf("order %s before reconciling", f.status(t))
		}
		f.now = f.now.Add(5 * time.Minute)
		n, err := f.svc.Reconcile(context.Background(), time.Minute)
		if err != nil || n != 1 || f.status(t) != "paid" || f.count(t, receipts) != 1 || f.count(t, reportReady) != 1 {
			t.Fatalf("reconcile: %d, %v; order %s", n, err, f.status(t))
		}
		if n, _ := f.svc.Reconcile(context.Background(), time.Minute); n != 0 {
			t.Errorf("a second reconcile applied %d", n)
		}
	})
}

// Declines and a failed 3-D Secure step leave the order payable again.
func TestDeclinesLeaveTheOrderPayable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		for _, card := range []string{"4000000000000002", "4000000000009995"} {
			c := f.create(t)
			out, err := f.sandbox.Confirm(context.Background(), f.ref(t, c.AttemptID), payment.Card{Number: card})
			if err != nil || out.Status != "declined" || f.status(t) != "failed" {
				t.Fatalf("%s: %+v %v, order %s", card, out, err, f.status(t))
			}
		}
		c := f.create(t)
		ref := f.ref(t, c.AttemptID)
		out, err := f.sandbox.Confirm(context.Background(), ref, payment.Card{Number: "4000002760003184"})
		if err != nil || out.Status != "requires_action" || f.status(t) != "pending" {
			t.Fatalf("3-D Secure: %+v %v, order %s", out, err, f.status(t))
		}
		if out, err := f.sandbox.Complete3DS(context.Background(), ref, false); err != nil || out.Status != "declined" || f.status(t) != "failed" {
			t.Fatalf("failed 3-D Secure: %+v %v, order %s", out, err, f.status(t))
		}
		c = f.create(t)
		ref = f.ref(t, c.AttemptID)
		if _, err := f.sandbox.Confirm(context.Background(), ref, payment.Card{Number: "4000002760003184"}); err != nil {
			t.Fatal(err)
		}
		if out, err := f.sandbox.Complete3DS(context.Background(), ref, true); err != nil || out.Status != "succeeded" || f.status(t) != "paid" {
			t.Fatalf("passed 3-D Secure: %+v %v, order %s", out, err, f.status(t))
		}
		if _, err := f.svc.Create(context.Background(), checkout.CreateInput{OrderNumber: "SM1", SKUID: "mbti-report", Email: "a@example.com"}, mine); err == nil {
			t.Error("a paid order accepted another payment")
		}
	})
}

func TestForeignOrdersAndBadInput(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		notMine := func(string) bool { return false }
		if _, err := f.svc.Create(context.Background(), checkout.CreateInput{OrderNumber: "SM1", SKUID: "mbti-report", Email: "a@example.com"}, notMine); !errors.Is(err, checkout.ErrNotFound) {
			t.Errorf("someone else's order: %v", err)
		}
		for _, in := range []checkout.CreateInput{
			{OrderNumber: "SM1", SKUID: "nope", Email: "a@example.com"},
			{OrderNumber: "SM1", SKUID: "mbti-report", Email: "not-an-email"},
			{OrderNumber: "SM1", SKUID: "mbti-report", Email: "a@example.com", PromoCode: "NOPE"},
		} {
			if _, err := f.svc.Create(context.Background(), in, mine); err == nil {
				t.Errorf("%+v accepted", in)
			}
		}
		if f.status(t) != "created" || f.count(t, "payment_attempts") != 0 {
			t.Errorf("bad input changed the order: %s", f.status(t))
		}
	})
}

// Found in review: a pack is cheaper than the report and must not pay for it.
func TestOnlyTheReportPaysForTheReport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, err := f.svc.Create(context.Background(), checkout.CreateInput{OrderNumber: "SM1", SKUID: "mbti-pack-relationships", Email: "a@example.com"}, mine)
		if err == nil || f.status(t) != "created" {
			t.Fatalf("a pack started paying for the report: %v, %s", err, f.status(t))
		}
	})
}

// Found in review: a promo use counts when a payment succeeds, once, not at
// every attempt; a single-use code survives a decline.
func TestPromoCountsOnceOnSuccess(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		if err := s.SavePromo(ctx, s.DB, store.Promo{Code: "ONCE", Kind: "percent", Value: 50, ValidFrom: f.now.Add(-time.Hour), MaxUses: sql.NullInt64{Int64: 1, Valid: true}}); err != nil {
			t.Fatal(err)
		}
		in := checkout.CreateInput{OrderNumber: "SM1", SKUID: "mbti-report", Email: "a@example.com", PromoCode: "once"}
		c, err := f.svc.Create(ctx, in, mine)
		if err != nil || c.Total != 499 {
			t.Fatalf("create with the promo: %+v %v", c, err)
		}
		if _, err := f.sandbox.Confirm(ctx, f.ref(t, c.AttemptID), payment.Card{Number: "4000000000000002"}); err != nil {
			t.Fatal(err)
		}
		c, err = f.svc.Create(ctx, in, mine)
		if err != nil || c.Total != 499 {
			t.Fatalf("the single-use code after a decline: %+v %v", c, err)
		}
		if _, err := f.sandbox.Confirm(ctx, f.ref(t, c.AttemptID), payment.Card{Number: "4242424242424242"}); err != nil {
			t.Fatal(err)
		}
		p, _ := s.GetPromo(ctx, s.DB, "ONCE")
		if f.status(t) != "paid" || p.Uses != 1 {
			t.Fatalf("order %s, promo uses %d", f.status(t), p.Uses)
		}
	})
}

// Found in review: a replaced attempt can neither be charged nor fail the
// order, and money that arrives after a failure pays the order.
func TestReplacedAttempts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		first := f.create(t)
		oldRef := f.ref(t, first.AttemptID)
		if _, err := f.sandbox.Confirm(ctx, oldRef, payment.Card{Number: "4000000000000002"}); err != nil {
			t.Fatal(err)
		}
		second := f.create(t)
		if second.AttemptID == first.AttemptID {
			t.Fatal("a declined attempt was reused")
		}
		if _, err := f.sandbox.Confirm(ctx, oldRef, payment.Card{Number: "4242424242424242"}); !errors.Is(err, payment.ErrNotPayable) {
			t.Fatalf("the replaced payment took a card: %v", err)
		}
		// A 3-D Secure step abandoned with the Back button, then another card.
		newRef := f.ref(t, second.AttemptID)
		if out, err := f.sandbox.Confirm(ctx, newRef, payment.Card{Number: "4000002760003184"}); err != nil || out.Status != "requires_action" {
			t.Fatalf("3-D Secure: %+v %v", out, err)
		}
		if out, err := f.sandbox.Confirm(ctx, newRef, payment.Card{Number: "4242424242424242"}); err != nil || out.Status != "succeeded" {
			t.Fatalf("another card after leaving 3-D Secure: %+v %v", out, err)
		}
		if f.status(t) != "paid" || f.count(t, "conversions") != 1 {
			t.Fatalf("order %s, %d conversions", f.status(t), f.count(t, "conversions"))
		}
		// A retry after a lost answer reports the payment, not an error.
		if out, err := f.sandbox.Confirm(ctx, newRef, payment.Card{Number: "4242424242424242"}); err != nil || out.Status != "succeeded" {
			t.Fatalf("retry of a paid payment: %+v %v", out, err)
		}
	})
}
