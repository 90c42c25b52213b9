package httpx

import (
	"net/url"
	"strings"
	"testing"
)

// Every parameter that carries a secret loses its value in the log, however
// the query is written; the others are kept, so a log line still says
// which page was asked for and how.
func TestLoggedURIHidesEverySecretParameter(t *testing.T) {
	for in, want := range map[string]string{
		"/consent?_csrf=abc":                          "/consent?_csrf=redacted",
		"/api/consent?X-CSRF-Token=abc":               "/api/consent?X-CSRF-Token=redacted",
		"/user/verify?code=123456&hl=fr":              "/user/verify?code=redacted&hl=fr",
		"/x?token=a&access_token=b&refresh_token=c":   "/x?token=redacted&access_token=redacted&refresh_token=redacted",
		"/x?password=a&new_password=b&confirm=c":      "/x?password=redacted&new_password=redacted&confirm=c",
		"/user/forgot-password?email=a%40example.com": "/user/forgot-password?email=redacted",
		"/x?%74=a":               "/x?t=redacted",
		"/x?T=a":                 "/x?T=redacted",
		"/x?gclid=g;t=a":         "/x?gclid=g&t=redacted",
		"/x?t=a%zz":              "/x?t=redacted",
		"/x?%zz=a&utm_source=ad": "/x?%25zz=redacted&utm_source=ad",
		"/x?a=%zz":               "/x?a=redacted",
		"/x?t":                   "/x?t=redacted",
		"/x?payment_intent=pi_1&redirect_status=ok":    "/x?payment_intent=pi_1&redirect_status=ok",
		"/x?payment_intent_client_secret=pi_1_secret_": "/x?payment_intent_client_secret=redacted",
		"/x?tab=dimensions&r=abc":                      "/x?tab=dimensions&r=abc",
		"/x":                                           "/x",
	} {
		u, err := url.ParseRequestURI(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := loggedURI(u); got != want {
			t.Errorf("loggedURI(%s) = %s, want %s", in, got, want)
		}
	}
}

// A value that a handler would read, whatever its spelling, never reaches
// the log, nor does a piece of it.
func TestLoggedURIKeepsNoPieceOfASecret(t *testing.T) {
	for _, raw := range []string{"t=SECRET", "t=SECRET%zz", "%74=SECRET", "a=1;t=SECRET", "t=SE+CRET", "_csrf=SECRET", "t=%53ECRET",
		"t=SECRET#frag", "t=SECRET\n", "code=SECRET&code=SECRET"} {
		logged := loggedURI(&url.URL{Path: "/report/result/BMBTI-1807", RawQuery: raw})
		if strings.Contains(logged, "SECRET") || strings.Contains(logged, "CRET") {
			t.Errorf("query %q is logged as %s", raw, logged)
		}
	}
}
