package validate

import (
	"strings"
	"testing"
)

// FuzzEmail checks e-mail addresses from forms: no panic, and an address it
// accepts has one @, no spaces or control characters, and fits a mail
// header.
func FuzzEmail(f *testing.F) {
	f.Add("kim@example.com")
	f.Add(" Kim@Example.COM ")
	f.Add("a@b@c")
	f.Add("x@\r\nBcc: y@z")
	f.Fuzz(func(t *testing.T, in string) {
		out, msg := Email(in)
		if msg != "" {
			return
		}
		if strings.Count(out, "@") != 1 || strings.ContainsAny(out, " \t\r\n<>,;") || len(out) > 254 {
			t.Fatalf("accepted %q as %q", in, out)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("accepted a control character in %q", out)
			}
		}
	})
}
