package handlers_test

import (
	"bytes"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"selfmap/app"
	"selfmap/internal/config"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// A CSRF token is read from the X-CSRF-Token header or the form body,
// never from the query string: a token accepted there would invite pages
// to put it in URLs, which end up in logs, history and Referer headers.
func TestCSRFTokenInTheQueryStringIsRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		b := &browser{t: t, e: newServer(t, s), cookies: map[string]*http.Cookie{}}
		token := b.csrfToken("/")
		inQuery := "?" + url.Values{"_csrf": {token}}.Encode()

		rec := b.postForm("/consent"+inQuery, url.Values{"choice": {"none"}})
		if rec.Code != http.StatusForbidden {
			t.Errorf("form POST with the token in the query: %d, want 403", rec.Code)
		}
		if b.cookies["consent"] != nil {
			t.Errorf("a token in the query stored consent %q", b.cookies["consent"].Value)
		}

		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("choice", "none") //nolint:errcheck // a bytes.Buffer takes every write
		mw.Close()
		req := httptest.NewRequest("POST", "/consent"+inQuery, &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		if rec := b.do(req); rec.Code != http.StatusForbidden {
			t.Errorf("multipart POST with the token in the query: %d, want 403", rec.Code)
		}

		req = httptest.NewRequest("POST", "/api/consent"+inQuery, strings.NewReader(`{"analytics":true,"marketing":true}`))
		req.Header.Set("Content-Type", "application/json")
		if rec := b.do(req); rec.Code != http.StatusForbidden {
			t.Errorf("API POST with the token in the query: %d, want 403", rec.Code)
		}

		// The same token in the body, or in the header, is accepted.
		if rec := b.postForm("/consent", url.Values{"choice": {"none"}, "_csrf": {token}}); rec.Code != http.StatusSeeOther {
			t.Errorf("form POST with the token in the body: %d, want 303", rec.Code)
		}
		if rec := b.postJSON("/api/consent", token, map[string]bool{"analytics": true, "marketing": false}); rec.Code != http.StatusOK {
			t.Errorf("API POST with the token in the header: %d, want 200", rec.Code)
		}
	})
}

// syncBuffer is a log sink the request logger may write to while the test
// reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// The request log keeps that a secret was in the query, never its value:
// report and cancel links' tokens however they are written, CSRF tokens,
// mailed codes, the client secret Stripe appends on its way back from 3-D
// Secure, e-mail addresses.
func TestRequestLogNeverKeepsASecret(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		logs := &syncBuffer{}
		vars := map[string]string{"DATA_DIR": t.TempDir(), "BASE_URL": "http://selfmap.test"}
		cfg, err := config.Load(func(k string) string { return vars[k] })
		if err != nil {
			t.Fatal(err)
		}
		a, err := app.New(cfg, slog.New(slog.NewJSONHandler(logs, nil)), s)
		if err != nil {
			t.Fatal(err)
		}
		b := &browser{t: t, e: a.Handler, cookies: map[string]*http.Cookie{}}
		csrf := b.csrfToken("/")

		requests := map[string]string{
			"/report/result/BMBTI-1807?t=SECRETreport&tab=dimensions":                                                  "SECRETreport",
			"/cancel/confirm/BMBTI-1807?%74=SECRETescaped":                                                             "SECRETescaped",
			"/report/result/BMBTI-1807?tab=x;t=SECRETsemicolon":                                                        "SECRETsemicolon",
			"/report/result/BMBTI-1807?t=SECRETundecodable%zz":                                                         "SECRETundecodable",
			"/report/result/BMBTI-1807?T=SECRETupper":                                                                  "SECRETupper",
			"/user/verify?code=SECRETcode":                                                                             "SECRETcode",
			"/api/user/get?access_token=SECRETaccess":                                                                  "SECRETaccess",
			"/paying/check/BMBTI-1807?payment_intent=pi_1&payment_intent_client_secret=SECRETstripe&redirect_status=x": "SECRETstripe",
			"/user/forgot-password?email=SECRETmailbox%40example.com":                                                  "SECRETmailbox",
			"/types?" + url.Values{"_csrf": {csrf}}.Encode():                                                           csrf,
		}
		for target := range requests {
			b.do(httptest.NewRequest("GET", target, nil))
		}
		b.postForm("/consent?"+url.Values{"_csrf": {csrf}}.Encode(), url.Values{"choice": {"none"}})

		logged := logs.String()
		for target, secret := range requests {
			if strings.Contains(logged, secret) {
				t.Errorf("the log keeps the secret of %s", target)
			}
		}
		for _, kept := range []string{"?t=redacted&tab=dimensions", "redirect_status=x", `"uri":"/user/verify?code=redacted"`} {
			if !strings.Contains(logged, kept) {
				t.Errorf("the log lacks %s:\n%s", kept, logged)
			}
		}
		if t.Failed() {
			t.Logf("log:\n%s", logged)
		}
	})
}
