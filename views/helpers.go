// Package views renders pages with templ. Components take typed view models;
// the locale, theme and request state come from the context.
package views

import (
	"context"

	"github.com/a-h/templ"

	"selfmap/internal/i18n"
	"selfmap/internal/web"
)

// t translates a message id in the request's locale.
func t(ctx context.Context, id string) string { return i18n.FromContext(ctx).T(id) }

// td translates a message id with template data.
func td(ctx context.Context, id string, data map[string]any) string {
	return i18n.FromContext(ctx).TD(id, data)
}

func req(ctx context.Context) *web.Request { return web.From(ctx) }

// Meta is what a page puts in its head.
type Meta struct {
	// Title is the page's own title; the site name is appended.
	Title       string
	Description string
	Keywords    string
	// NoIndex keeps error and private pages out of search engines.
	NoIndex bool
	// ExtraCSS is a page's own stylesheet, after the site's and the theme's.
	ExtraCSS string
	// Refresh, when set, sends the browser to RefreshURL after that many
	// seconds: status pages poll and move on without JavaScript.
	Refresh    int
	RefreshURL string
}

func fullTitle(ctx context.Context, m Meta) string {
	site := t(ctx, "meta.site_name")
	if m.Title == "" || m.Title == site {
		return t(ctx, "meta.title")
	}
	return m.Title + " | " + site
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// NavItem is one link of the main navigation.
type NavItem struct {
	Label string
	Href  string
	CTA   bool
}

func navItems(ctx context.Context) []NavItem {
	r := req(ctx)
	pair := r.Home.String()
	return []NavItem{
		{Label: t(ctx, "nav.home"), Href: r.LocalPath("/")},
		{Label: t(ctx, "nav.types"), Href: r.LocalPath("/types/" + pair)},
		{Label: t(ctx, "nav.tests"), Href: r.LocalPath("/tests/" + pair)},
		{Label: t(ctx, "nav.retrieve"), Href: r.LocalPath("/report/retrieve/" + pair)},
		{Label: t(ctx, "nav.shop"), Href: r.LocalPath("/userCenter")},
		{Label: t(ctx, "nav.login"), Href: r.LocalPath("/user/login"), CTA: true},
	}
}

func isCurrent(ctx context.Context, href string) bool {
	r := req(ctx)
	return r.LocalPath(r.Path) == href
}

// islandTrigger marks an element whose click loads an island's module and
// opens it (see loaderJS); the island reads its props from the JSON script
// tag islandData renders.
func islandTrigger(ctx context.Context, name string) templ.Attributes {
	return templ.Attributes{
		"data-island": name,
		"data-src":    req(ctx).Static.Islands.Script(name),
		"data-props":  name + "-props",
		"data-error":  t(ctx, "error.load_failed"),
	}
}

// islandData renders an island's props, its translated messages included,
// as the JSON script tag the island reads.
func islandData(name string, props any) templ.Component {
	return templ.JSONScript(name+"-props", props)
}

// consentProps is what the consent island reads from its JSON script tag.
type consentProps struct {
	Analytics bool              `json:"analytics"`
	Marketing bool              `json:"marketing"`
	CSRF      string            `json:"csrf"`
	Endpoint  string            `json:"endpoint"`
	Messages  map[string]string `json:"messages"`
}

func consentIslandProps(ctx context.Context) consentProps {
	r := req(ctx)
	return consentProps{
		Analytics: r.Consent.Analytics,
		Marketing: r.Consent.Marketing,
		CSRF:      r.CSRF,
		Endpoint:  "/api/consent?hl=" + r.Locale.Spec,
		Messages:  i18n.FromContext(ctx).Messages("consent."),
	}
}

// tn translates a plural message for count, by the locale's CLDR rules.
func tn(ctx context.Context, id string, count int) string {
	return i18n.FromContext(ctx).TN(id, count, nil)
}
