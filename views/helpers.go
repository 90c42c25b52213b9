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
	// StartDownload, when set, sends the browser to that file at once (the
	// page itself stays on screen, so it must say the file is ready).
	StartDownload string
	// Image is an absolute URL of the page's social card (og:image).
	Image string
	// Path is the page's canonical path in the default locale when the
	// request path alone does not name it (an article chosen by ?id=).
	Path string
	// JSONLD is the page's structured data (schema.org), if any.
	JSONLD any
}

// canonicalPath is the path, in the default locale, that canonical and
// alternate links name.
func canonicalPath(ctx context.Context, m Meta) string {
	if m.Path != "" {
		return m.Path
	}
	return req(ctx).Path
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

// navItems are the header's links. Screens that are not built yet (the user
// centre) join when they answer; a link to a 404 would be worse than none.
// "Log in" is the same for everyone, so cached public pages stay shared: a
// signed-in visitor who follows it lands on the profile.
func navItems(ctx context.Context) []NavItem {
	r := req(ctx)
	pair := r.Home.String()
	account := NavItem{Label: t(ctx, "account.nav_login"), Href: r.LocalPath("/user/login")}
	if r.SignedIn {
		account = NavItem{Label: t(ctx, "usercenter.title"), Href: r.LocalPath("/userCenter/home")}
	}
	return []NavItem{
		{Label: t(ctx, "nav.home"), Href: r.LocalPath("/")},
		{Label: t(ctx, "nav.types"), Href: r.LocalPath("/types/" + pair)},
		{Label: t(ctx, "nav.tests"), Href: r.LocalPath("/tests/" + pair)},
		{Label: t(ctx, "footer.help"), Href: r.LocalPath("/help/" + pair)},
		account,
		{Label: t(ctx, "links.start"), Href: r.WithTracking(r.LocalPath("/answer/question/" + pair)), CTA: true},
	}
}

// footerLink is one link of a footer column.
type footerLink struct {
	Label, Href string
}

// footerColumn is a titled group of footer links.
type footerColumn struct {
	Title string
	Links []footerLink
	// CookieSettings adds the button that reopens the cookie choices.
	CookieSettings bool
}

func footerColumns(ctx context.Context) []footerColumn {
	r := req(ctx)
	pair := r.Home.String()
	return []footerColumn{
		{Title: t(ctx, "links.explore"), Links: []footerLink{
			{t(ctx, "nav.types"), r.LocalPath("/types/" + pair)},
			{t(ctx, "nav.tests"), r.LocalPath("/tests/" + pair)},
			{t(ctx, "links.start"), r.LocalPath("/answer/question/" + pair)},
		}},
		{Title: t(ctx, "links.support"), Links: []footerLink{
			{t(ctx, "footer.help"), r.LocalPath("/help/" + pair)},
			{t(ctx, "links.contact"), r.LocalPath("/support/" + pair)},
			{t(ctx, "retrieve.title"), r.LocalPath("/report/retrieve/" + pair)},
		}},
		{Title: t(ctx, "links.legal"), Links: []footerLink{
			{t(ctx, "links.privacy"), r.LocalPath("/legal/privacy/" + pair)},
			{t(ctx, "links.terms"), r.LocalPath("/legal/terms/" + pair)},
			{t(ctx, "links.subscription_terms"), r.LocalPath("/legal/subscription-terms/" + pair)},
			{t(ctx, "links.cookies"), r.LocalPath("/legal/cookies/" + pair)},
		}, CookieSettings: true},
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

// labelSep is what joins a label to its text in the page's language: a
// full-width colon in Chinese and Japanese, a no-break space before the
// colon in French.
func labelSep(ctx context.Context) string {
	switch req(ctx).Locale.Tag {
	case "zh-CN", "zh-HK", "ja":
		return "："
	case "fr":
		return "\u00a0: "
	}
	return ": "
}
