// Package web holds what a request knows about itself once the platform
// middleware has run: its locale, theme, path, consent and CSRF token. Views
// read it from the context; handlers fill it.
package web

import (
	"context"
	"net/url"

	"selfmap/internal/consent"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/islands"
	"selfmap/internal/theme"
	"selfmap/internal/tracking"
)

// Request is the per-request state that pages need.
type Request struct {
	Locale i18n.Locale
	// Path is the request path without its locale prefix.
	Path string
	// Query is the raw query string, kept on links that must carry it.
	Query string
	// BaseURL is the public origin, for canonical and alternate links.
	BaseURL string
	// Theme is the site's look; FromSite is true when the host name chose
	// it, which a page code may then not override.
	Theme    *theme.Theme
	FromSite bool
	// Home is the site's home pair.
	Home exam.Pair
	// CSRF is the masked token to put in forms and API headers.
	CSRF    string
	Consent consent.State
	// SignedIn is true when the session names a user: the navigation then
	// leads to the user centre instead of the log-in page. It is the
	// session's word only; pages behind a log-in check the account itself.
	SignedIn bool
	// Flash is a one-time message carried over a redirect.
	Flash     string
	RequestID string
	// Static holds the URLs of the site-wide assets.
	Static *Static
	// Tracking is what third-party scripts the page loads (nothing before
	// consent); AdEvents are the funnel events it reports to them.
	Tracking tracking.Plan
	AdEvents []tracking.Event
}

// Static is the set of site-wide assets, resolved once at start-up.
type Static struct {
	AppCSS  string
	Islands *islands.Manifest
}

// URL returns the absolute URL of a path of the default locale in locale l.
func (r *Request) URL(l i18n.Locale, path string) string {
	return r.BaseURL + l.Path(path)
}

// LocalPath returns a path of the default locale in the request's locale.
func (r *Request) LocalPath(path string) string {
	return r.Locale.Path(path)
}

// WithQuery appends the request's query string to a path.
func (r *Request) WithQuery(path string) string {
	if r.Query == "" {
		return path
	}
	return path + "?" + r.Query
}

// SwitchLocaleURL is the link that changes language: the same page with hl
// set, which also stores the choice in the locale cookie.
func (r *Request) SwitchLocaleURL(l i18n.Locale) string {
	q, _ := url.ParseQuery(r.Query)
	q.Set("hl", l.Spec)
	return l.Path(r.Path) + "?" + q.Encode()
}

// HomePath is the theme's home route in the request's locale, with the
// default pair and the query kept: where "Go back home" leads.
func (r *Request) HomePath() string {
	p := "/"
	if r.Theme != nil && r.Theme.Name != theme.Home {
		p = "/landing/" + r.Theme.Name + "/" + r.Home.String()
	}
	return r.WithQuery(r.LocalPath(p))
}

type ctxKey struct{}

// With stores r in ctx.
func With(ctx context.Context, r *Request) context.Context {
	return context.WithValue(ctx, ctxKey{}, r)
}

// Lookup returns the request state if the platform middleware stored it.
func Lookup(ctx context.Context) (*Request, bool) {
	r, ok := ctx.Value(ctxKey{}).(*Request)
	return r, ok
}

// From returns the request state stored in ctx; it panics when the platform
// middleware did not run, which is a wiring bug.
func From(ctx context.Context) *Request {
	r, ok := Lookup(ctx)
	if !ok {
		panic("web: no request state in context")
	}
	return r
}
