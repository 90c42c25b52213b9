package retrieve_test

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/i18n"
	"selfmap/internal/mail"
	"selfmap/internal/retrieve"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

type fixture struct {
	s    *store.Store
	svc  *retrieve.Service
	now  time.Time
	sent [][]retrieve.Report
	mu   sync.Mutex
}

func newFixture(t *testing.T, s *store.Store) *fixture {
	f := &fixture{s: s, now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	f.svc = &retrieve.Service{Store: s, Now: func() time.Time { return f.now }, PerHour: 3,
		Compose: func(l i18n.Locale, reports []retrieve.Report) (mail.Content, error) {
			f.mu.Lock()
			f.sent = append(f.sent, reports)
			f.mu.Unlock()
			return mail.Content{Kind: mail.KindRetrieval, Subject: "Links " + l.Tag, Text: "text", HTML: "<p>html</p>"}, nil
		}}
	at := f.now.Add(-48 * time.Hour)
	for _, p := range []storetest.Purchase{
		{ResultID: "r1", Code: "INTJ-A", Report: "paid", ReportEmail: "ana@example.com", At: at},
		{ResultID: "r2", Code: "ENFP-T", ResultEmail: "Ana@Example.com", Report: "paid", ReportEmail: "work@example.com", At: at.Add(time.Hour)},
		{ResultID: "r3", Code: "ISTJ-A", Report: "created", ReportEmail: "ana@example.com", At: at},
		{ResultID: "r4", Code: "ESFP-A", Report: "refunded", ReportEmail: "ana@example.com", At: at},
		{ResultID: "r5", Code: "INFP-T", Report: "created", ReportEmail: "pack@example.com", Pack: "paid", At: at},
	} {
		storetest.Buy(t, s, p)
	}
	return f
}

func (f *fixture) count(t *testing.T, query string) int {
	t.Helper()
	var n int
	if err := f.s.DB.Get(&n, `SELECT COUNT(*) FROM `+query); err != nil {
		t.Fatal(err)
	}
	return n
}

func status(err error) int {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return ae.Status
	}
	return 0
}

// A mailbox gets one e-mail with a new link to each paid report of its
// address (on the order or the result, in any case); unpaid, refunded and
// pack-only orders do not count, and each link opens its own result.
func TestSendListsEveryPaidReport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		ko, _ := i18n.ByTag("ko")
		if err := f.svc.Send(ctx, " ANA@example.COM ", ko); err != nil {
			t.Fatal(err)
		}
		if len(f.sent) != 1 || len(f.sent[0]) != 2 {
			t.Fatalf("composed %+v; want one e-mail with two reports", f.sent)
		}
		var got []string
		for _, r := range f.sent[0] {
			opened, err := s.ResultForToken(ctx, s.DB, r.Token)
			if err != nil || opened.ID != r.ResultID || len(r.Token) != 43 {
				t.Errorf("link of %s opens %q (%v)", r.ResultID, opened.ID, err)
			}
			got = append(got, r.ResultID+":"+r.OrderNumber)
		}
		sort.Strings(got)
		if got[0] != "r1:SM-r1" || got[1] != "r2:SM-r2" {
			t.Errorf("reports %v", got)
		}
		var m store.Mail
		if err := s.DB.Get(&m, `SELECT kind, to_address, locale, subject, body, html_body, status FROM mail_outbox`); err != nil {
			t.Fatal(err)
		}
		if m.Kind != "retrieval" || m.To != "ANA@example.com" || m.Locale != "ko" || m.HTMLBody.String != "<p>html</p>" || m.Status != "queued" {
			t.Errorf("queued %+v", m)
		}

		for _, address := range []string{"nobody@example.com", "pack@example.com"} {
			if err := f.svc.Send(ctx, address, ko); !errors.Is(err, retrieve.ErrNone) {
				t.Errorf("%s: %v; want no retrievable report", address, err)
			}
		}
		if err := f.svc.Send(ctx, "not an address", ko); status(err) != http.StatusBadRequest {
			t.Errorf("a bad address: %v", err)
		}
		if n := f.count(t, "mail_outbox"); n != 1 {
			t.Errorf("%d mails after the refusals", n)
		}
	})
}

// A mailbox receives at most PerHour retrieval e-mails an hour: the next
// request writes nothing, even when requests race; an hour later it may
// ask again.
func TestMailboxLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		for i := range 3 {
			f.now = f.now.Add(time.Minute)
			if err := f.svc.Send(ctx, "ana@example.com", i18n.Default); err != nil {
				t.Fatalf("request %d: %v", i+1, err)
			}
		}
		mails, links := f.count(t, "mail_outbox"), f.count(t, "report_links")
		if err := f.svc.Send(ctx, "Ana@example.com", i18n.Default); !errors.Is(err, retrieve.ErrTooMany) {
			t.Fatalf("a fourth request: %v", err)
		}
		if f.count(t, "mail_outbox") != mails || f.count(t, "report_links") != links {
			t.Fatal("a refused request wrote something")
		}
		if err := f.svc.Send(ctx, "work@example.com", i18n.Default); err != nil {
			t.Errorf("another mailbox is limited too: %v", err)
		}
		f.now = f.now.Add(time.Hour)
		if err := f.svc.Send(ctx, "ana@example.com", i18n.Default); err != nil {
			t.Errorf("an hour later: %v", err)
		}

		// Concurrent requests in a new hour for a mailbox that had one mail
		// before it: never more than the limit in the hour.
		f.now = f.now.Add(2 * time.Hour)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f.svc.Send(ctx, "work@example.com", i18n.Default) //nolint:errcheck // counted below
			}()
		}
		wg.Wait()
		if n := f.count(t, "mail_outbox WHERE to_address = 'work@example.com'") - 1; n > 3 || n < 1 {
			t.Errorf("%d retrieval mails for one mailbox in an hour; want 1 to 3", n)
		}
	})
}

// A mail that cannot be composed or stored is "sending failed", and
// nothing is written.
func TestSendingFailed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.svc.Compose = func(i18n.Locale, []retrieve.Report) (mail.Content, error) {
			return mail.Content{}, errors.New("template broke")
		}
		err := f.svc.Send(context.Background(), "ana@example.com", i18n.Default)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Status != http.StatusServiceUnavailable || ae.ID != "retrieve.failed" {
			t.Fatalf("got %v", err)
		}
		if f.count(t, "mail_outbox")+f.count(t, "report_links") != 0 {
			t.Error("a failed request wrote something")
		}
	})
}
