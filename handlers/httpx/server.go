// Package httpx is what the HTTP surfaces (site, api, webhook, admin)
// share: the server and its dependencies, middleware, request state,
// rendering and error pages. The routes are in each surface's routes.go.
package httpx

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gorilla/sessions"
	"github.com/prometheus/client_golang/prometheus"

	"selfmap/internal/account"
	"selfmap/internal/assets"
	"selfmap/internal/catalogue"
	"selfmap/internal/checkout"
	"selfmap/internal/config"
	"selfmap/internal/content"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/islands"
	"selfmap/internal/mail"
	"selfmap/internal/notice"
	"selfmap/internal/ogimage"
	"selfmap/internal/packs"
	"selfmap/internal/pagecache"
	"selfmap/internal/ratelimit"
	"selfmap/internal/receipt"
	"selfmap/internal/report"
	"selfmap/internal/result"
	"selfmap/internal/retrieve"
	"selfmap/internal/site"
	"selfmap/internal/social"
	"selfmap/internal/subscription"
	"selfmap/internal/support"
	"selfmap/internal/theme"
	"selfmap/internal/typology"
	"selfmap/internal/unsubscribe"
	"selfmap/internal/web"
)

// Deps are the services the handlers call, built once by app.New.
type Deps struct {
	Config   config.Config
	Logger   *slog.Logger
	Catalog  *i18n.Catalog
	Themes   *theme.Set
	Assets   *assets.Assets
	Islands  *islands.Manifest
	Exams    *exam.Registry
	Sites    *site.Directory
	Sessions sessions.Store
	Metrics  *prometheus.Registry
	// Now is the one clock: the same function every service was given.
	Now      func() time.Time
	Results  *result.Service
	Checkout *checkout.Service
	Social   *social.Service
	// Reports opens paid reports to their readers and builds them with
	// their instrument's builder (the report screens, the free result).
	Reports *report.Service
	// PDFs hands out a report's PDF, asking for it when not made yet.
	PDFs    *report.PDFs
	Support *support.Service
	// Retrieval mails a mailbox the links to its paid reports.
	Retrieval *retrieve.Service
	// Unsubscribe mails one-time cancel links and follows them; nil when
	// the payment provider cannot run subscriptions.
	Unsubscribe *unsubscribe.Service
	// Accounts registers, signs in and keeps the profiles of users.
	Accounts *account.Service
	// Receipts reads a member's billing page and receipts, and prints
	// them to PDF.
	Receipts *receipt.Service
	// Subscriptions sells the plans (the subscription screens' reads and
	// actions) and says what a user's plan entitles them to; nil when the
	// payment provider cannot charge a saved card (everyone is a guest).
	Subscriptions *subscription.Service
	// Packs reads the packs of the upsell a result's buyer is offered and
	// has bought (the report shows them).
	Packs *packs.Service
	// Notices lists the user centre's notices and keeps their read state.
	Notices *notice.Service
	// Content reads the help articles and the legal documents.
	Content *content.Service
	// Catalogue reads the products on sale and their prices.
	Catalogue *catalogue.Service
	// Outbox reads the stored e-mails back for /dev/mail.
	Outbox *mail.Outbox
	// Limits makes the rate limits kept in the database, shared by every
	// instance.
	Limits *ratelimit.Limits
	// Ping checks that the database answers (/healthz).
	Ping func(ctx context.Context) error
}

// Server holds the dependencies every handler shares.
type Server struct {
	Deps
	// pages keeps public pages rendered (RenderPublic).
	pages *pagecache.Cache
	// Cards draws the types' social cards (PNG) once, when first asked.
	Cards       func() (ogimage.Cards, error)
	static      *web.Static
	httpMetrics *httpMetrics
	// LandingCSS is the stylesheet of the home and landing pages.
	LandingCSS string
}

// NewServer builds the server every surface shares from the services.
func NewServer(d Deps) (*Server, error) {
	// A minute, as the social proof the pages show is refreshed.
	s := &Server{Deps: d, pages: &pagecache.Cache{TTL: time.Minute, Now: d.Now, Max: 512}}
	s.Cards = sync.OnceValues(func() (ogimage.Cards, error) { return ogimage.Draw(typology.Codes, "16-type personality test") })
	s.static = &web.Static{
		AppCSS:  d.Assets.URL("static/css/app.css"),
		Islands: d.Islands,
	}
	m, err := newHTTPMetrics(d.Metrics)
	if err != nil {
		return nil, fmt.Errorf("handlers: metrics: %w", err)
	}
	s.httpMetrics = m
	s.LandingCSS = d.Assets.URL("static/css/landing.css")
	return s, nil
}
