package payment

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Sign signs a webhook payload the way Stripe does: the header value is
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>">". The sandbox
// uses the same scheme, so both providers' deliveries are checked alike.
func Sign(secret string, payload []byte, at time.Time) string {
	t := strconv.FormatInt(at.Unix(), 10)
	return "t=" + t + ",v1=" + mac(secret, t, payload)
}

// Verify checks a signature header against the payload and the time: one
// v1 signature must match, and the timestamp must be within
// SignatureTolerance of now (either way, to bound replays).
func Verify(secret string, payload []byte, header string, now time.Time) error {
	var t string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			t = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	ts, err := strconv.ParseInt(t, 10, 64)
	if err != nil || len(sigs) == 0 {
		return fmt.Errorf("%w: malformed header", ErrBadSignature)
	}
	if age := now.Sub(time.Unix(ts, 0)); age > SignatureTolerance || age < -SignatureTolerance {
		return fmt.Errorf("%w: timestamp outside tolerance", ErrBadSignature)
	}
	want := mac(secret, t, payload)
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			return nil
		}
	}
	return fmt.Errorf("%w: no matching signature", ErrBadSignature)
}

func mac(secret, t string, payload []byte) string {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(t))
	h.Write([]byte("."))
	h.Write(payload)
	return hex.EncodeToString(h.Sum(nil))
}
