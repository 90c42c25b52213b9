package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
)

// tokenLen is the length of a CSRF secret in bytes.
const tokenLen = 32

// ErrCSRF is returned when a state-changing request lacks a valid token.
var ErrCSRF = errors.New("web: missing or invalid CSRF token")

// NewCSRFSecret returns a fresh secret to keep in the session.
func NewCSRFSecret() []byte {
	b := make([]byte, tokenLen)
	rand.Read(b) //nolint:errcheck // crypto/rand never fails
	return b
}

// MaskCSRF returns the token to render for a secret: a random pad followed by
// the secret XOR the pad, so the bytes on the page differ on every response
// and compression cannot leak the secret (BREACH).
func MaskCSRF(secret []byte) string {
	out := make([]byte, 2*tokenLen)
	rand.Read(out[:tokenLen]) //nolint:errcheck // crypto/rand never fails
	for i := range tokenLen {
		out[tokenLen+i] = secret[i] ^ out[i]
	}
	return base64.RawURLEncoding.EncodeToString(out)
}

// CheckCSRF reports whether a masked token sent by the client unmasks to the
// session's secret.
func CheckCSRF(secret []byte, masked string) bool {
	raw, err := base64.RawURLEncoding.DecodeString(masked)
	if err != nil || len(raw) != 2*tokenLen || len(secret) != tokenLen {
		return false
	}
	unmasked := make([]byte, tokenLen)
	for i := range tokenLen {
		unmasked[i] = raw[i] ^ raw[tokenLen+i]
	}
	return subtle.ConstantTimeCompare(unmasked, secret) == 1
}
