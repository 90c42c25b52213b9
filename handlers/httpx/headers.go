package httpx

import (
	"crypto/rand"
	"encoding/base64"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"selfmap/internal/tracking"
	"selfmap/internal/web"
)

// securityHeaders sets a strict Content-Security-Policy with a nonce that is
// new on every response, and the other protective headers.
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		nonce := newNonce()
		h := c.Response().Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy(nonce))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self)")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		if !s.Config.Dev() {
			h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
		}
		r := c.Request()
		c.SetRequest(r.WithContext(templ.WithNonce(r.Context(), nonce)))
		return next(c)
	}
}

// contentSecurityPolicy is the policy of a response: our own origin and
// the response's nonce, plus the origins of what the page loads from
// elsewhere: Stripe's Payment Element, and the third-party scripts the
// visitor consented to (internal/tracking). No other page loads anything
// from another origin.
func contentSecurityPolicy(nonce string, extra ...tracking.Origins) string {
	script, frame, connect, img := []string{"'self'", "'nonce-" + nonce + "'"}, []string{}, []string{"'self'"}, []string{"'self'", "data:"}
	for _, o := range extra {
		script, frame, connect, img = append(script, o.Script...), append(frame, o.Frame...), append(connect, o.Connect...), append(img, o.Img...)
	}
	if len(frame) == 0 {
		frame = []string{"'none'"}
	}
	return "default-src 'self'; script-src " + strings.Join(script, " ") + "; style-src 'self' 'nonce-" + nonce + "'; " +
		"img-src " + strings.Join(img, " ") + "; font-src 'self'; connect-src " + strings.Join(connect, " ") + "; frame-src " + strings.Join(frame, " ") +
		"; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
}

// SetPolicy writes the response's policy: the page's planned third-party
// scripts, and more (Stripe) where the page needs it.
func SetPolicy(c echo.Context, more ...tracking.Origins) {
	ctx := c.Request().Context()
	extra := more
	if st, ok := web.Lookup(ctx); ok && len(st.Tracking) > 0 {
		extra = append(extra, st.Tracking.Origins())
	}
	c.Response().Header().Set("Content-Security-Policy", contentSecurityPolicy(templ.GetNonce(ctx), extra...))
}

// Private keeps a page's third-party scripts off, whatever the visitor
// consented to: a report (its link's token is in the URL, its text is
// personal), its PDF, the retrieval page.
func Private(c echo.Context) {
	if st, ok := web.Lookup(c.Request().Context()); ok && len(st.Tracking) > 0 {
		st.Tracking = nil
		SetPolicy(c)
	}
}

// AllowStripe widens this response's policy for Stripe's Payment Element,
// and lets Stripe's frames use the Payment Request API (wallets).
func AllowStripe(c echo.Context) {
	SetPolicy(c, stripeOrigins)
	c.Response().Header().Set("Permissions-Policy", `camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")`)
}

func newNonce() string {
	b := make([]byte, 16)
	rand.Read(b) //nolint:errcheck // crypto/rand never fails
	return base64.RawStdEncoding.EncodeToString(b)
}
