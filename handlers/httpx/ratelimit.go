package httpx

import (
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"selfmap/internal/ratelimit"
)

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
