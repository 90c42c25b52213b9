package httpx

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"selfmap/internal/i18n"
	"selfmap/internal/ids"
	"selfmap/internal/tracking"
)

// maxBody bounds every request body; larger ones answer 413.
const maxBody = "1M"

// maxAvatarBody bounds an avatar upload, whose picture may be 2 MB.
const maxAvatarBody = "3M"

// isAvatarUpload reports whether a request is an avatar upload, which has
// its own, larger body limit.
func isAvatarUpload(c echo.Context) bool {
	r := c.Request()
	_, p, _ := i18n.SplitPath(r.URL.Path)
	return r.Method == http.MethodPost && p == "/user/avatar"
}

// Middleware installs the platform chain. It runs before routing (Pre) so
// that the locale prefix is stripped before a route is matched, and so that
// every answer, a 404 included, is logged, measured and given its headers.
func (s *Server) Middleware(e *echo.Echo) {
	e.Pre(
		middleware.RecoverWithConfig(middleware.RecoverConfig{DisableErrorHandler: false, DisablePrintStack: true,
			LogErrorFunc: s.logPanic}),
		requestID,
		s.requestLog(),
		s.httpMetrics.middleware,
		s.securityHeaders,
		middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: maxBody, Skipper: isAvatarUpload}),
		middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: maxAvatarBody, Skipper: func(c echo.Context) bool { return !isAvatarUpload(c) }}),
		compress(skipCompression),
		s.requestState,
		s.checkCSRF,
	)
}

// requestID gives every request an id of ours, in the response and the log.
// An id the client sent is replaced: it would let anyone forge the reference
// shown on error pages and in the logs.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := ids.New()
		c.Request().Header.Set(echo.HeaderXRequestID, id)
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		return next(c)
	}
}

func skipCompression(c echo.Context) bool {
	r := c.Request()
	// Images and archives are compressed already; public pages compress
	// themselves, from the page cache (RenderPublic).
	return strings.HasSuffix(r.URL.Path, ".png") || strings.Contains(r.URL.Path, "/report/result-download/") || publicPage(r)
}

// publicPage reports whether a request is for a page RenderPublic serves:
// the home page, the landings and the type pages, in any locale.
func publicPage(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	_, path, _ := i18n.SplitPath(r.URL.Path)
	return path == "/" || strings.HasPrefix(path, "/homepage/") || strings.HasPrefix(path, "/landing/") || strings.HasPrefix(path, "/types/")
}

// secretNames are query parameters whose value opens something or names
// someone: a report or cancel link's token (t), a mailed code, an e-mail
// address. secretParts mark a parameter as secret wherever they appear in
// its name: token, _csrf, a password typed into the wrong form, and the
// client secret Stripe appends when it sends a buyer back from 3-D Secure
// (payment_intent_client_secret). The log keeps that they were there, not
// their value.
var (
	secretNames = []string{"t", "code", "email", "key", "sig", "signature"}
	secretParts = []string{"token", "csrf", "secret", "password", "passwd", "session", "apikey", "api_key"}
)

// stripeOrigins are what Stripe documents for the Payment Element.
var stripeOrigins = tracking.Origins{
	Script:  []string{"https://js.stripe.com", "https://*.js.stripe.com"},
	Frame:   []string{"https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"},
	Connect: []string{"https://api.stripe.com"},
}
