package views

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/a-h/templ"

	"selfmap/internal/i18n"
)

// LandingNames are the landing pages of /landing/{name}/{p}, each drawn in
// the theme of the same name.
var LandingNames = []string{"founder", "free", "girl", "home", "new", "personal", "psychological", "relax", "roles", "third", "types", "young"}

// LandingPage is the view model of one landing page.
type LandingPage struct {
	// Name picks the landing's copy and sections (one of LandingNames).
	Name string
	// StartHref is where "Start the test" leads.
	StartHref string
	// CSS is the landing stylesheet's URL.
	CSS   string
	Proof Proof
}

// HomePage is the view model of the marketing home page.
type HomePage struct {
	StartHref string
	CSS       string
	Proof     Proof
	// Contact is the contact form, rendered in its own section near the
	// end of the page when set.
	Contact templ.Component
}

// Proof is what the database says about the test, ready to show: nothing in
// it is invented, and every part is left out when it is empty.
type Proof struct {
	Counters Counters
	Notices  []Notice
	Reviews  []Review
}

// Counters are the test counters; a zero count is not shown.
type Counters struct {
	Today, Total int
	// RegionName is the visitor's country, named in the page's language
	// ("" when unknown), and InRegion the tests completed there.
	RegionName string
	InRegion   int
	// Ratings counts accuracy ratings; Accuracy is their mean, or 0 when
	// there are too few to show.
	Ratings  int
	Accuracy float64
	// Demo marks figures that include demo data (selfmap seed).
	Demo bool
}

// Notice is one anonymous activity notice.
type Notice struct {
	// Unlocked is a paid report; otherwise a completed test.
	Unlocked bool
	// CountryName is where it happened, "" when the person gave none.
	CountryName string
	Minutes     int
}

// Review is an approved review or testimonial.
type Review struct {
	Name, TypeCode, Content, Avatar, Location string
	CreatedAt                                 time.Time
}

// typeGroups are the four role groups and their types, in the order the
// landing pages show them.
var typeGroups = []struct {
	Key   string
	Types []string
}{
	{"nt", []string{"INTJ", "INTP", "ENTJ", "ENTP"}},
	{"nf", []string{"INFJ", "INFP", "ENFJ", "ENFP"}},
	{"sj", []string{"ISTJ", "ISFJ", "ESTJ", "ESFJ"}},
	{"sp", []string{"ISTP", "ISFP", "ESTP", "ESFP"}},
}

// hasPoints reports whether a landing has the three-point angle section;
// roles and types show the role groups instead, founder its note.
func hasPoints(name string) bool {
	return name != "roles" && name != "types" && name != "founder"
}

// separators are each locale's digit-group and decimal separators.
var separators = map[string][2]string{
	"de": {".", ","}, "es": {".", ","}, "pt": {".", ","}, "fr": {"\u202f", ","},
}

// formatInt writes n with the locale's digit grouping: 12,345 or 12.345.
func formatInt(ctx context.Context, n int) string {
	s := strconv.Itoa(n)
	group := ","
	if sep, ok := separators[req(ctx).Locale.Tag]; ok {
		group = sep[0]
	}
	if len(s) <= 3 || (req(ctx).Locale.Tag == "es" && len(s) == 4) {
		return s
	}
	var b strings.Builder
	lead := len(s) % 3
	if lead > 0 {
		b.WriteString(s[:lead])
	}
	for i := lead; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteString(group)
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// formatScore writes a mean rating with one decimal: 4.6 or 4,6.
func formatScore(ctx context.Context, v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if sep, ok := separators[req(ctx).Locale.Tag]; ok {
		s = strings.Replace(s, ".", sep[1], 1)
	}
	return s
}

// hasCounters reports whether there is any completed test to count.
func hasCounters(c Counters) bool { return c.Total > 0 }

// noticeText is a notice's sentence.
func noticeText(ctx context.Context, n Notice) string {
	id := "notice.completed"
	if n.Unlocked {
		id = "notice.unlocked"
	}
	if n.CountryName == "" {
		return t(ctx, id)
	}
	return td(ctx, id+"_in", map[string]any{"Country": n.CountryName})
}

// rotationClass names the CSS animation that shows n notices in turn.
func rotationClass(n int) string {
	if n > 6 {
		n = 6
	}
	return "notices rotate-" + strconv.Itoa(n)
}

// reviewAge says how long ago a review was written, coarsely.
func reviewAge(ctx context.Context, at time.Time) string {
	days := int(req(ctx).Clock().Sub(at).Hours() / 24)
	switch {
	case days < 1:
		return t(ctx, "review.today")
	case days < 7:
		return tn(ctx, "review.days", days)
	case days < 30:
		return tn(ctx, "review.weeks", days/7)
	case days < 365:
		return tn(ctx, "review.months", days/30)
	default:
		return tn(ctx, "review.years", days/365)
	}
}

// initial is the first letter of a name, drawn when a review has no avatar.
func initial(name string) string {
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(name))
	if r == utf8.RuneError {
		return "?"
	}
	return strings.ToUpper(string(r))
}

// safeAvatar keeps an avatar URL only when it is a path on this site or an
// https address; anything else is drawn as initials.
func safeAvatar(u string) string {
	if (strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")) || strings.HasPrefix(u, "https://") {
		return u
	}
	return ""
}

// startLabel is the call to action of a landing page.
func startLabel(name string) string {
	if name == "free" {
		return "landing.start_free"
	}
	return "landing.start"
}

// tnd translates a plural message for count with more template data.
func tnd(ctx context.Context, id string, count int, data map[string]any) string {
	return i18n.FromContext(ctx).TN(id, count, data)
}

// faqNumbers are the questions of the home page's FAQ.
var faqNumbers = []string{"1", "2", "3", "4", "5", "6"}

// mindMapNodes are the areas of the home page's mind map, placed around its
// centre at (180, 150).
var mindMapNodes = []struct {
	Key  string
	X, Y int
}{
	{"personality", 180, 40}, {"career", 294, 100}, {"relationships", 294, 200},
	{"growth", 180, 260}, {"emotions", 66, 200}, {"strengths", 66, 100},
}

func itoa(n int) string { return strconv.Itoa(n) }

// organizationLD is the schema.org Organization of the home page.
func organizationLD(ctx context.Context) map[string]any {
	r := req(ctx)
	return map[string]any{
		"@context": "https://schema.org",
		"@type":    "Organization",
		"name":     t(ctx, "meta.site_name"),
		"url":      r.URL(r.Locale, "/"),
		"logo":     r.BaseURL + r.Theme.LogoURL,
	}
}

// faqLD is the schema.org FAQPage of the home page's questions, with the
// very text the page shows.
func faqLD(ctx context.Context) map[string]any {
	qs := make([]map[string]any, 0, len(faqNumbers))
	for _, i := range faqNumbers {
		qs = append(qs, map[string]any{
			"@type": "Question",
			"name":  t(ctx, "homepage.faq.q"+i),
			"acceptedAnswer": map[string]any{
				"@type": "Answer",
				"text":  t(ctx, "homepage.faq.a"+i),
			},
		})
	}
	return map[string]any{"@context": "https://schema.org", "@type": "FAQPage", "mainEntity": qs}
}
