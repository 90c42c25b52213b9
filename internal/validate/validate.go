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
	if !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
		// Broken UTF-8 is no address; U+FFFD is what a JSON body's broken
		// bytes decode to, so it is refused too rather than stored.
		return "", "form.email.invalid"
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
	case !NameText(s):
		return "", "form.name.invalid"
	}
	return s, ""
}

// NameText reports whether s may be shown as a person's name or nickname:
// valid UTF-8 (PostgreSQL refuses the rest) without U+FFFD (broken bytes
// decoded), markup characters, control characters (which would reach mail
// headers and the outbox) or the bidirectional embeddings, overrides and
// isolates that make a name read backwards or reorder the text after it.
func NameText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsAny(s, "<>{}\uFFFD") && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || isBidiControl(r)
	})
}

// isBidiControl reports whether r is one of U+202A-U+202E (embeddings and
// overrides) or U+2066-U+2069 (isolates).
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}
