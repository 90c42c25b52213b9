package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// seedMailboxes stores a paid report for ana@example.com and a pack-only
// purchase for pack@example.com, made the day before the kit's time.
func seedMailboxes(t *testing.T, k *apptest.Kit) {
	s, at := k.Store, k.Clock.Now().UTC().Add(-24*time.Hour)
	storetest.Buy(t, s, storetest.Purchase{ResultID: "r1", Code: "INTJ-A", Report: "paid", ReportEmail: "ana@example.com", At: at})
	storetest.Buy(t, s, storetest.Purchase{ResultID: "r2", Code: "ENFP-T", Report: "created", ReportEmail: "pack@example.com", Pack: "paid", At: at})
}

func (b *browser) retrieveForm(path, email string) *httptest.ResponseRecorder {
	b.T.Helper()
	token := csrfField.FindStringSubmatch(b.Get(path).Body.String())
	if token == nil {
		b.T.Fatalf("no form token on %s", path)
	}
	return b.PostForm(path, url.Values{"_csrf": {token[1]}, "email": {email}})
}

// The retrieve page: every state in the visitor's language, the address
// kept on an error, links only in the mailbox, CSRF required, and a
// mailbox limited to three retrieval mails an hour.
func TestRetrievePage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		seedMailboxes(t, k)
		s, b := k.Store, newBrowser(t, k.Handler)
		const page = "/report/retrieve/BMBTI-1807"

		scenario{url: page, status: 200, contains: []string{`data-testid="retrieve-form"`, "Retrieve your report", `name="_csrf"`}}.run(t, b.Handler)
		scenario{url: "/ja" + page, status: 200, contains: []string{`<html lang="ja">`, "レポートの再送"}}.run(t, b.Handler)
		scenario{url: "/retrieve/BMBTI-1807?hl=EN", status: 301, location: page + "?hl=EN"}.run(t, b.Handler)
		scenario{url: "/report/retrieve/NOPE-1", status: 404}.run(t, b.Handler)
		scenario{name: "no token", method: "POST", url: page, body: "email=ana%40example.com",
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 403}.run(t, b.Handler)

		for _, tc := range []struct {
			path, email string
			status      int
			want        string
		}{
			{page, "ana@", 422, "ana@"},
			{"/de" + page, "", 422, "E-Mail"},
			{page, "nobody@example.com", 404, "There are no retrievable reports in this mailbox"},
			{"/ko" + page, "pack@example.com", 404, "이 메일함으로 찾을 수 있는 리포트가 없어요"},
		} {
			rec := b.retrieveForm(tc.path, tc.email)
			body := rec.Body.String()
			if rec.Code != tc.status || !strings.Contains(body, tc.want) || !strings.Contains(body, `data-testid="retrieve-error"`) ||
				!strings.Contains(body, `value="`+tc.email+`"`) {
				t.Errorf("%s %q: %d, want %d with %q and the address kept", tc.path, tc.email, rec.Code, tc.status, tc.want)
			}
		}
		if n := countRows(t, s, "mail_outbox"); n != 0 {
			t.Fatalf("%d mails after refused requests", n)
		}

		for i := range 3 {
			rec := b.retrieveForm("/fr"+page, "Ana@example.com")
			if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/fr"+page {
				t.Fatalf("request %d: %d %s", i+1, rec.Code, rec.Header().Get("Location"))
			}
			after := b.Get("/fr" + page).Body.String()
			if !strings.Contains(after, "Rapport envoyé") || strings.Contains(after, "?t=") || strings.Contains(after, "/report/result/") {
				t.Fatalf("after sending, the page shows %q", after)
			}
		}
		mails, links := countRows(t, s, "mail_outbox"), countRows(t, s, "report_links")
		if mails != 3 || links != 3 {
			t.Fatalf("%d mails and %d links after three requests", mails, links)
		}
		rec := b.retrieveForm("/fr"+page, "ana@example.com")
		if rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), "Trop de demandes") {
			t.Errorf("a fourth request: %d %.300s", rec.Code, rec.Body.String())
		}
		if countRows(t, s, "mail_outbox") != mails || countRows(t, s, "report_links") != links {
			t.Error("the refused fourth request wrote something")
		}

		// The mail is French and carries a link to the report page; the
		// dev outbox shows its text and, sandboxed, its HTML.
		var m store.Mail
		if err := s.DB.Get(&m, `SELECT id, subject, body, html_body FROM mail_outbox ORDER BY created_at LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(m.Subject, "rapports") || !strings.Contains(m.Body, "http://selfmap.test/fr/report/result/BMBTI-1807?t=") ||
			!strings.Contains(m.HTMLBody.String, `href="http://selfmap.test/fr/report/result/BMBTI-1807?t=`) || !strings.Contains(m.Body, "SM-r1") {
			t.Errorf("retrieval mail %q:\n%s", m.Subject, m.Body)
		}
		rec = scenario{url: "/dev/mail", status: 200, contains: []string{`data-testid="dev-mail-text"`, `data-testid="dev-mail-html"`,
			`sandbox=""`, `src="/dev/mail/` + m.ID + `/html"`, "&lt;table"}}.run(t, b.Handler)
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "frame-src 'self'") {
			t.Errorf("the outbox cannot frame its HTML parts: %s", csp)
		}
		rec = scenario{url: "/dev/mail/" + m.ID + "/html", status: 200, contains: []string{"<table", "SM-r1"}}.run(t, b.Handler)
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox;") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("an HTML part is served without a sandbox: %s", csp)
		}
		scenario{url: "/dev/mail/nope/html", status: 404}.run(t, b.Handler)
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}

// The JSON call: the same states in the envelope, CSRF required, the
// mailbox limit, and nothing of a report in any answer.
func TestRetrieveAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		seedMailboxes(t, k)
		s, b := k.Store, newBrowser(t, k.Handler)
		token := b.CSRFToken("/")
		const call = "/pay/exam/order/report/retrieve"
		answer := func(rec *httptest.ResponseRecorder) (int, string) {
			var env struct {
				Result  int
				Message string
			}
			json.Unmarshal(rec.Body.Bytes(), &env) //nolint:errcheck // checked by the caller
			if strings.Contains(rec.Body.String(), "?t=") {
				t.Errorf("an answer carries a link: %s", rec.Body.String())
			}
			return env.Result, env.Message
		}
		if rec := b.PostJSON(call, "forged", map[string]string{"email": "ana@example.com"}); rec.Code != 403 {
			t.Errorf("a forged token: %d", rec.Code)
		}
		for _, tc := range []struct {
			hl, email string
			status    int
			want      string
		}{
			{"EN", "bad", 400, "valid e-mail"},
			{"CN", "nobody@example.com", 404, "当前邮箱中没有可找回的报告"},
			{"HK", "pack@example.com", 404, "此電郵地址目前沒有可取回的報告"},
			{"JA", "ana@example.com", 200, "レポートを送信しました"},
			{"ES", "ana@example.com", 200, "Informe enviado"},
			{"PT", "ana@example.com", 200, "Relatório enviado"},
			{"DE", "ana@example.com", 429, "Zu viele Anfragen"},
		} {
			rec := b.PostJSON(call+"?hl="+tc.hl, token, map[string]string{"email": tc.email})
			result, msg := answer(rec)
			if rec.Code != tc.status || result != tc.status || !strings.Contains(msg+rec.Body.String(), tc.want) {
				t.Errorf("%s %s: %d %s", tc.hl, tc.email, rec.Code, rec.Body.String())
			}
		}
		if n := countRows(t, s, "mail_outbox"); n != 3 {
			t.Errorf("%d retrieval mails; want 3", n)
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}

// Each client address gets a few tries, then 429 in its language, before
// any mailbox is even looked at.
func TestRetrieveRateLimitPerClient(t *testing.T) {
	b := newBrowser(t, apptest.New(t, storetest.SQLite(t)).Handler)
	token := b.CSRFToken("/")
	limited := 0
	for range 8 {
		rec := b.PostJSON("/pay/exam/order/report/retrieve?hl=KR", token, map[string]string{"email": "nobody@example.com"})
		if rec.Code == http.StatusTooManyRequests {
			limited++
			if !strings.Contains(rec.Body.String(), `"result":429`) {
				t.Errorf("429 without the envelope: %s", rec.Body.String())
			}
		}
	}
	if limited == 0 {
		t.Fatal("eight retrievals from one address in a row were all allowed")
	}
	rec := b.retrieveForm("/ko/report/retrieve/BMBTI-1807", "nobody@example.com")
	if rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), `<html lang="ko">`) {
		t.Errorf("the page shares the API's limit: %d", rec.Code)
	}
}

// Sending failed: when the outbox cannot take the mail, the visitor is
// told so and nothing is written.
func TestRetrieveSendingFailed(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		seedMailboxes(t, k)
		s, b := k.Store, newBrowser(t, k.Handler)
		if _, err := s.DB.Exec(`DROP TABLE report_links`); err != nil {
			t.Fatal(err)
		}
		rec := b.retrieveForm("/es/report/retrieve/BMBTI-1807", "ana@example.com")
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "No se pudo enviar el informe") ||
			!strings.Contains(rec.Body.String(), `value="ana@example.com"`) {
			t.Errorf("sending failed: %d %.300s", rec.Code, rec.Body.String())
		}
		if n := countRows(t, s, "mail_outbox"); n != 0 {
			t.Errorf("%d mails queued by a failed request", n)
		}
	})
}

// Outside dev the outbox does not exist.
func TestDevMailOnlyInDev(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t), apptest.WithEnv(map[string]string{"APP_ENV": "prod", "SESSION_SECRET": strings.Repeat("s", 40), "BASE_URL": "https://selfmap.test"})).Handler
	for _, path := range []string{"/dev/mail", "/dev/mail/x/html"} {
		scenario{url: path, status: 404}.run(t, e)
	}
}
