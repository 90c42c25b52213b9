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

	"selfmap/app/apptest"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// A CSRF token is read from the X-CSRF-Token header or the form body,
// never from the query string: a token accepted there would invite pages
// to put it in URLs, which end up in logs, history and Referer headers.
func TestCSRFTokenInTheQueryStringIsRefused(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		token := b.CSRFToken("/")
		inQuery := "?" + url.Values{"_csrf": {token}}.Encode()

		rec := b.PostForm("/consent"+inQuery, url.Values{"choice": {"none"}})
		if rec.Code != http.StatusForbidden {
			t.Errorf("form POST with the token in the query: %d, want 403", rec.Code)
		}
		if b.Cookies["consent"] != nil {
			t.Errorf("a token in the query stored consent %q", b.Cookies["consent"].Value)
		}

		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("choice", "none") //nolint:errcheck // a bytes.Buffer takes every write
		mw.Close()
		req := httptest.NewRequest("POST", "/consent"+inQuery, &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		if rec := b.Do(req); rec.Code != http.StatusForbidden {
			t.Errorf("multipart POST with the token in the query: %d, want 403", rec.Code)
		}

		req = httptest.NewRequest("POST", "/api/consent"+inQuery, strings.NewReader(`{"analytics":true,"marketing":true}`))
		req.Header.Set("Content-Type", "application/json")
		if rec := b.Do(req); rec.Code != http.StatusForbidden {
			t.Errorf("API POST with the token in the query: %d, want 403", rec.Code)
		}

		// The same token in the body, or in the header, is accepted.
		if rec := b.PostForm("/consent", url.Values{"choice": {"none"}, "_csrf": {token}}); rec.Code != http.StatusSeeOther {
			t.Errorf("form POST with the token in the body: %d, want 303", rec.Code)
		}
		if rec := b.PostJSON("/api/consent", token, map[string]bool{"analytics": true, "marketing": false}); rec.Code != http.StatusOK {
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
		b := newBrowser(t, apptest.New(t, s, apptest.WithLogger(slog.New(slog.NewJSONHandler(logs, nil)))).Handler)
		csrf := b.CSRFToken("/")

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
			b.Get(target)
		}
		b.PostForm("/consent?"+url.Values{"_csrf": {csrf}}.Encode(), url.Values{"choice": {"none"}})

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
