package httpx

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Healthz answers 200 when the database answers, 503 otherwise.
func (s *Server) Healthz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	c.Response().Header().Set("Cache-Control", "no-store")
	if err := s.Ping(ctx); err != nil {
		s.Logger.ErrorContext(ctx, "healthz: database", "err", err)
		return c.String(http.StatusServiceUnavailable, "database unavailable\n")
	}
	return c.String(http.StatusOK, "ok\n")
}

// MetricsHandler serves the Prometheus registry at /metrics and nothing
// else: the private listener's handler (METRICS_ADDR).
func MetricsHandler(reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return mux
}

// PublicMetrics reports whether the public port serves /metrics: in dev,
// where the tests scrape it, and wherever a METRICS_TOKEN guards it. In
// prod without a token the figures of every route, the process and the
// runtime are nobody's business but the scraper's, on METRICS_ADDR.
func (s *Server) PublicMetrics() bool {
	return s.Config.Dev() || s.Config.MetricsToken != ""
}

// metrics serves the Prometheus registry on the public port, to a request
// that bears METRICS_TOKEN when one is set.
func (s *Server) MetricsEndpoint() echo.HandlerFunc {
	h := echo.WrapHandler(promhttp.HandlerFor(s.Metrics, promhttp.HandlerOpts{}))
	if s.Config.MetricsToken == "" {
		return h
	}
	want := sha256.Sum256([]byte(s.Config.MetricsToken))
	return func(c echo.Context) error {
		// Comparing digests keeps the comparison's time independent of
		// the token's length too.
		got := sha256.Sum256([]byte(bearerToken(c.Request())))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			c.Response().Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			c.Response().Header().Set("Cache-Control", "no-store")
			return c.String(http.StatusUnauthorized, "bearer token required\n")
		}
		return h(c)
	}
}

// bearerToken is the token of an Authorization: Bearer header (RFC 6750;
// the scheme's case does not matter), or "".
func bearerToken(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// httpMetrics counts requests and their latency by route pattern, so that
// the label set stays small whatever paths visitors try.
type httpMetrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newHTTPMetrics(reg *prometheus.Registry) (*httpMetrics, error) {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "selfmap_http_requests_total", Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "selfmap_http_request_duration_seconds", Help: "HTTP request latency by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.latency} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *httpMetrics) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		status := c.Response().Status
		if err != nil {
			c.Error(err)
			err = nil
			status = c.Response().Status
		}
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		m.requests.WithLabelValues(route, c.Request().Method, strconv.Itoa(status)).Inc()
		m.latency.WithLabelValues(route).Observe(time.Since(start).Seconds())
		return err
	}
}
