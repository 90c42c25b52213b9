// Package content holds the product's built-in long texts: the help centre
// articles and the legal documents, written per locale in embedded files
// (data/help.<tag>.toml, data/legal.<tag>.toml). They live in the database
// so the back office can edit them and the API can serve them; Sync loads
// the shipped version at every start, so a fresh install has them and an
// edited row is left alone.
package content

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/jmoiron/sqlx"

	"selfmap/internal/i18n"
	"selfmap/internal/store"
)

//go:embed data/*.toml
var files embed.FS

// Sections are the help centre's sections, in display order.
var Sections = []string{"subscription", "billing", "legal", "contact"}

// Document is one kind of legal document: its slug in URLs and API ids, and
// the spec's flag.
type Document struct {
	Slug string
	Flag int
}

// Documents lists the legal documents, in display order.
var Documents = []Document{
	{Slug: "privacy", Flag: 2},
	{Slug: "terms", Flag: 1},
	{Slug: "subscription-terms", Flag: 3},
	{Slug: "cookies", Flag: 4},
}

// Flags of the legal documents, as the protocol API reports them.
const (
	FlagTerms        = 1
	FlagPrivacy      = 2
	FlagSubscription = 3
	FlagCookies      = 4
)

// DocumentBySlug finds a legal document by its slug.
func DocumentBySlug(slug string) (Document, bool) {
	for _, d := range Documents {
		if d.Slug == slug {
			return d, true
		}
	}
	return Document{}, false
}

// Article is a help article as written in a data file.
type Article struct {
	Slug    string `toml:"slug"`
	Section string `toml:"section"`
	Title   string `toml:"title"`
	Body    string `toml:"body"`
}

// Legal is a legal document as written in a data file.
type Legal struct {
	Slug    string `toml:"slug"`
	Version string `toml:"version"`
	Title   string `toml:"title"`
	Body    string `toml:"body"`
}

// Locale is the built-in content of one locale.
type Locale struct {
	Articles  []Article `toml:"article"`
	Documents []Legal   `toml:"document"`
}

// Load reads the built-in content of every locale and checks its shape: known
// sections and documents, no duplicate slug, nothing empty, and well-formed
// bodies.
func Load() (map[string]Locale, error) {
	out := map[string]Locale{}
	for _, l := range i18n.Locales {
		var loc Locale
		for _, part := range []string{"help", "legal"} {
			name := "data/" + part + "." + l.Tag + ".toml"
			buf, err := files.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("content: read %s: %w", name, err)
			}
			if _, err := toml.Decode(string(buf), &loc); err != nil {
				return nil, fmt.Errorf("content: parse %s: %w", name, err)
			}
		}
		if err := check(loc); err != nil {
			return nil, fmt.Errorf("content: %s: %w", l.Tag, err)
		}
		out[l.Tag] = loc
	}
	return out, nil
}

func check(loc Locale) error {
	seen := map[string]bool{}
	for _, a := range loc.Articles {
		if a.Slug == "" || a.Title == "" || a.Body == "" || seen[a.Slug] {
			return fmt.Errorf("article %q is empty or repeated", a.Slug)
		}
		seen[a.Slug] = true
		if sectionIndex(a.Section) < 0 {
			return fmt.Errorf("article %q names unknown section %q", a.Slug, a.Section)
		}
		if err := Validate(a.Body); err != nil {
			return fmt.Errorf("article %q: %w", a.Slug, err)
		}
	}
	for _, d := range loc.Documents {
		if _, ok := DocumentBySlug(d.Slug); !ok || seen["legal:"+d.Slug] {
			return fmt.Errorf("unknown or repeated document %q", d.Slug)
		}
		seen["legal:"+d.Slug] = true
		if d.Title == "" || d.Body == "" {
			return fmt.Errorf("document %q is empty", d.Slug)
		}
		if _, err := time.Parse(time.DateOnly, d.Version); err != nil {
			return fmt.Errorf("document %q: version must be a date: %w", d.Slug, err)
		}
		if err := Validate(d.Body); err != nil {
			return fmt.Errorf("document %q: %w", d.Slug, err)
		}
	}
	return nil
}

func sectionIndex(s string) int {
	for i, name := range Sections {
		if name == s {
			return i
		}
	}
	return -1
}

// Rows turns the built-in content into database rows. An article's sort is
// its section's position, then its place in the file.
func Rows(all map[string]Locale, now time.Time) ([]store.HelpArticle, []store.Protocol) {
	var articles []store.HelpArticle
	var protocols []store.Protocol
	for _, l := range i18n.Locales {
		loc := all[l.Tag]
		for i, a := range loc.Articles {
			sort := sectionIndex(a.Section)*100 + i
			articles = append(articles, store.HelpArticle{
				Slug: a.Slug, Locale: l.Tag, Section: a.Section, Sort: sort, Title: a.Title, Body: a.Body,
				SourceHash: hash(a.Section, strconv.Itoa(sort), a.Title, a.Body), UpdatedAt: now,
			})
		}
		for _, d := range loc.Documents {
			doc, _ := DocumentBySlug(d.Slug)
			protocols = append(protocols, store.Protocol{
				Slug: d.Slug, Locale: l.Tag, Flag: doc.Flag, Title: d.Title, Body: d.Body, Version: d.Version,
				SourceHash: hash(strconv.Itoa(doc.Flag), d.Version, d.Title, d.Body), UpdatedAt: now,
			})
		}
	}
	return articles, protocols
}

func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Sync loads the built-in content into the database (see
// store.SyncBuiltinContent) in one transaction, so readers see the old set
// or the new one, and reports how many rows changed.
func Sync(ctx context.Context, st *store.Store, now time.Time) (int64, error) {
	all, err := Load()
	if err != nil {
		return 0, err
	}
	articles, protocols := Rows(all, now.UTC())
	var changed int64
	err = st.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		changed, err = st.SyncBuiltinContent(ctx, tx, articles, protocols)
		return err
	})
	return changed, err
}
