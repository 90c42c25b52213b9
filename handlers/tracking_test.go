package handlers_test

import (
	"net/http"
	"net/http/httptest"
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
