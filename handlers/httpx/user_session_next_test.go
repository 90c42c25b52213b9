package httpx

import "testing"

// Where a member lands after log-in is a path of this site or nowhere: no
// scheme, no host, nothing a browser reads as one.
func TestLocalNext(t *testing.T) {
	for raw, want := range map[string]string{
		"/userCenter":                      "/userCenter",
		"/fr/paying/scheme/BMBTI-1807?p=1": "/fr/paying/scheme/BMBTI-1807?p=1",
		"":                                 "",
		"userCenter":                       "",
		"//evil.example/x":                 "",
		"///evil.example":                  "",
		"/\\evil.example":                  "",
		"/\t/evil.example":                 "",
		"/\n/evil.example":                 "",
		"https://evil.example/":            "",
		"javascript:alert(1)":              "",
		"/%2F%2Fevil.example":              "", // decoded, it starts with two slashes
		"/" + string(make([]byte, 2001)):   "",
	} {
		if got := LocalNext(raw); got != want {
			t.Errorf("LocalNext(%q) = %q, want %q", raw, got, want)
		}
	}
}
