package handlers

import (
	"net/url"
	"testing"
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
