// Package ids makes identifiers: random ones for everything a URL can carry,
// and readable order numbers.
package ids

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/base64"
	"strings"
	"time"
)

var encoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// New returns 128 random bits as 26 lower-case base32 characters: enough
// that an id cannot be guessed, so a link carrying one is a capability.
func New() string {
	b := make([]byte, 16)
	rand.Read(b) //nolint:errcheck // crypto/rand never fails
	return encoding.EncodeToString(b)
}

// Token returns 256 random bits in base64url without padding (43
// characters): the capability a report link carries. Only its hash is
// stored.
func Token() string {
	b := make([]byte, 32)
	rand.Read(b) //nolint:errcheck // crypto/rand never fails
	return base64.RawURLEncoding.EncodeToString(b)
}

// OrderNumber returns a readable order number, e.g. SM261122-K7Q2X9MD: the
// date and 40 random bits. It is shown to people and support, never the only
// key to anything.
func OrderNumber(now time.Time) string {
	b := make([]byte, 5)
	rand.Read(b) //nolint:errcheck // crypto/rand never fails
	return "SM" + now.UTC().Format("060102") + "-" + strings.ToUpper(encoding.EncodeToString(b))
}

// Valid reports whether s looks like an id New made, so malformed ids are
// refused before they reach the database.
func Valid(s string) bool {
	if len(s) != 26 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}
