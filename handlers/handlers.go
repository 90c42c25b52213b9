package handlers

import (
	"net"
	"time"

	"github.com/labstack/echo/v4"
)

// New builds the router with its middleware and every route.
func New(d Deps) (*echo.Echo, error) {
	s, err := newServer(d)
	if err != nil {
		return nil, err
	}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	e.IPExtractor = echo.ExtractIPDirect()
	if len(d.Config.TrustedProxies) > 0 {
		e.IPExtractor = echo.ExtractIPFromXFFHeader(trustRanges(d.Config.TrustedProxies)...)
	}
	e.Server.ReadHeaderTimeout = 5 * time.Second
	e.Server.ReadTimeout = 15 * time.Second
	e.Server.WriteTimeout = 30 * time.Second
	e.Server.IdleTimeout = 90 * time.Second
	e.Server.MaxHeaderBytes = 32 << 10
	s.middleware(e)
	l := s.routeLimits()
	s.siteRoutes(e, l)
	s.apiRoutes(e, l)
	s.webhookRoutes(e)
	return e, nil
}

func trustRanges(nets []*net.IPNet) []echo.TrustOption {
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustPrivateNet(false), echo.TrustLinkLocal(false)}
	for _, n := range nets {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return opts
}
