// Package validate checks what visitors type. Each check returns the
// cleaned value or the id of the message that says what is wrong.
package validate

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Email checks an e-mail address: required, at most 254 characters, a bare
// address (no display name) with a dotted domain.
func Email(s string) (string, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "form.email.required"
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s || len(s) > 254 {
		return "", "form.email.invalid"
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	if at < 1 || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", "form.email.invalid"
	}
	return s[:at] + "@" + strings.ToLower(domain), ""
}

// Name checks a required name field of at most max characters.
func Name(s string, max int) (string, string) {
	s = strings.Join(strings.Fields(s), " ")
	switch {
	case s == "":
		return "", "form.required"
	case utf8.RuneCountInString(s) > max:
		return "", "form.too_long"
	case strings.ContainsAny(s, "<>{}") || strings.ContainsFunc(s, unicode.IsControl) || !utf8.ValidString(s):
		// Markup characters, control characters (which would reach mail
		// headers and the outbox) and broken UTF-8 are no part of a name.
		return "", "form.name.invalid"
	}
	return s, ""
}
