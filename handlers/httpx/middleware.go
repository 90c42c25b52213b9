package httpx

import (
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"selfmap/internal/i18n"
	"selfmap/internal/ids"
	"selfmap/internal/ratelimit"
	"selfmap/internal/tracking"
	"selfmap/internal/web"
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

func (s *Server) logPanic(c echo.Context, err error, stack []byte) error {
	s.Logger.ErrorContext(c.Request().Context(), "panic",
		"request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err, "stack", string(stack))
	return err
}

// requestLog writes one structured line per request.
func (s *Server) requestLog() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogRequestID: true, LogRemoteIP: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= 500 {
				level = slog.LevelError
			}
			attrs := []slog.Attr{
				slog.String("method", v.Method), slog.String("uri", loggedURI(c.Request().URL)), slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency), slog.String("request_id", v.RequestID), slog.String("ip", v.RemoteIP),
			}
			if logid := c.Request().Header.Get("logid"); logid != "" && len(logid) <= 64 {
				attrs = append(attrs, slog.String("logid", logid))
			}
			s.Logger.LogAttrs(c.Request().Context(), level, "request", attrs...)
			return nil
		},
	})
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

// secretParam reports whether a query parameter's value stays out of the log.
func secretParam(name string) bool {
	name = strings.ToLower(name)
	if slices.Contains(secretNames, name) {
		return true
	}
	return slices.ContainsFunc(secretParts, func(part string) bool { return strings.Contains(name, part) })
}

// loggedURI is a request's path and query as the log keeps them. The raw
// query is read pair by pair, whatever a parser would make of it: an
// escaped name (%74 is t), a ';' separator or a pair that does not decode
// would otherwise carry a secret into the log unread. A pair that does not
// decode is kept without its value.
func loggedURI(u *url.URL) string {
	pairs := strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' })
	redacted := false
	for i, pair := range pairs {
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, nameErr := url.QueryUnescape(rawName)
		value, valueErr := url.QueryUnescape(rawValue)
		if nameErr != nil {
			name = rawName
		}
		if nameErr != nil || valueErr != nil || secretParam(name) {
			value, redacted = "redacted", true
		}
		pairs[i] = url.QueryEscape(name) + "=" + url.QueryEscape(value)
	}
	if !redacted {
		return u.RequestURI()
	}
	return u.EscapedPath() + "?" + strings.Join(pairs, "&")
}

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

// stripeOrigins are what Stripe documents for the Payment Element.
var stripeOrigins = tracking.Origins{
	Script:  []string{"https://js.stripe.com", "https://*.js.stripe.com"},
	Frame:   []string{"https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"},
	Connect: []string{"https://api.stripe.com"},
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

// rateLimit allows each client address a steady rate with a burst, counted
// in this process only: for the generous API read limit, whose check must
// cost nothing, and the write limit on SQLite (one instance); see
// sharedLimit for the security limits.
func rateLimit(perSecond float64, burst int) echo.MiddlewareFunc {
	return limiter(middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
		Rate: rate.Limit(perSecond), Burst: burst, ExpiresIn: 5 * time.Minute,
	}))
}

// Whether a shared limit lets requests through when the database does not
// answer its check.
const (
	failClosed = false
	failOpen   = true
)

// sharedLimit is rateLimit with its buckets in the database, so every
// instance behind the load balancer counts against one limit per client.
// When the check fails, a fail-closed limit answers as any other database
// failure does (logged, the generic server error page or envelope); a
// fail-open one logs and lets the request through.
func (s *Server) sharedLimit(name string, perSecond float64, burst int, open bool) echo.MiddlewareFunc {
	st, err := s.Limits.Store(ratelimit.Limit{Name: name, Rate: perSecond, Burst: burst})
	if err != nil {
		panic(err) // the limits are constants of routes.go
	}
	if open {
		return limiter(openOnError{st, s.Logger})
	}
	return limiter(st)
}

// openOnError admits a request whose limit could not be checked.
type openOnError struct {
	middleware.RateLimiterStore
	logger *slog.Logger
}

func (o openOnError) Allow(identifier string) (bool, error) {
	ok, err := o.RateLimiterStore.Allow(identifier)
	if err != nil {
		o.logger.Error("rate limit not checked; request let through", "err", err)
		return true, nil
	}
	return ok, nil
}

func limiter(store middleware.RateLimiterStore) echo.MiddlewareFunc {
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store:               store,
		IdentifierExtractor: func(c echo.Context) (string, error) { return limitKey(c.RealIP()), nil },
		DenyHandler: func(c echo.Context, _ string, err error) error {
			if err != nil {
				return err
			}
			c.Response().Header().Set("Retry-After", "10")
			return echo.ErrTooManyRequests
		},
		ErrorHandler: func(c echo.Context, _ error) error { return echo.ErrForbidden },
	})
}

// isSafeMethod reports whether a method changes nothing (RFC 9110).
func isSafeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// limitKey is the client a limit counts: its IPv4 address, or the /64 of
// an IPv6 one. A household or phone gets a whole /64, so counting each
// address would give one client a fresh bucket per address it picks.
func limitKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil || a.Is4() || a.Is4In6() {
		return ip
	}
	p, err := a.Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
}

// The database-backed limits plug into echo's rate limiter.
var _ middleware.RateLimiterStore = (*ratelimit.Store)(nil)
