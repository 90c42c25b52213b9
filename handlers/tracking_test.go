package handlers_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// The server plans third-party scripts only after consent, names only
// their origins in the page's CSP, and reports the funnel's ad events.
func TestTrackingAfterConsentOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		e := newServerWith(t, s, map[string]string{"TRACKING": `{"pixels":{"meta":"123","tiktok":"T1"},"tagManager":"GTM-X1"}`})
		get := func(path, consent string) *httptest.ResponseRecorder {
			req := httptest.NewRequest("GET", path, nil)
			if consent != "" {
				req.AddCookie(&http.Cookie{Name: "consent", Value: consent})
			}
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			return rec
		}
		for _, tc := range []struct {
			name, consent, query string
			scripts              []string
			csp, notCSP          []string
		}{
			{"no choice yet", "", "?fbclid=a", nil, nil, []string{"facebook", "googletagmanager"}},
			{"rejected", "v1.a0.m0", "?fbclid=a", nil, nil, []string{"facebook", "googletagmanager"}},
			{"analytics", "v1.a1.m0", "?fbclid=a", []string{`"v":"tagmanager"`}, []string{"https://www.googletagmanager.com"}, []string{"facebook"}},
			{"marketing, no click", "v1.a0.m1", "", nil, nil, []string{"facebook", "tiktok"}},
			{"marketing from a click", "v1.a0.m1", "?ttclid=b", []string{`"v":"tiktok"`}, []string{"https://analytics.tiktok.com"}, []string{"facebook"}},
		} {
			rec := get("/landing/home/BMBTI-1807"+tc.query, tc.consent)
			body, csp := rec.Body.String(), rec.Header().Get("Content-Security-Policy")
			if len(tc.scripts) == 0 && strings.Contains(body, "tracking-props") {
				t.Errorf("%s: the page plans third-party scripts", tc.name)
			}
			for _, want := range tc.scripts {
				if !strings.Contains(body, want) {
					t.Errorf("%s: the plan lacks %s", tc.name, want)
				}
			}
			for _, want := range tc.csp {
				if !strings.Contains(csp, want) {
					t.Errorf("%s: the CSP lacks %s", tc.name, want)
				}
			}
			for _, not := range tc.notCSP {
				if strings.Contains(csp, not) || strings.Contains(body, `"v":"`+not) {
					t.Errorf("%s: %s is allowed or planned", tc.name, not)
				}
			}
		}
	})
}

// A public page served from the page cache carries each response's own
// nonce and each visitor's own CSRF token, plain and gzipped; a visit with
// a query is rendered for itself.
func TestPageCachePerVisitorValues(t *testing.T) {
	e := newServer(t, storetest.SQLite(t))
	fetch := func(path string, gz bool) (body, csp string) {
		req := httptest.NewRequest("GET", path, nil)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("%s: %d", path, rec.Code)
		}
		b := rec.Body.Bytes()
		if gz {
			if rec.Header().Get("Content-Encoding") != "gzip" {
				t.Fatalf("%s: not gzipped", path)
			}
			r, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if b, err = io.ReadAll(r); err != nil {
				t.Fatalf("%s: bad gzip: %v", path, err)
			}
		}
		return string(b), rec.Header().Get("Content-Security-Policy")
	}
	nonceOf := regexp.MustCompile(`'nonce-([^']+)'`)
	csrfOf := regexp.MustCompile(`name="_csrf" value="([^"]+)"`)
	var tokens []string
	for i, gz := range []bool{false, true, true, false} {
		body, csp := fetch("/landing/relax/BMBTI-1807", gz)
		nonce := nonceOf.FindStringSubmatch(csp)[1]
		if !strings.Contains(body, `nonce="`+nonce+`"`) || strings.Contains(body, "sentinel") {
			t.Fatalf("response %d: the body does not carry the CSP's nonce", i)
		}
		m := csrfOf.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("response %d has no CSRF token", i)
		}
		tokens = append(tokens, m[1])
	}
	if tokens[0] == tokens[1] || tokens[1] == tokens[2] {
		t.Error("two visitors got the same CSRF token")
	}
	body, _ := fetch("/landing/relax/BMBTI-1807?fbclid=abc", false)
	if !strings.Contains(body, "fbclid=abc") {
		t.Error("a visit with a query got a page without its query in the links")
	}
}
