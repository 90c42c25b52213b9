package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

// subscribe starts a basic trial for email with a sandbox card, as the
// checkout does.
func subscribe(t *testing.T, s *store.Store, email string) store.Subscription {
	t.Helper()
	sb := &payment.Sandbox{Store: s, Secret: "test", Now: time.Now, Deliver: func(context.Context, []byte, http.Header) error { return nil }}
	svc := &subscription.Service{Store: s, Provider: sb, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: time.Now}
	ctx := context.Background()
	card, err := sb.SaveCard(ctx, payment.Card{Number: "4242424242424242", ExpMonth: 12, ExpYear: time.Now().Year() + 3})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := svc.StartTrial(ctx, subscription.StartInput{CustomerID: "user-" + email, Email: email, Locale: "en", Country: "US",
		PlanID: "basic-weekly", Method: card})
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// expect opens path with the browser's cookies and checks the status and
// what the page shows.
func (b *browser) expect(path string, status int, contains ...string) *httptest.ResponseRecorder {
	b.t.Helper()
	rec := b.do(httptest.NewRequest("GET", path, nil))
	if rec.Code != status {
		b.t.Fatalf("GET %s: %d, want %d; %.300s", path, rec.Code, status, rec.Body.String())
	}
	for _, want := range contains {
		if !strings.Contains(rec.Body.String(), want) {
			b.t.Errorf("GET %s lacks %q", path, want)
		}
	}
	return rec
}

// cancelForm posts the cancel page's form with its token.
func (b *browser) cancelForm(path, email string) *httptest.ResponseRecorder {
	b.t.Helper()
	token := csrfField.FindStringSubmatch(b.do(httptest.NewRequest("GET", path, nil)).Body.String())
	if token == nil {
		b.t.Fatalf("no form token on %s", path)
	}
	return b.postForm(path, url.Values{"_csrf": {token[1]}, "email": {email}})
}

var cancelLinkInMail = regexp.MustCompile(`http://selfmap\.test(/[a-z-]*/?cancel/confirm/BMBTI-1807)\?t=([A-Za-z0-9_-]{43})`)

// The cancel by e-mail: an unknown address told so with the address kept,
// a known one mailed one link, the link confirmed in one click and
// cancelling at the period's end once, the success page saying until
// when, refused links and forged posts changing nothing.
func TestCancelByEmail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		sub := subscribe(t, s, "ana@example.com")
		b := &browser{t: t, e: newServerWith(t, s, map[string]string{"RATE_LIMIT_SCALE": "100"}), cookies: map[string]*http.Cookie{}}
		const page = "/cancel/subscription/BMBTI-1807"

		scenario{url: page, status: 200, contains: []string{`data-testid="cancel-form"`, "Cancel your subscription", `name="_csrf"`}}.run(t, b.e)
		scenario{url: "/cancel-subscription/BMBTI-1807?hl=EN", status: 301, location: page + "?hl=EN"}.run(t, b.e)
		scenario{url: "/cancel-success/BMBTI-1807", status: 301, location: "/cancel/success/BMBTI-1807"}.run(t, b.e)
		scenario{url: "/cancel/subscription/NOPE-1", status: 404}.run(t, b.e)
		scenario{name: "no token", method: "POST", url: page, body: "email=ana%40example.com",
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 403}.run(t, b.e)

		for _, tc := range []struct {
			path, email string
			status      int
			want        string
		}{
			{page, "nobody@example.com", 404, "E-mail address not found. Please enter it again."},
			{"/zh-cn" + page, "nobody@example.com", 404, "未找到该邮箱地址，请重新输入。"},
			{"/ja" + page, "nobody@example.com", 404, "メールアドレスが見つかりません"},
			{page, "ana@", 422, "ana@"},
		} {
			rec := b.cancelForm(tc.path, tc.email)
			body := rec.Body.String()
			if rec.Code != tc.status || !strings.Contains(body, tc.want) || !strings.Contains(body, `data-testid="cancel-error"`) ||
				!strings.Contains(body, `value="`+tc.email+`"`) {
				t.Errorf("%s %q: %d, want %d with %q and the address kept", tc.path, tc.email, rec.Code, tc.status, tc.want)
			}
		}
		if n := countRows(t, s, "cancel_links"); n != 0 {
			t.Fatalf("%d links after refused requests", n)
		}

		rec := b.cancelForm("/fr"+page, "Ana@example.com")
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/fr"+page {
			t.Fatalf("a known address: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		b.expect("/fr"+page, 200, `data-testid="cancel-sent"`, "Consultez votre boîte de réception")
		var m store.Mail
		if err := s.DB.Get(&m, `SELECT subject, body, html_body, locale FROM mail_outbox WHERE kind = 'cancel_link'`); err != nil {
			t.Fatal(err)
		}
		link := cancelLinkInMail.FindStringSubmatch(m.Body)
		if link == nil || link[1] != "/fr/cancel/confirm/BMBTI-1807" || m.Locale != "fr" || !strings.Contains(m.Subject, "Résilier") ||
			!strings.Contains(m.HTMLBody.String, `href="`+link[0]+`"`) {
			t.Fatalf("cancel mail %q (%s):\n%s", m.Subject, m.Locale, m.Body)
		}
		confirmURL := link[1] + "?t=" + link[2]
		until := sub.CurrentPeriodEnd.UTC().Format("2006-01-02")

		rec = b.expect(confirmURL, 200, `data-testid="cancel-confirm-form"`, until)
		if got, _ := s.GetSubscription(context.Background(), s.DB, sub.ID); got.CancelAtPeriodEnd {
			t.Fatal("opening the link cancelled")
		}
		csrf := csrfField.FindStringSubmatch(rec.Body.String())[1]
		if rec := b.postForm(link[1], url.Values{"t": {link[2]}}); rec.Code != http.StatusForbidden {
			t.Errorf("a confirm without its form token: %d", rec.Code)
		}
		if got, _ := s.GetSubscription(context.Background(), s.DB, sub.ID); got.CancelAtPeriodEnd {
			t.Fatal("a forged confirm cancelled")
		}

		rec = b.postForm(link[1], url.Values{"_csrf": {csrf}, "t": {link[2]}})
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/fr/cancel/success/BMBTI-1807" {
			t.Fatalf("confirm: %d %s %.300s", rec.Code, rec.Header().Get("Location"), rec.Body.String())
		}
		b.expect("/fr/cancel/success/BMBTI-1807", 200, "Votre abonnement est résilié", `data-testid="cancel-until"`, until)
		b.expect("/fr/cancel/success/BMBTI-1807", 200, "Votre abonnement est résilié", "n’est pas remboursée")
		got, _ := s.GetSubscription(context.Background(), s.DB, sub.ID)
		if !got.CancelAtPeriodEnd || got.Status != "trialing" || !got.CurrentPeriodEnd.Equal(sub.CurrentPeriodEnd) {
			t.Errorf("after the cancel: %+v", got)
		}

		// Replayed, the link is spent and nothing changes.
		mails := countRows(t, s, "mail_outbox")
		rec = b.postForm(link[1], url.Values{"_csrf": {csrf}, "t": {link[2]}})
		if rec.Code != http.StatusGone || !strings.Contains(rec.Body.String(), "déjà été utilisé") {
			t.Errorf("a replayed confirm: %d", rec.Code)
		}
		again, _ := s.GetSubscription(context.Background(), s.DB, sub.ID)
		if again.Version != got.Version || countRows(t, s, "mail_outbox") != mails {
			t.Error("a replayed confirm changed something")
		}
		scenario{url: confirmURL, status: 410, contains: []string{`data-testid="cancel-link-error"`}, notContain: []string{"cancel-confirm-form"}}.run(t, b.e)
		scenario{url: "/cancel/confirm/BMBTI-1807?t=unknown", status: 404, contains: []string{"This cancel link is not valid"}}.run(t, b.e)
		scenario{url: "/cancel/confirm/BMBTI-1807", status: 404, contains: []string{"This cancel link is not valid"}}.run(t, b.e)

		// An expired link.
		old := time.Now().Add(-25 * time.Hour)
		if err := s.AddCancelLink(context.Background(), s.DB, "ana@example.com", "expired-token", old, old.Add(24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		scenario{url: "/de/cancel/confirm/BMBTI-1807?t=expired-token", status: 410, contains: []string{"Dieser Kündigungslink ist abgelaufen"}}.run(t, b.e)

		// The address of a subscription that already ends is unknown now.
		if rec := b.cancelForm(page, "ana@example.com"); rec.Code != http.StatusNotFound {
			t.Errorf("asking again after the cancel: %d", rec.Code)
		}
	})
}

// A mailbox gets three cancel links an hour; a client address a few
// requests, then one a minute.
func TestCancelRateLimits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		subscribe(t, s, "bo@example.com")
		b := &browser{t: t, e: newServerWith(t, s, map[string]string{"RATE_LIMIT_SCALE": "100"}), cookies: map[string]*http.Cookie{}}
		const page = "/cancel/subscription/BMBTI-1807"
		for i := range 3 {
			if rec := b.cancelForm(page, "bo@example.com"); rec.Code != http.StatusSeeOther {
				t.Fatalf("request %d: %d", i+1, rec.Code)
			}
		}
		rec := b.cancelForm("/es"+page, "BO@example.com")
		if rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), "Demasiadas solicitudes") {
			t.Errorf("a fourth link: %d", rec.Code)
		}
		if n := countRows(t, s, "cancel_links"); n != 3 {
			t.Errorf("%d links after a refused fourth", n)
		}

		b = &browser{t: t, e: newServer(t, s), cookies: map[string]*http.Cookie{}}
		codes := []int{}
		for range 7 {
			codes = append(codes, b.cancelForm(page, "nobody@example.com").Code)
		}
		if codes[0] != http.StatusNotFound || codes[len(codes)-1] != http.StatusTooManyRequests {
			t.Errorf("one client address: %v", codes)
		}
	})
}
