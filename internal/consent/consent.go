// Package consent records what a visitor allowed beyond essential cookies.
// Everything optional is denied until the visitor says otherwise.
package consent

import (
	"net/http"
	"strings"
	"time"
)

// CookieName is the cookie that keeps the choice.
const CookieName = "consent"

// State is a visitor's choice; the zero value (undecided, all denied) is what
// a new visitor gets.
type State struct {
	Decided   bool
	Analytics bool
	Marketing bool
}

// Parse reads the cookie value "v1.a1.m0"; anything else is undecided.
func Parse(v string) State {
	parts := strings.Split(v, ".")
	if len(parts) != 3 || parts[0] != "v1" {
		return State{}
	}
	a, okA := flag(parts[1], "a")
	m, okM := flag(parts[2], "m")
	if !okA || !okM {
		return State{}
	}
	return State{Decided: true, Analytics: a, Marketing: m}
}

func flag(s, name string) (bool, bool) {
	switch s {
	case name + "1":
		return true, true
	case name + "0":
		return false, true
	}
	return false, false
}

// String is the cookie value of a decided state.
func (s State) String() string {
	b := func(name string, v bool) string {
		if v {
			return name + "1"
		}
		return name + "0"
	}
	return "v1." + b("a", s.Analytics) + "." + b("m", s.Marketing)
}

// Cookie builds the cookie that stores a choice for a year. It is readable by
// scripts on purpose: it holds no secret and lets pages know the choice.
func (s State) Cookie(secure bool) *http.Cookie {
	return &http.Cookie{
		Name:     CookieName,
		Value:    s.String(),
		Path:     "/",
		MaxAge:   int((365 * 24 * time.Hour).Seconds()),
		Secure:   secure,
		SameSite: http.SameSiteLaxMode,
	}
}
