package views

import (
	"context"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"selfmap/internal/content"
	"selfmap/internal/validate"
)

// Crumb is one step of a breadcrumb trail; the last one is the page itself.
type Crumb struct {
	Label, Href string
}

// TypeSummary is one personality type as the list and related links show it.
type TypeSummary struct {
	Code, Title, Summary, Href string
}

// TypeGroup is a family of four types.
type TypeGroup struct {
	Key, Name, Text string
	Types           []TypeSummary
}

// TypesPage is the view model of the personality types list.
type TypesPage struct {
	CSS       string
	Groups    []TypeGroup
	StartHref string
}

// TypeLetter explains one letter of a type code.
type TypeLetter struct {
	Letter, Pole, Other, Domain string
}

// TypeSection is a titled text of a type page.
type TypeSection struct {
	ID, Title, Text string
}

// TypePage is the view model of one personality type's page.
type TypePage struct {
	CSS string
	// Image is the type's social card, for sharing.
	Image       string
	Code, Title string
	Summary     string
	Description string
	Letters     []TypeLetter
	Sections    []TypeSection
	Identities  []TypeSection
	Related     []TypeSummary
	ListHref    string
	StartHref   string
	Crumbs      []Crumb
}

// TestCard is one test of the professional tests page.
type TestCard struct {
	ID                     int
	Name, Summary          string
	Category               string
	Questions, Parts       int
	MinMinutes, MaxMinutes int
	StartHref              string
	// Report names the full report and what it shows, and Price is its
	// price for the visitor's country ("" when none is on sale).
	Report, ReportShows, Price string
}

// TestsPage is the view model of the professional tests page.
type TestsPage struct {
	CSS   string
	Tests []TestCard
	// More says more tests are on the way (only one is offered yet).
	More bool
}

// HelpArticle is an article as the help pages show it.
type HelpArticle struct {
	Slug, Title, Href string
	Blocks            []content.Block
	Plain             string
}

// HelpSection is one section of the help centre.
type HelpSection struct {
	Key, Title, Text string
	Articles         []HelpArticle
}

// HelpPage is the view model of the help centre.
type HelpPage struct {
	CSS         string
	Pair        string
	Sections    []HelpSection
	SupportHref string
}

// HelpDetailPage is the view model of one help article.
type HelpDetailPage struct {
	CSS         string
	Pair        string
	Path        string
	Article     HelpArticle
	Description string
	Section     HelpSection
	Crumbs      []Crumb
	SupportHref string
}

// ContactFormData is the contact form's state: what was typed and what is wrong
// with it, so nothing typed is lost when the form comes back.
type ContactFormData struct {
	Action                      string
	Name, Email, Topic, Message string
	// Errors maps a field name to a message id.
	Errors validate.FieldErrors
	Topics []string
	// MaxName and MaxMessage are the fields' limits, in characters.
	MaxName, MaxMessage int
	PrivacyHref         string
}

// SupportPage is the view model of the contact support page.
type SupportPage struct {
	CSS      string
	Pair     string
	Form     ContactFormData
	Articles []HelpArticle
	HelpHref string
}

// LegalLink is a link to one legal document.
type LegalLink struct {
	Label, Href string
	Current     bool
}

// LegalPage is the view model of a legal document.
type LegalPage struct {
	CSS         string
	Pair        string
	Title       string
	Version     string
	Description string
	Blocks      []content.Block
	Documents   []LegalLink
	Crumbs      []Crumb
}

// localHref resolves a link of a stored text: {p} becomes the page's pair
// and the path gets the request's locale prefix.
func localHref(ctx context.Context, href, pair string) templ.SafeURL {
	return templ.SafeURL(req(ctx).LocalPath(strings.ReplaceAll(href, "{p}", pair)))
}

// headingID is the anchor of the n-th heading of a text.
func headingID(n int) string {
	return "part-" + strconv.Itoa(n+1)
}

// headings lists a text's headings, for a table of contents.
func headings(blocks []content.Block) []string {
	var out []string
	for _, b := range blocks {
		if b.Kind == content.Heading {
			var s strings.Builder
			for _, in := range b.Text {
				s.WriteString(in.Text)
			}
			out = append(out, s.String())
		}
	}
	return out
}

// headingIndex numbers the headings of a text in order: the i-th block's
// heading number, or -1 when it is not a heading.
func headingIndex(blocks []content.Block, i int) int {
	if blocks[i].Kind != content.Heading {
		return -1
	}
	n := 0
	for _, b := range blocks[:i] {
		if b.Kind == content.Heading {
			n++
		}
	}
	return n
}

func hasError(errs validate.FieldErrors, field string) bool { return errs.Has(field) }

// links translates a key of the links table, the names of the site's
// main destinations.
func links(ctx context.Context, key string) string { return t(ctx, "links."+key) }
