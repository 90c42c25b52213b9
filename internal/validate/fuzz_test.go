package validate

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzEmail checks e-mail addresses from forms: no panic, and an address it
// accepts has one @, no spaces or control characters, fits a mail header,
// and is valid UTF-8 without U+FFFD (what broken bytes decode to).
func FuzzEmail(f *testing.F) {
	f.Add("kim@example.com")
	f.Add(" Kim@Example.COM ")
	f.Add("a@b@c")
	f.Add("x@\r\nBcc: y@z")
	f.Add("\xff@example.com")    // broken UTF-8 (issue 14)
	f.Add("\uFFFD@example.com")  // the same, after a JSON body decoded it
	f.Add("Ada@Exa\xc3mple.com") // a cut UTF-8 sequence in the domain
	f.Fuzz(func(t *testing.T, in string) {
		out, msg := Email(in)
		if msg != "" {
			return
		}
		if strings.Count(out, "@") != 1 || strings.ContainsAny(out, " \t\r\n<>,;") || len(out) > 254 {
			t.Fatalf("accepted %q as %q", in, out)
		}
		if !utf8.ValidString(out) || strings.ContainsRune(out, utf8.RuneError) {
			t.Fatalf("accepted %q as %q, which is not clean UTF-8", in, out)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("accepted a control character in %q", out)
			}
		}
	})
}
