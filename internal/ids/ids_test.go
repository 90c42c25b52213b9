package ids

import (
	"encoding/base64"
	"testing"
)

// A report token carries 256 random bits and is safe in a URL as it is.
func TestToken(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		tok := Token()
		raw, err := base64.RawURLEncoding.DecodeString(tok)
		if err != nil || len(raw) != 32 || len(tok) != 43 {
			t.Fatalf("token %q: %d bytes, %v", tok, len(raw), err)
		}
		if seen[tok] {
			t.Fatalf("token %q repeated", tok)
		}
		seen[tok] = true
	}
}
