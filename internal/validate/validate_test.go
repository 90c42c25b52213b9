package validate

import "testing"

func TestEmail(t *testing.T) {
	for in, want := range map[string][2]string{
		"a@example.com":          {"a@example.com", ""},
		"  Ana.B+x@Example.COM ": {"Ana.B+x@example.com", ""},
		"":                       {"", "form.email.required"},
		"   ":                    {"", "form.email.required"},
		"ana":                    {"", "form.email.invalid"},
		"ana@":                   {"", "form.email.invalid"},
		"@example.com":           {"", "form.email.invalid"},
		"ana@localhost":          {"", "form.email.invalid"},
		"ana@example.":           {"", "form.email.invalid"},
		"Ana <ana@example.com>":  {"", "form.email.invalid"},
		"a@b.c\r\nBcc: x@y.z":    {"", "form.email.invalid"},
	} {
		got, msg := Email(in)
		if got != want[0] || msg != want[1] {
			t.Errorf("Email(%q) = %q, %q; want %q, %q", in, got, msg, want[0], want[1])
		}
	}
}

func TestName(t *testing.T) {
	for in, want := range map[string][2]string{
		"  Ana   María ": {"Ana María", ""},
		"":               {"", "form.required"},
		"李小龙":            {"李小龙", ""},
		"<script>":       {"", "form.name.invalid"},
		"abcdefghijk":    {"", "form.too_long"},
	} {
		got, msg := Name(in, 10)
		if got != want[0] || msg != want[1] {
			t.Errorf("Name(%q) = %q, %q; want %q, %q", in, got, msg, want[0], want[1])
		}
	}
}

// A name with a control character is refused: fuzzing found "00\x01000"
// passing into a contact message's name.
func TestNameRefusesControlCharacters(t *testing.T) {
	for _, in := range []string{"00\x01000", "Kim\x7f", "A\u200eB\x02", "\xff\xfe"} {
		if _, msg := Name(in, 100); msg != "form.name.invalid" {
			t.Errorf("Name(%q) = %q, want form.name.invalid", in, msg)
		}
	}
	if out, msg := Name("  Min   Park ", 100); msg != "" || out != "Min Park" {
		t.Errorf("Name = %q %q", out, msg)
	}
}
