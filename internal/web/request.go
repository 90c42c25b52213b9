// Package web holds what a request knows about itself once the platform
// middleware has run: its locale, theme, path, consent and CSRF token. Views
// read it from the context; handlers fill it.
package web

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"time"

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
	// Now is when the request arrived, on the app's clock: what a page
	// says about time (a review's age, the footer's year) reads it.
	Now time.Time
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

// WithQuery appends the request's whole query string to a path: for a
// redirect to another address of the same page (its locale, its canonical
// or legacy path), which must keep everything it was sent. A link to
// another page carries only the tracking parameters: WithTracking.
func (r *Request) WithQuery(path string) string {
	if r.Query == "" {
		return path
	}
	return path + "?" + r.Query
}

// WithTracking appends the request's tracking parameters to a path: what
// navigation and every other link carry on, so an ad's click id reaches
// checkout. Nothing else of the query leaves the page it was sent to: not a
// report link's token, an e-mail address or a result id.
func (r *Request) WithTracking(path string) string {
	if q := TrackingQuery(r.Query); q != "" {
		return path + "?" + q
	}
	return path
}

// SwitchLocaleURL is the link that changes language: the same page with hl
// set, which also stores the choice in the locale cookie. Like any link it
// carries only the tracking parameters: a page opened by a token finds its
// report again through the session, never through the link.
func (r *Request) SwitchLocaleURL(l i18n.Locale) string {
	q := keptQuery(r.Query, "hl")
	if q != "" {
		q += "&"
	}
	return l.Path(r.Path) + "?" + q + "hl=" + url.QueryEscape(l.Spec)
}

// HomePath is the theme's home route in the request's locale, with the
// default pair and the tracking parameters kept: where "Go back home"
// leads.
func (r *Request) HomePath() string {
	p := "/"
	if r.Theme != nil && r.Theme.Name != theme.Home {
		p = "/landing/" + r.Theme.Name + "/" + r.Home.String()
	}
	return r.WithTracking(r.LocalPath(p))
}

// TrackingQuery keeps, of a raw query, the tracking parameters
// (tracking.KeptParams) in the order they came, each once, non-empty and
// at most maxTrackingValue bytes long; everything else is dropped.
func TrackingQuery(raw string) string {
	return keptQuery(raw, "")
}

// TrackingLink strips from a local link's query everything but the
// tracking parameters, whatever built it: the layout's shared links (its
// navigation) pass through here, so none carries a secret on.
func TrackingLink(href string) string {
	path, query, ok := strings.Cut(href, "?")
	if !ok {
		return href
	}
	if q := TrackingQuery(query); q != "" {
		return path + "?" + q
	}
	return path
}

// maxTrackingValue bounds a tracking parameter's value on a link: a click
// id is short, and a long value would only lengthen every URL.
const maxTrackingValue = 200

// keptQuery is TrackingQuery without the parameter skip.
func keptQuery(raw, skip string) string {
	var kept []string
	seen := map[string]bool{}
	for _, pair := range strings.Split(raw, "&") {
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(rawName)
		if err != nil || name == skip || seen[name] || !slices.Contains(tracking.KeptParams, name) {
			continue
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil || value == "" || len(value) > maxTrackingValue {
			continue
		}
		seen[name] = true
		kept = append(kept, url.QueryEscape(name)+"="+url.QueryEscape(value))
	}
	return strings.Join(kept, "&")
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

// Clock is the request's time: Now, or the wall clock for a request state
// built without one (the PDF printer's).
func (r *Request) Clock() time.Time {
	if r == nil || r.Now.IsZero() {
		return time.Now()
	}
	return r.Now
}
