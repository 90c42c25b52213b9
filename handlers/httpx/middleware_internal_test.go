package httpx

import (
	"net/url"
	"slices"
	"testing"

	"selfmap/internal/tracking"
)

func TestLoggedURIHidesReportTokens(t *testing.T) {
	for in, want := range map[string]string{
		"/report/result/BMBTI-1807?t=secret&tab=dimensions": "/report/result/BMBTI-1807?t=redacted&tab=dimensions",
		"/landing/home/BMBTI-1807?fbclid=x":                 "/landing/home/BMBTI-1807?fbclid=x",
		"/":                                                 "/",
	} {
		u, _ := url.Parse(in)
		if got := loggedURI(u); got != want {
			t.Errorf("loggedURI(%s) = %s, want %s", in, got, want)
		}
	}
}

// FuzzQueryParameters reads visits' query strings: no panic; the funnel
// keeps only the tracking parameters, each short; the log never keeps a
// report token.
func FuzzQueryParameters(f *testing.F) {
	f.Add("fbclid=abc&r=x&t=secret")
	f.Add("%zz&&==;t=1")
	f.Add("ttclid=" + string(make([]byte, 300)))
	f.Fuzz(func(t *testing.T, raw string) {
		kept := TrackingQuery(raw)
		for name, vals := range kept {
			if !slices.Contains(tracking.KeptParams, name) || len(vals) != 1 || len(vals[0]) > 200 {
				t.Fatalf("the funnel keeps %q=%q", name, vals)
			}
		}
		u := &url.URL{Path: "/report/result/BMBTI-1807", RawQuery: raw}
		logged := loggedURI(u)
		if q, err := url.ParseQuery(raw); err == nil && q.Has("t") {
			lu, err := url.Parse(logged)
			if err != nil || lu.Query().Get("t") != "redacted" {
				t.Fatalf("the log keeps the token of %q: %s", raw, logged)
			}
		}
	})
}

// An IPv6 client is counted by its /64, so picking new addresses inside it
// gives no new bucket; IPv4 addresses count one by one.
func TestLimitKey(t *testing.T) {
	for in, want := range map[string]string{
		"203.0.113.50":         "203.0.113.50",
		"2001:db8:1:2:aaaa::1": "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::9": "2001:db8:1:2::/64",
		"2001:db8:1:3::1":      "2001:db8:1:3::/64",
		"::ffff:203.0.113.50":  "::ffff:203.0.113.50",
		"not an address":       "not an address",
	} {
		if got := limitKey(in); got != want {
			t.Errorf("limitKey(%q) = %q, want %q", in, got, want)
		}
	}
}
