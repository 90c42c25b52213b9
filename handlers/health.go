package handlers

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// healthz answers 200 when the database answers, 503 otherwise.
func (s *Server) healthz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	c.Response().Header().Set("Cache-Control", "no-store")
	if err := s.Store.Ping(ctx); err != nil {
		s.Logger.ErrorContext(ctx, "healthz: database", "err", err)
		return c.String(http.StatusServiceUnavailable, "database unavailable\n")
	}
	return c.String(http.StatusOK, "ok\n")
}

// metrics serves the Prometheus registry.
func (s *Server) metrics() echo.HandlerFunc {
	return echo.WrapHandler(promhttp.HandlerFor(s.Metrics, promhttp.HandlerOpts{}))
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
