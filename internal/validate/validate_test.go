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

// Bidirectional embeddings, overrides and isolates are refused in names: a
// name with U+202E reads backwards and reorders what follows it in a mail
// or a list. The marks U+200E and U+200F, which reorder nothing, stay.
func TestNameRefusesBidiControls(t *testing.T) {
	for _, r := range []rune{0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069} {
		in := "Ada" + string(r) + "fdp.exe"
		if _, msg := Name(in, 100); msg != "form.name.invalid" {
			t.Errorf("Name(%q) = %q, want form.name.invalid", in, msg)
		}
		if NameText(in) {
			t.Errorf("NameText(%q) = true", in)
		}
	}
	for _, in := range []string{"Ada\u200eLovelace", "אדה לאבלייס", "李小龙", "Zoë O'Brien"} {
		if _, msg := Name(in, 100); msg != "" {
			t.Errorf("Name(%q) = %q, want it accepted", in, msg)
		}
	}
}

// An address with bytes that are not UTF-8 is refused, and so is U+FFFD,
// which is what such bytes become once a JSON body is decoded: neither is
// stored in place of what was typed.
func TestEmailRefusesBrokenUTF8(t *testing.T) {
	for _, in := range []string{"\xff@example.com", "ad\xc3a@example.com", "\uFFFD@example.com", "ada@exa\uFFFDmple.com", "ad\uFFFDa@example.com"} {
		if out, msg := Email(in); msg != "form.email.invalid" {
			t.Errorf("Email(%q) = %q, %q; want form.email.invalid", in, out, msg)
		}
	}
	if out, msg := Email("zoë@example.com"); msg != "" || out != "zoë@example.com" {
		t.Errorf("a UTF-8 address was refused: %q %q", out, msg)
	}
}
