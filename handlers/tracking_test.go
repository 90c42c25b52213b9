package handlers_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/store/storetest"
)

// The server plans third-party scripts only after consent, names only
// their origins in the page's CSP, and reports the funnel's ad events.
func TestTrackingAfterConsentOnly(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
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
	}, apptest.WithEnv(map[string]string{"TRACKING": `{"pixels":{"meta":"123","tiktok":"T1"},"tagManager":"GTM-X1"}`}))
}

// A public page served from the page cache carries each response's own
// nonce and each visitor's own CSRF token, plain and gzipped; a visit with
// a query is rendered for itself.
func TestPageCachePerVisitorValues(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
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

// The report, its PDF and the retrieval page load no third-party script
// whatever the visitor consented to, and a report link's token never
// reaches the log.
func TestPrivatePagesStayPrivate(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)
		b.Cookies["consent"] = &http.Cookie{Name: "consent", Value: "v1.a1.m1"}
		token := b.CSRFToken("/")
		result, _ := b.PaidReport(token)
		if err := s.AddReportLink(context.Background(), s.DB, result, "private-token-1", k.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/report/result/BMBTI-1807?fbclid=x&t=private-token-1", "/report/retrieve/BMBTI-1807?fbclid=x"} {
			rec := b.Get(path)
			if rec.Code != 200 {
				t.Fatalf("%s: %d", path, rec.Code)
			}
			csp := rec.Header().Get("Content-Security-Policy")
			if strings.Contains(rec.Body.String(), "tracking-props") || strings.Contains(csp, "googletagmanager") || strings.Contains(csp, "facebook") {
				t.Errorf("%s loads third-party scripts", path)
			}
		}
		if rec := b.Get("/?fbclid=x"); !strings.Contains(rec.Body.String(), "tracking-props") {
			t.Error("the home page, consented and from a click, plans no script: the test proves nothing")
		}
	}, apptest.WithEnv(map[string]string{"TRACKING": `{"pixels":{"meta":"123"},"tagManager":"GTM-X1","sessionReplay":"c1"}`}))
}

// Click ids stay with the visitor from the free result through checkout,
// where the funnel's events are planned for the consented pixel.
func TestFunnelKeepsClickIDs(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		b := newBrowser(t, e)
		b.Cookies["consent"] = &http.Cookie{Name: "consent", Value: "v1.a0.m1"}
		token := b.CSRFToken("/?fbclid=click-1")
		rec := b.PostJSON("/api/exam/order/info", token, apptest.Submission(t, func(i int) int { return i%5 + 1 }))
		var sub struct{ Data struct{ ResultID string } }
		if err := jsonDecode(rec.Body.Bytes(), &sub); err != nil {
			t.Fatal(err)
		}
		free := b.Get("/report/result-free-test/BMBTI-1807?fbclid=click-1&r=" + sub.Data.ResultID).Body.String()
		if !strings.Contains(free, "fbclid=click-1") {
			t.Fatal("the free result's links drop the click id")
		}
		buy := b.Get("/paying/buyreport/BMBTI-1807?fbclid=click-1&r=" + sub.Data.ResultID).Body.String()
		if !strings.Contains(buy, `"name":"view_content"`) || !strings.Contains(buy, "fbclid=click-1&amp;r=") {
			t.Errorf("the product page plans no view_content or drops the click id")
		}
		pay := b.Get("/paying/payment/BMBTI-1807?fbclid=click-1&r=" + sub.Data.ResultID).Body.String()
		if !strings.Contains(pay, `"name":"initiate_checkout"`) || !strings.Contains(pay, `"v":"meta"`) {
			t.Errorf("the payment page plans no initiate_checkout for the pixel")
		}
	}, apptest.WithEnv(map[string]string{"TRACKING": `{"pixels":{"meta":"123"}}`}))
}

// The cache keeps visitors' consent choices apart: the preferences dialog
// of one who rejected everything never shows another's "yes".
func TestPageCacheKeepsConsentApart(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
	get := func(consent string) string {
		req := httptest.NewRequest("GET", "/landing/free/BMBTI-1807", nil)
		req.AddCookie(&http.Cookie{Name: "consent", Value: consent})
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	if body := get("v1.a1.m1"); !strings.Contains(body, `"analytics":true`) {
		t.Fatal("an accepting visitor's props")
	}
	if body := get("v1.a0.m0"); strings.Contains(body, `"analytics":true`) || strings.Contains(body, `"marketing":true`) {
		t.Error("a rejecting visitor got another visitor's choices")
	}
	// An undecided visitor's page has the banner; one who rejected has not.
	if body := get(""); !strings.Contains(body, `data-testid="consent-banner"`) {
		t.Error("an undecided visitor got no banner")
	}
	if body := get("v1.a0.m0"); strings.Contains(body, `data-testid="consent-banner"`) {
		t.Error("a visitor who rejected got the banner of an undecided one")
	}
}
