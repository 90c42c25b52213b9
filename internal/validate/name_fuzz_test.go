package validate

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzName checks the name fields of forms (registration, checkout): no
// panic; a name it accepts is valid UTF-8 of 1 to max characters, with
// single spaces, no markup or control characters, and is accepted again as
// itself.
func FuzzName(f *testing.F) {
	f.Add("  Kim   Lee ", 50)
	f.Add("<script>", 50)
	f.Add("a\x00b\x1bc", 10)
	f.Add("\xff\xfe", 5)
	f.Add(strings.Repeat("名", 51), 50)
	f.Fuzz(func(t *testing.T, in string, max int) {
		max = 1 + (max%200+200)%200
		out, msg := Name(in, max)
		if msg != "" {
			if out != "" {
				t.Fatalf("refused %q but returned %q", in, out)
			}
			return
		}
		if out == "" || !utf8.ValidString(out) || utf8.RuneCountInString(out) > max || out != strings.Join(strings.Fields(out), " ") ||
			strings.ContainsAny(out, "<>{}") || strings.ContainsFunc(out, unicode.IsControl) {
			t.Fatalf("accepted %q as %q", in, out)
		}
		if again, msg := Name(out, max); msg != "" || again != out {
			t.Fatalf("%q accepted, then %q (%s)", out, again, msg)
		}
	})
}
