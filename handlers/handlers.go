// Package handlers is the HTTP layer: the shared server and middleware of
// httpx and the routes of each surface, one folder each: site (screens),
// api (the JSON envelope), webhook (payment providers) and admin (the back
// office). A URL is found by searching the routes.go files.
package handlers

import (
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"selfmap/handlers/admin"
	"selfmap/handlers/api"
	"selfmap/handlers/httpx"
	"selfmap/handlers/site"
	"selfmap/handlers/webhook"
)

// Deps are the services the handlers call, built once by app.
type Deps = httpx.Deps

// MetricsHandler serves the Prometheus registry alone (METRICS_ADDR).
func MetricsHandler(reg *prometheus.Registry) http.Handler { return httpx.MetricsHandler(reg) }

// New builds the router with its middleware and every surface's routes.
func New(d Deps) (*echo.Echo, error) {
	s, err := httpx.NewServer(d)
	if err != nil {
		return nil, err
	}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.HandleError
	e.IPExtractor = echo.ExtractIPDirect()
	if len(d.Config.TrustedProxies) > 0 {
		e.IPExtractor = echo.ExtractIPFromXFFHeader(trustRanges(d.Config.TrustedProxies)...)
	}
	e.Server.ReadHeaderTimeout = 5 * time.Second
	e.Server.ReadTimeout = 15 * time.Second
	e.Server.WriteTimeout = 30 * time.Second
	e.Server.IdleTimeout = 90 * time.Second
	e.Server.MaxHeaderBytes = 32 << 10
	s.Middleware(e)
	l := s.RouteLimits()
	site.Routes(e, s, l)
	api.Routes(e, s, l)
	webhook.Routes(e, s)
	admin.Routes(e, s)
	return e, nil
}

func trustRanges(nets []*net.IPNet) []echo.TrustOption {
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustPrivateNet(false), echo.TrustLinkLocal(false)}
	for _, n := range nets {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return opts
}
