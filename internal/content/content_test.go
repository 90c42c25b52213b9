package content_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"selfmap/internal/content"
	"selfmap/internal/i18n"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// Every locale has the articles and documents of English, in the same order
// and sections, with the same versions and the same links: a translation
// that drops a link or an article shows up here.
func TestEveryLocaleHasTheEnglishContent(t *testing.T) {
	all, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	en := all[i18n.Default.Tag]
	if len(en.Articles) < 12 || len(en.Documents) != len(content.Documents) {
		t.Fatalf("English has %d articles and %d documents", len(en.Articles), len(en.Documents))
	}
	sections := map[string]bool{}
	for _, a := range en.Articles {
		sections[a.Section] = true
	}
	for _, s := range content.Sections {
		if !sections[s] {
			t.Errorf("section %s has no English article", s)
		}
	}
	for _, l := range i18n.Locales[1:] {
		loc := all[l.Tag]
		if len(loc.Articles) != len(en.Articles) {
			t.Errorf("%s has %d articles, English %d", l.Tag, len(loc.Articles), len(en.Articles))
			continue
		}
		for i, a := range loc.Articles {
			want := en.Articles[i]
			if a.Slug != want.Slug || a.Section != want.Section {
				t.Errorf("%s article %d is %s/%s, English %s/%s", l.Tag, i, a.Section, a.Slug, want.Section, want.Slug)
			}
			if got, want := hrefs(a.Body), hrefs(want.Body); !slices.Equal(got, want) {
				t.Errorf("%s article %s links to %v, English to %v", l.Tag, a.Slug, got, want)
			}
			if a.Title == want.Title || a.Body == want.Body {
				t.Errorf("%s article %s is still in English", l.Tag, a.Slug)
			}
		}
		if len(loc.Documents) != len(en.Documents) {
			t.Errorf("%s has %d documents, English %d", l.Tag, len(loc.Documents), len(en.Documents))
			continue
		}
		for i, d := range loc.Documents {
			want := en.Documents[i]
			if d.Slug != want.Slug || d.Version != want.Version {
				t.Errorf("%s document %d is %s of %s, English %s of %s", l.Tag, i, d.Slug, d.Version, want.Slug, want.Version)
			}
			if got, want := hrefs(d.Body), hrefs(want.Body); !slices.Equal(got, want) {
				t.Errorf("%s document %s links to %v, English to %v", l.Tag, d.Slug, got, want)
			}
			if d.Body == want.Body {
				t.Errorf("%s document %s is still in English", l.Tag, d.Slug)
			}
			if got, want := len(headingsOf(d.Body)), len(headingsOf(want.Body)); got != want {
				t.Errorf("%s document %s has %d headings, English %d", l.Tag, d.Slug, got, want)
			}
		}
	}
}

// Every link of the stored texts leads to a page that exists.
func TestLinksLeadToPages(t *testing.T) {
	all, err := content.Load()
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, d := range content.Documents {
		docs = append(docs, regexp.QuoteMeta(d.Slug))
	}
	page := regexp.MustCompile(`^/(support|help|cancel/subscription)/\{p\}$|^/legal/(` + strings.Join(docs, "|") + `)/\{p\}$`)
	for _, a := range all["en"].Articles {
		for _, h := range hrefs(a.Body) {
			if !page.MatchString(h) {
				t.Errorf("article %s links to %s, which is no page", a.Slug, h)
			}
		}
	}
	for _, d := range all["en"].Documents {
		for _, h := range hrefs(d.Body) {
			if !page.MatchString(h) {
				t.Errorf("document %s links to %s, which is no page", d.Slug, h)
			}
		}
	}
}

func hrefs(body string) []string {
	var out []string
	for _, b := range content.Parse(body) {
		runs := append([][]content.Inline{b.Text}, b.Items...)
		for _, run := range runs {
			for _, in := range run {
				if in.Href != "" {
					out = append(out, in.Href)
				}
			}
		}
	}
	return out
}

func headingsOf(body string) []content.Block {
	var out []content.Block
	for _, b := range content.Parse(body) {
		if b.Kind == content.Heading {
			out = append(out, b)
		}
	}
	return out
}

func TestParse(t *testing.T) {
	blocks := content.Parse("## Title\nFirst line\nsecond line.\n\n- one [link](/help/{p}) end\n- two\n  continued\n\nLast [bad](javascript:alert(1)) and [far](//evil.example) and [x](/ok).")
	if len(blocks) != 4 {
		t.Fatalf("got %d blocks: %+v", len(blocks), blocks)
	}
	if blocks[0].Kind != content.Heading || blocks[0].Text[0].Text != "Title" {
		t.Errorf("heading: %+v", blocks[0])
	}
	if blocks[1].Kind != content.Paragraph || blocks[1].Text[0].Text != "First line second line." {
		t.Errorf("paragraph: %+v", blocks[1])
	}
	list := blocks[2]
	if list.Kind != content.List || len(list.Items) != 2 {
		t.Fatalf("list: %+v", list)
	}
	if got := list.Items[0]; len(got) != 3 || got[1] != (content.Inline{Text: "link", Href: "/help/{p}"}) || got[2].Text != " end" {
		t.Errorf("list item with a link: %+v", got)
	}
	if got := list.Items[1]; len(got) != 2 || got[1].Text != " continued" {
		t.Errorf("continued item: %+v", got)
	}
	var links []content.Inline
	for _, in := range blocks[3].Text {
		if in.Href != "" {
			links = append(links, in)
		}
	}
	if len(links) != 1 || links[0].Href != "/ok" {
		t.Errorf("only the local link is a link: %+v", blocks[3].Text)
	}
	if content.Validate("a [note] in brackets") != nil || content.Validate("a [broken](link") == nil || content.Validate("[x](http://evil.example)") == nil {
		t.Error("Validate accepts a foreign link or refuses plain brackets")
	}
	if got := content.Plain("## H\nSee [the policy](/legal/privacy/{p}).\n\n- a\n- b"); got != "H\nSee the policy.\n- a\n- b" {
		t.Errorf("Plain = %q", got)
	}
}

func TestSummary(t *testing.T) {
	for in, want := range map[string]string{
		"One. Two.":                 "One.",
		"こんにちは。次の文。":                "こんにちは。",
		"No end":                    "No end",
		"Line one\nLine two.":       "Line one",
		strings.Repeat("word ", 60): strings.TrimSpace(strings.Repeat("word ", 32)) + "…",
	} {
		if got := content.Summary(in, 160); got != want {
			t.Errorf("Summary(%.20q) = %q, want %q", in, got, want)
		}
	}
}

// Sync inserts the shipped content once, leaves it alone when nothing
// changed, never overwrites what the back office edited, and removes a
// built-in row that is no longer shipped.
func TestSync(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
		n, err := content.Sync(ctx, s, now)
		all, _ := content.Load()
		articles, protocols := content.Rows(all, now)
		if err != nil || n != int64(len(articles)+len(protocols)) {
			t.Fatalf("first sync changed %d rows, %v; want %d", n, err, len(articles)+len(protocols))
		}
		if n, err := content.Sync(ctx, s, now.Add(time.Hour)); err != nil || n != 0 {
			t.Fatalf("second sync changed %d rows, %v; want 0", n, err)
		}
		got, err := s.ListHelpArticles(ctx, s.DB, "ja", 1807)
		if err != nil || len(got) != len(all["ja"].Articles) || got[0].Section != content.Sections[0] {
			t.Fatalf("Japanese articles: %d, %v", len(got), err)
		}
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE help_articles SET title = ?, edited_at = ?, source_hash = 'x' WHERE slug = ? AND locale = ?`),
			"Edited", now, "refunds", "en"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`INSERT INTO help_articles (slug, locale, section, title, body, source_hash, updated_at)
			VALUES ('retired', 'en', 'billing', 'Old', 'Old text', 'h', ?)`), now); err != nil {
			t.Fatal(err)
		}
		if n, err := content.Sync(ctx, s, now); err != nil || n != 1 {
			t.Fatalf("third sync changed %d rows, %v; want 1 (the retired article)", n, err)
		}
		if a, err := s.GetHelpArticle(ctx, s.DB, "refunds", "en"); err != nil || a.Title != "Edited" {
			t.Errorf("an edited article was overwritten: %q, %v", a.Title, err)
		}
		if _, err := s.GetHelpArticle(ctx, s.DB, "retired", "en"); err != store.ErrNotFound {
			t.Errorf("a retired built-in article is still there: %v", err)
		}
		p, err := s.GetProtocol(ctx, s.DB, "privacy", "de")
		if err != nil || p.Flag != content.FlagPrivacy || p.Version == "" {
			t.Errorf("German privacy policy: %+v, %v", p, err)
		}
	})
}
