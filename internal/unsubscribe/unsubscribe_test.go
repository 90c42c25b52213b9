package unsubscribe_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/i18n"
	"selfmap/internal/mail"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
	"selfmap/internal/unsubscribe"
)

type fixture struct {
	s      *store.Store
	svc    *unsubscribe.Service
	subs   *subscription.Service
	mu     sync.Mutex
	now    time.Time
	tokens []string
}

func (f *fixture) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fixture) add(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// newFixture subscribes ana@example.com to the basic plan with its trial.
func newFixture(t *testing.T, s *store.Store) (*fixture, store.Subscription) {
	t.Helper()
	f := &fixture{s: s, now: time.Date(2026, 3, 28, 10, 0, 0, 0, time.UTC)}
	sb := storetest.Sandbox(s, f.Now)
	f.subs = &subscription.Service{Store: s, Provider: sb, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: f.Now}
	f.svc = &unsubscribe.Service{Store: s, Subscriptions: f.subs, Now: f.Now, PerHour: 3,
		Compose: func(l i18n.Locale, pair, token string) (mail.Content, error) {
			f.mu.Lock()
			f.tokens = append(f.tokens, token)
			f.mu.Unlock()
			return mail.Content{Kind: mail.KindCancelLink, Subject: "Cancel " + l.Tag, Text: "/cancel/confirm/" + pair + "?t=" + token}, nil
		}}
	sub, err := f.subs.StartTrial(context.Background(), subscription.StartInput{CustomerID: "user-ana", Email: "ana@example.com",
		Locale: "en", Country: "US", PlanID: "basic-weekly", Method: storetest.GoodCard(t, sb)})
	if err != nil || sub.Status != subscription.Trialing {
		t.Fatalf("start: %+v %v", sub, err)
	}
	return f, sub
}

func (f *fixture) count(t *testing.T, query string) int {
	t.Helper()
	var n int
	if err := f.s.DB.Get(&n, f.s.DB.Rebind(`SELECT COUNT(*) FROM `+query)); err != nil {
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

// An unknown address is told so; a known one gets one mail with one link
// whose hash alone is stored; following it cancels at the period's end
// once, and the link is spent.
func TestSendAndConfirm(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f, sub := newFixture(t, s)
		ctx := context.Background()
		fr, _ := i18n.ByTag("fr")
		before := f.count(t, "mail_outbox")
		if _, err := f.svc.Send(ctx, "nobody@example.com", fr, "BMBTI-1807"); !errors.Is(err, unsubscribe.ErrUnknown) {
			t.Errorf("an unknown address: %v", err)
		}
		if _, err := f.svc.Send(ctx, "not an address", fr, "BMBTI-1807"); status(err) != http.StatusBadRequest {
			t.Errorf("a bad address: %v", err)
		}
		if a, err := f.svc.Send(ctx, " ANA@example.com ", fr, "BMBTI-1807"); err != nil || !a.Mailed {
			t.Fatal(a, err)
		}
		if f.count(t, "mail_outbox") != before+1 || f.count(t, "cancel_links") != 1 || len(f.tokens) != 1 {
			t.Fatalf("after one request: %d mails, %d links", f.count(t, "mail_outbox")-before, f.count(t, "cancel_links"))
		}
		token := f.tokens[0]
		var m store.Mail
		if err := s.DB.Get(&m, s.DB.Rebind(`SELECT kind, to_address, locale, body FROM mail_outbox WHERE kind = ?`), mail.KindCancelLink); err != nil {
			t.Fatal(err)
		}
		if m.To != "ANA@example.com" || m.Locale != "fr" || !strings.Contains(m.Body, "?t="+token) {
			t.Errorf("queued %+v", m)
		}
		var hash string
		if err := s.DB.Get(&hash, `SELECT token_hash FROM cancel_links`); err != nil || hash != store.HashToken(token) || len(token) != 43 {
			t.Errorf("stored %q for a token of %d characters (%v)", hash, len(token), err)
		}

		if _, _, err := f.svc.Check(ctx, token); err != nil {
			t.Fatalf("check: %v", err)
		}
		if p, err := f.svc.Preview(ctx, token); err != nil || p.None || !p.AccessUntil.Equal(sub.CurrentPeriodEnd) {
			t.Fatalf("preview: %+v %v", p, err)
		}
		if got, _ := s.GetSubscription(ctx, s.DB, sub.ID); got.CancelAtPeriodEnd {
			t.Fatal("checking a link cancelled")
		}
		out, err := f.svc.Confirm(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := s.GetSubscription(ctx, s.DB, sub.ID)
		if !got.CancelAtPeriodEnd || got.Status != subscription.Trialing || !got.CanceledAt.Valid ||
			!out.AccessUntil.Equal(sub.CurrentPeriodEnd) || len(out.Canceled) != 1 {
			t.Errorf("after the cancel: %+v, access until %v", got, out.AccessUntil)
		}
		mails := f.count(t, "mail_outbox")
		if _, err := f.svc.Confirm(ctx, token); !errors.Is(err, unsubscribe.ErrLinkUsed) {
			t.Errorf("a replay: %v", err)
		}
		if _, err := f.svc.Preview(ctx, token); !errors.Is(err, unsubscribe.ErrLinkUsed) {
			t.Errorf("a used link's preview: %v", err)
		}
		again, _ := s.GetSubscription(ctx, s.DB, sub.ID)
		if again.Version != got.Version || f.count(t, "mail_outbox") != mails {
			t.Error("a replay changed something")
		}
		if a, err := f.svc.Send(ctx, "ana@example.com", fr, "BMBTI-1807"); err != nil || !a.Cancelled || a.Mailed || a.Ending.Ended ||
			!a.Ending.Until.Equal(sub.CurrentPeriodEnd) || f.count(t, "mail_outbox") != mails {
			t.Errorf("a mailbox whose subscription already ends: %+v %v", a, err)
		}
		for _, bad := range []string{"", "nope", strings.Repeat("x", 200)} {
			if _, err := f.svc.Confirm(ctx, bad); !errors.Is(err, unsubscribe.ErrLinkUnknown) {
				t.Errorf("token %q: %v", bad, err)
			}
		}
	})
}

// A link works for 24 hours only.
func TestLinkExpires(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f, sub := newFixture(t, s)
		ctx := context.Background()
		if _, err := f.svc.Send(ctx, "ana@example.com", i18n.Default, "BMBTI-1807"); err != nil {
			t.Fatal(err)
		}
		f.add(24 * time.Hour)
		if _, err := f.svc.Confirm(ctx, f.tokens[0]); !errors.Is(err, unsubscribe.ErrLinkExpired) {
			t.Errorf("after 24 hours: %v", err)
		}
		if got, _ := s.GetSubscription(ctx, s.DB, sub.ID); got.CancelAtPeriodEnd {
			t.Error("an expired link cancelled")
		}
	})
}

// A mailbox receives at most PerHour links an hour; a refused request
// writes nothing, and an hour later it may ask again.
func TestMailboxLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f, _ := newFixture(t, s)
		ctx := context.Background()
		for i := range 3 {
			f.add(time.Minute)
			if _, err := f.svc.Send(ctx, "ana@example.com", i18n.Default, "BMBTI-1807"); err != nil {
				t.Fatalf("request %d: %v", i+1, err)
			}
		}
		mails, links := f.count(t, "mail_outbox"), f.count(t, "cancel_links")
		if _, err := f.svc.Send(ctx, "Ana@Example.com", i18n.Default, "BMBTI-1807"); !errors.Is(err, unsubscribe.ErrTooMany) {
			t.Fatalf("a fourth request: %v", err)
		}
		if f.count(t, "mail_outbox") != mails || f.count(t, "cancel_links") != links {
			t.Fatal("a refused request wrote something")
		}
		f.add(time.Hour)
		if _, err := f.svc.Send(ctx, "ana@example.com", i18n.Default, "BMBTI-1807"); err != nil {
			t.Errorf("an hour later: %v", err)
		}
	})
}

// Two requests racing with one link cancel once: one cancel mail, the
// subscription set to end once, the link spent.
func TestConfirmRace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f, sub := newFixture(t, s)
		ctx := context.Background()
		if _, err := f.svc.Send(ctx, "ana@example.com", i18n.Default, "BMBTI-1807"); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f.svc.Confirm(ctx, f.tokens[0]) //nolint:errcheck // the outcome is checked below
			}()
		}
		wg.Wait()
		got, _ := s.GetSubscription(ctx, s.DB, sub.ID)
		if !got.CancelAtPeriodEnd || f.count(t, "mail_outbox WHERE kind = 'subscription_canceled'") != 1 ||
			f.count(t, "cancel_links WHERE used_at IS NULL") != 0 {
			t.Errorf("after racing confirms: %+v", got)
		}
	})
}

// A past-due subscription ends at once when cancelled: the link's preview
// promises no access for it.
func TestPreviewPastDue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f, sub := newFixture(t, s)
		ctx := context.Background()
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE subscriptions SET status = ? WHERE id = ?`), subscription.PastDue, sub.ID); err != nil {
			t.Fatal(err)
		}
		en, _ := i18n.ByTag("en")
		if _, err := f.svc.Send(ctx, "ana@example.com", en, "BMBTI-1807"); err != nil {
			t.Fatal(err)
		}
		p, err := f.svc.Preview(ctx, f.tokens[0])
		if err != nil || p.None || !p.AccessUntil.IsZero() {
			t.Fatalf("preview: %+v %v", p, err)
		}
	})
}

// An address whose subscription already ended is told when, and mailed
// nothing; one that never had a subscription that did is unknown.
func TestSendToAnEndedSubscription(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f, sub := newFixture(t, s)
		ctx := context.Background()
		ended := f.Now().Add(-48 * time.Hour)
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE subscriptions SET status = ?, ended_at = ? WHERE id = ?`),
			subscription.Expired, ended, sub.ID); err != nil {
			t.Fatal(err)
		}
		mails := f.count(t, "mail_outbox")
		a, err := f.svc.Send(ctx, "ana@example.com", i18n.Default, "BMBTI-1807")
		if err != nil || !a.Cancelled || !a.Ending.Ended || !a.Ending.Until.Equal(ended) || f.count(t, "mail_outbox") != mails {
			t.Errorf("an ended subscription: %+v %v", a, err)
		}
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE subscriptions SET status = ? WHERE id = ?`), subscription.Incomplete, sub.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Send(ctx, "ana@example.com", i18n.Default, "BMBTI-1807"); !errors.Is(err, unsubscribe.ErrUnknown) {
			t.Errorf("an address whose only subscription never started: %v", err)
		}
	})
}

// A used link whose mailbox still has a subscription to cancel offers one
// fresh link: asked for twice within minutes, it is mailed once; later it
// may be asked again. A used link with nothing left says how the access
// ends, and an unknown token mails nothing.
func TestResendFromASpentLink(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f, sub := newFixture(t, s)
		ctx := context.Background()
		ja, _ := i18n.ByTag("ja")
		if _, err := f.svc.Send(ctx, "ana@example.com", i18n.Default, "BMBTI-1807"); err != nil {
			t.Fatal(err)
		}
		dead := f.tokens[0]
		if _, err := f.svc.Confirm(ctx, dead); err != nil {
			t.Fatal(err)
		}
		p, err := f.svc.Preview(ctx, dead)
		if !errors.Is(err, unsubscribe.ErrLinkUsed) || p.Spent.Fresh || !p.Spent.Cancelled || !p.Spent.Ending.Until.Equal(sub.CurrentPeriodEnd) {
			t.Errorf("a used link with nothing left: %+v %v", p, err)
		}
		mails := f.count(t, "mail_outbox")
		if a, err := f.svc.Resend(ctx, dead, ja, "BMBTI-1807"); err != nil || !a.Cancelled || a.Mailed || f.count(t, "mail_outbox") != mails {
			t.Errorf("a fresh link with nothing left: %+v %v", a, err)
		}

		// The subscription renews again (resumed): the used link offers one
		// fresh link.
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE subscriptions SET cancel_at_period_end = ? WHERE id = ?`), false, sub.ID); err != nil {
			t.Fatal(err)
		}
		if p, err := f.svc.Preview(ctx, dead); !errors.Is(err, unsubscribe.ErrLinkUsed) || !p.Spent.Fresh || p.Spent.Cancelled {
			t.Errorf("a used link with a subscription to cancel: %+v %v", p, err)
		}
		links := f.count(t, "cancel_links")
		f.add(time.Minute)
		a, err := f.svc.Resend(ctx, dead, ja, "BMBTI-1807")
		if err != nil || !a.Mailed || f.count(t, "mail_outbox") != mails+1 || f.count(t, "cancel_links") != links+1 {
			t.Fatalf("a fresh link: %+v %v", a, err)
		}
		var locale string
		if err := s.DB.Get(&locale, s.DB.Rebind(`SELECT locale FROM mail_outbox WHERE kind = ? ORDER BY created_at DESC LIMIT 1`), mail.KindCancelLink); err != nil || locale != "ja" {
			t.Errorf("the fresh link's mail is in %q (%v)", locale, err)
		}
		fresh := f.tokens[len(f.tokens)-1]
		for _, d := range []time.Duration{0, time.Minute, unsubscribe.FreshWithin - 2*time.Minute} {
			f.add(d)
			if a, err := f.svc.Resend(ctx, dead, ja, "BMBTI-1807"); err != nil || !a.Recent || a.Mailed {
				t.Errorf("asked again %v later: %+v %v", d, a, err)
			}
		}
		if f.count(t, "mail_outbox") != mails+1 || f.count(t, "cancel_links") != links+1 {
			t.Fatal("a second fresh link was mailed within minutes")
		}
		if _, err := f.svc.Confirm(ctx, fresh); err != nil {
			t.Errorf("the fresh link: %v", err)
		}
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE subscriptions SET cancel_at_period_end = ? WHERE id = ?`), false, sub.ID); err != nil {
			t.Fatal(err)
		}
		f.add(2 * time.Minute)
		if a, err := f.svc.Resend(ctx, dead, ja, "BMBTI-1807"); err != nil || !a.Mailed {
			t.Errorf("past the fresh window: %+v %v", a, err)
		}
		mails = f.count(t, "mail_outbox")
		for _, bad := range []string{"", "nope"} {
			if _, err := f.svc.Resend(ctx, bad, ja, "BMBTI-1807"); !errors.Is(err, unsubscribe.ErrLinkUnknown) {
				t.Errorf("token %q: %v", bad, err)
			}
		}
		if f.count(t, "mail_outbox") != mails {
			t.Error("an unknown token mailed something")
		}
	})
}

// Racing requests for a fresh link from one spent link mail one.
func TestResendRace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f, _ := newFixture(t, s)
		ctx := context.Background()
		if _, err := f.svc.Send(ctx, "ana@example.com", i18n.Default, "BMBTI-1807"); err != nil {
			t.Fatal(err)
		}
		f.add(25 * time.Hour)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f.svc.Resend(ctx, f.tokens[0], i18n.Default, "BMBTI-1807") //nolint:errcheck // the outcome is counted below
			}()
		}
		wg.Wait()
		if n := f.count(t, "cancel_links"); n != 2 {
			t.Errorf("%d links after racing requests for a fresh one, want 2", n)
		}
	})
}
