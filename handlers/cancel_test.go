package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/i18n"
	"selfmap/internal/store"
)

// cancelForm posts the cancel page's form with its token.
func (b *browser) cancelForm(path, email string) *httptest.ResponseRecorder {
	b.T.Helper()
	token := csrfField.FindStringSubmatch(b.Get(path).Body.String())
	if token == nil {
		b.T.Fatalf("no form token on %s", path)
	}
	return b.PostForm(path, url.Values{"_csrf": {token[1]}, "email": {email}})
}

var cancelLinkInMail = regexp.MustCompile(`http://selfmap\.test(/[a-z-]*/?cancel/confirm/BMBTI-1807)\?t=([A-Za-z0-9_-]{43})`)

// The cancel by e-mail: an unknown address told so with the address kept,
// a known one mailed one link, the link confirmed in one click and
// cancelling at the period's end once, the success page saying until
// when, refused links and forged posts changing nothing.
func TestCancelByEmail(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s := k.Store
		sub := k.TrialSubscription(t, "ana@example.com", "basic-weekly")
		b := newBrowser(t, k.Handler)
		const page = "/cancel/subscription/BMBTI-1807"

		scenario{url: page, status: 200, contains: []string{`data-testid="cancel-form"`, "Cancel your subscription", `name="_csrf"`}}.run(t, b.Handler)
		scenario{url: "/cancel-subscription/BMBTI-1807?hl=EN", status: 301, location: page + "?hl=EN"}.run(t, b.Handler)
		scenario{url: "/cancel-success/BMBTI-1807", status: 301, location: "/cancel/success/BMBTI-1807"}.run(t, b.Handler)
		scenario{url: "/cancel/subscription/NOPE-1", status: 404}.run(t, b.Handler)
		scenario{name: "no token", method: "POST", url: page, body: "email=ana%40example.com",
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 403}.run(t, b.Handler)

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
		b.Expect("/fr"+page, 200, `data-testid="cancel-sent"`, "Consultez votre boîte de réception")
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
		until := localDay("fr", sub.CurrentPeriodEnd)

		rec = b.Expect(confirmURL, 200, `data-testid="cancel-confirm-form"`, until)
		if got, _ := s.GetSubscription(context.Background(), s.DB, sub.ID); got.CancelAtPeriodEnd {
			t.Fatal("opening the link cancelled")
		}
		csrf := csrfField.FindStringSubmatch(rec.Body.String())[1]
		if rec := b.PostForm(link[1], url.Values{"t": {link[2]}}); rec.Code != http.StatusForbidden {
			t.Errorf("a confirm without its form token: %d", rec.Code)
		}
		if got, _ := s.GetSubscription(context.Background(), s.DB, sub.ID); got.CancelAtPeriodEnd {
			t.Fatal("a forged confirm cancelled")
		}

		rec = b.PostForm(link[1], url.Values{"_csrf": {csrf}, "t": {link[2]}})
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/fr/cancel/success/BMBTI-1807" {
			t.Fatalf("confirm: %d %s %.300s", rec.Code, rec.Header().Get("Location"), rec.Body.String())
		}
		b.Expect("/fr/cancel/success/BMBTI-1807", 200, "Votre abonnement est résilié", `data-testid="cancel-until"`,
			"Vous gardez votre accès jusqu’au "+until+" ; votre abonnement ne sera pas renouvelé")
		// The success page shows once, after the cancel.
		scenario{url: "/fr/cancel/success/BMBTI-1807", status: 303, location: "/fr" + page}.run(t, b.Handler)
		got, _ := s.GetSubscription(context.Background(), s.DB, sub.ID)
		if !got.CancelAtPeriodEnd || got.Status != "trialing" || !got.CurrentPeriodEnd.Equal(sub.CurrentPeriodEnd) {
			t.Errorf("after the cancel: %+v", got)
		}

		// Replayed, the link is spent and nothing changes.
		mails := countRows(t, s, "mail_outbox")
		rec = b.PostForm(link[1], url.Values{"_csrf": {csrf}, "t": {link[2]}})
		if rec.Code != http.StatusGone || !strings.Contains(rec.Body.String(), "déjà été utilisé") ||
			!strings.Contains(rec.Body.String(), `data-testid="cancel-already"`) || strings.Contains(rec.Body.String(), "cancel-fresh-form") {
			t.Errorf("a replayed confirm: %d", rec.Code)
		}
		again, _ := s.GetSubscription(context.Background(), s.DB, sub.ID)
		if again.Version != got.Version || countRows(t, s, "mail_outbox") != mails {
			t.Error("a replayed confirm changed something")
		}
		scenario{url: confirmURL, status: 410, contains: []string{`data-testid="cancel-link-error"`, `data-testid="cancel-already"`, until},
			notContain: []string{"cancel-confirm-form", "cancel-fresh-form"}}.run(t, b.Handler)
		scenario{url: "/cancel/confirm/BMBTI-1807?t=unknown", status: 404, contains: []string{"This cancel link is not valid"}}.run(t, b.Handler)
		scenario{url: "/cancel/confirm/BMBTI-1807", status: 404, contains: []string{"This cancel link is not valid"}}.run(t, b.Handler)

		// An expired link.
		old := k.Clock.Now().Add(-25 * time.Hour)
		if err := s.AddCancelLink(context.Background(), s.DB, "ana@example.com", "expired-token", old, old.Add(24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		scenario{url: "/de/cancel/confirm/BMBTI-1807?t=expired-token", status: 410, contains: []string{"Dieser Kündigungslink ist abgelaufen"}}.run(t, b.Handler)

		// The address of a subscription that already ends is told until
		// when, in its language, and mailed nothing.
		mails = countRows(t, s, "mail_outbox")
		for _, tc := range []struct{ tag, want string }{
			{"de", "Sie behalten den Zugang bis zum " + localDay("de", sub.CurrentPeriodEnd) + "; Ihr Abo wird nicht verlängert"},
			{"ja", localDay("ja", sub.CurrentPeriodEnd) + "まで引き続きご利用いただけます。今後は更新されず"},
		} {
			rec := b.cancelForm("/"+tc.tag+page, "ana@example.com")
			if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/"+tc.tag+page {
				t.Errorf("asking again after the cancel (%s): %d %s", tc.tag, rec.Code, rec.Header().Get("Location"))
			}
			b.Expect("/"+tc.tag+page, 200, `data-testid="cancel-already"`, tc.want)
		}
		b.Expect(page, 200, `data-testid="cancel-form"`)
		if countRows(t, s, "mail_outbox") != mails {
			t.Error("an already cancelled address was mailed")
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}

// A mailbox gets three cancel links an hour; a client address a few
// requests, then one a minute.
func TestCancelRateLimits(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s := k.Store
		k.TrialSubscription(t, "bo@example.com", "basic-weekly")
		b := newBrowser(t, k.Handler)
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

		b = newBrowser(t, apptest.New(t, s, apptest.WithClock(k.Clock)).Handler)
		codes := []int{}
		for range 7 {
			codes = append(codes, b.cancelForm(page, "nobody@example.com").Code)
		}
		if codes[0] != http.StatusNotFound || codes[len(codes)-1] != http.StatusTooManyRequests {
			t.Errorf("one client address: %v", codes)
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}

// localDay is a day as the cancel pages of a locale write it.
func localDay(tag string, t time.Time) string {
	t = t.UTC()
	switch tag {
	case "fr":
		day := strconv.Itoa(t.Day())
		if t.Day() == 1 {
			day = "1er"
		}
		months := []string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
		return day + " " + months[t.Month()-1] + " " + strconv.Itoa(t.Year())
	case "de":
		months := []string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"}
		return strconv.Itoa(t.Day()) + ". " + months[t.Month()-1] + " " + strconv.Itoa(t.Year())
	case "ja":
		return strconv.Itoa(t.Year()) + "年" + strconv.Itoa(int(t.Month())) + "月" + strconv.Itoa(t.Day()) + "日"
	}
	return t.Format("2 January 2006")
}

// A used link whose mailbox still has a subscription to cancel offers one
// fresh link to the same mailbox: pressed twice within minutes, it mails
// once, and neither answer leads back to the dead link.
func TestCancelFreshLink(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s := k.Store
		sub := k.TrialSubscription(t, "cy@example.com", "basic-weekly")
		b := newBrowser(t, k.Handler)
		const page = "/de/cancel/subscription/BMBTI-1807"
		if rec := b.cancelForm(page, "cy@example.com"); rec.Code != http.StatusSeeOther {
			t.Fatalf("asking for a link: %d", rec.Code)
		}
		var body string
		if err := s.DB.Get(&body, `SELECT body FROM mail_outbox WHERE kind = 'cancel_link'`); err != nil {
			t.Fatal(err)
		}
		link := cancelLinkInMail.FindStringSubmatch(body)
		if link == nil {
			t.Fatalf("no link in %q", body)
		}
		confirmURL := link[1] + "?t=" + link[2]
		csrf := csrfField.FindStringSubmatch(b.Get(confirmURL).Body.String())[1]
		if rec := b.PostForm(link[1], url.Values{"_csrf": {csrf}, "t": {link[2]}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("confirm: %d", rec.Code)
		}
		// The subscription renews again (resumed in the user centre).
		if _, err := s.DB.Exec(s.DB.Rebind(`UPDATE subscriptions SET cancel_at_period_end = ? WHERE id = ?`), false, sub.ID); err != nil {
			t.Fatal(err)
		}

		rec := b.Expect(confirmURL, 410, `data-testid="cancel-link-error"`, "bereits verwendet", `data-testid="cancel-fresh-form"`,
			`action="/de/cancel/resend/BMBTI-1807"`)
		if strings.Contains(rec.Body.String(), `href="`+confirmURL) {
			t.Error("the used link's page links to itself")
		}
		mails := countRows(t, s, "mail_outbox WHERE kind = 'cancel_link'")
		fresh := url.Values{"_csrf": {csrf}, "t": {link[2]}}
		scenario{name: "no token", method: "POST", url: "/de/cancel/resend/BMBTI-1807", body: "t=" + link[2],
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 403}.run(t, b.Handler)
		rec = b.PostForm("/de/cancel/resend/BMBTI-1807", fresh)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != page {
			t.Fatalf("a fresh link: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		b.Expect(page, 200, `data-testid="cancel-sent"`)
		if n := countRows(t, s, "mail_outbox WHERE kind = 'cancel_link'"); n != mails+1 {
			t.Fatalf("%d links mailed for a fresh one, want 1", n-mails)
		}
		k.Clock.Add(2 * time.Minute)
		if rec := b.PostForm("/de/cancel/resend/BMBTI-1807", fresh); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != page {
			t.Fatalf("a second fresh link: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		b.Expect(page, 200, `data-testid="cancel-recent"`, "vor wenigen Minuten")
		if n := countRows(t, s, "mail_outbox WHERE kind = 'cancel_link'"); n != mails+1 {
			t.Errorf("%d links mailed after asking twice, want 1", n-mails)
		}
		rec = b.PostForm("/cancel/resend/BMBTI-1807", url.Values{"_csrf": {csrf}, "t": {"unknown"}})
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "This cancel link is not valid") {
			t.Errorf("an unknown token: %d", rec.Code)
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}

// The success page shows only after a cancel made in this browser: opened
// directly it goes to the cancel page; the legacy alias still leads to it.
func TestCancelSuccessNeedsACancel(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		for _, l := range i18n.Locales {
			scenario{url: l.Path("/cancel/success/BMBTI-1807"), status: 303, location: l.Path("/cancel/subscription/BMBTI-1807"),
				notContain: []string{"cancel-success"}}.run(t, k.Handler)
		}
		scenario{url: "/cancel-success/BMBTI-1807", status: 301, location: "/cancel/success/BMBTI-1807"}.run(t, k.Handler)
		scenario{url: "/cancel/success/NOPE-1", status: 404}.run(t, k.Handler)
	})
}

// The help article on cancelling links to the cancel page, in every
// locale, under the locale's prefix.
func TestHelpLinksToTheCancelPage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		for _, l := range i18n.Locales {
			scenario{url: l.Path("/helpDetail/BMBTI-1807") + "?id=cancel-subscription", status: 200,
				contains: []string{`href="` + l.Path("/cancel/subscription/BMBTI-1807") + `"`}}.run(t, k.Handler)
		}
	})
}
