package support

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheck reads contact forms from outside: no panic, and a message it
// accepts is valid UTF-8, within its limits and free of control characters
// but line breaks and tabs.
func FuzzCheck(f *testing.F) {
	f.Add("Kim", "kim@example.com", Topics[0], "Hello, I have a question about my report.")
	f.Add("", "", "", "")
	f.Add("\x00\x01", "a@b.c", "nope", strings.Repeat("é", 3000))
	f.Fuzz(func(t *testing.T, name, email, topic, message string) {
		in, errs := Check(Input{Name: name, Email: email, Topic: topic, Message: message})
		if len(errs) > 0 {
			return
		}
		if !utf8.ValidString(in.Message) || utf8.RuneCountInString(in.Message) > MaxMessage || utf8.RuneCountInString(in.Message) < MinMessage {
			t.Fatalf("accepted message %q", in.Message)
		}
		for _, r := range in.Message + in.Name {
			if r < 0x20 && r != '\n' && r != '\t' {
				t.Fatalf("accepted a control character in %q / %q", in.Name, in.Message)
			}
		}
	})
}
