// Package ipipneo scores the IPIP-NEO-120 (Johnson 2014): 120 public-domain
// IPIP items, five domains of six facets, answered on a 1-5 scale. The items
// are ours as data, one file per locale in items/ (items/README.md): English
// as published, every translation reviewed against the English meaning and
// keying, with the review beside each item. The npm package named by
// Reference stays the English reference that ids, domains, facets and keying
// are checked against (items_test.go). The norms are Johnson's (norms.csv,
// with its source line). The package is pure: no I/O beyond its embedded
// data, no clock.
package ipipneo

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// ItemCount is the number of items of the inventory.
const ItemCount = 120

// Reference names the English item source whose ids, domains, facets and
// keying every locale file must match.
const Reference = "@alheimsins/b5-johnson-120-ipip-neo-pi-r@6.0.13"

// Domains lists the five domains in the inventory's order.
var Domains = []string{"N", "E", "O", "A", "C"}

// Item is one statement with its scoring key, taken from the English data.
type Item struct {
	ID     string
	Domain string
	Facet  int
	// FacetCode names the facet, e.g. "N1".
	FacetCode string
	// Minus marks a reverse-keyed item: an answer a scores 6 - a.
	Minus bool
}

// Bank is the inventory: items in the fixed order of the exam version, and
// their text in every locale.
type Bank struct {
	// Version names the English reference, e.g. "@alheimsins/...@6.0.13".
	Version string
	Items   []Item
	byID    map[string]int
	text    map[string][]string
}

// Verdicts of a reviewed translation.
const (
	VerdictOK      = "ok"
	VerdictChanged = "changed"
)

// Row is one line of a locale file: the item, its statement, and for a
// translation the review (English, back-translation, verdict, change).
type Row struct {
	ID     string
	Keyed  string
	Domain string
	Facet  int
	Text   string
	// English, BackTranslation, Verdict and Change are the review; empty in
	// the English file.
	English         string
	BackTranslation string
	Verdict         string
	Change          string
	// Line is the row's line number in its file, for messages.
	Line int
}

// File is one locale's item file.
type File struct {
	Locale string
	// Provenance is the first line: source, licence, translation and review.
	Provenance string
	Rows       []Row
}

//go:embed items/*.tsv
var itemFiles embed.FS

// header is the second line of a file with 5 (English) or 9 columns.
var header = map[int]string{
	5: "# id\tkeyed\tdomain\tfacet\ttext",
	9: "# id\tkeyed\tdomain\tfacet\ttext\tenglish\tback_translation\tverdict\tchange",
}

// ReadFile parses a locale file: two comment lines (provenance, column
// names), then one item a line. English has 5 columns, a translation 9.
func ReadFile(name string, data []byte, locale string) (File, error) {
	f := File{Locale: locale}
	want := 9
	if locale == "en" {
		want = 5
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if line <= 2 {
			switch {
			case line == 1 && strings.HasPrefix(s, "# ") && !strings.HasPrefix(s, "# id\t"):
				f.Provenance = strings.TrimSpace(s[2:])
			case line == 1:
				return f, fmt.Errorf("%s:1: the first line must be the provenance comment", name)
			case s != header[want]:
				return f, fmt.Errorf("%s:2: the column names must read %q", name, header[want])
			}
			continue
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		cols := strings.Split(s, "\t")
		if len(cols) != want {
			return f, fmt.Errorf("%s:%d: %d columns, want %d", name, line, len(cols), want)
		}
		facet, err := strconv.Atoi(cols[3])
		if err != nil {
			return f, fmt.Errorf("%s:%d: facet %q is not a number", name, line, cols[3])
		}
		r := Row{ID: cols[0], Keyed: cols[1], Domain: cols[2], Facet: facet, Text: strings.TrimSpace(cols[4]), Line: line}
		if want == 9 {
			r.English, r.BackTranslation, r.Verdict, r.Change = cols[5], strings.TrimSpace(cols[6]), cols[7], strings.TrimSpace(cols[8])
		}
		f.Rows = append(f.Rows, r)
	}
	if err := sc.Err(); err != nil {
		return f, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// LoadBank reads the embedded item files. It refuses a locale whose items do
// not match English one for one (id, domain, facet and keying), or whose
// review is incomplete, naming the file and line: a translation that
// silently changed a key would score answers backwards, and an unreviewed
// one may say the opposite of what it scores.
func LoadBank() (*Bank, error) {
	return loadBank(itemFiles)
}

func loadBank(fsys fs.FS) (*Bank, error) {
	files, err := readAll(fsys)
	if err != nil {
		return nil, err
	}
	en, ok := files["en"]
	if !ok {
		return nil, fmt.Errorf("ipipneo: items/en.tsv is missing")
	}
	if len(en.Rows) != ItemCount {
		return nil, fmt.Errorf("ipipneo: items/en.tsv has %d items, want %d", len(en.Rows), ItemCount)
	}
	b := &Bank{Version: Reference, byID: map[string]int{}, text: map[string][]string{}}
	for i, r := range en.Rows {
		if r.Keyed != "plus" && r.Keyed != "minus" || r.Facet < 1 || r.Facet > 6 || !validDomain(r.Domain) || r.Text == "" {
			return nil, fmt.Errorf("ipipneo: items/en.tsv:%d: item %s has a bad key or no text", r.Line, r.ID)
		}
		if _, dup := b.byID[r.ID]; dup {
			return nil, fmt.Errorf("ipipneo: items/en.tsv:%d: duplicate item id %s", r.Line, r.ID)
		}
		b.byID[r.ID] = i
		b.Items = append(b.Items, Item{ID: r.ID, Domain: r.Domain, Facet: r.Facet, FacetCode: fmt.Sprintf("%s%d", r.Domain, r.Facet), Minus: r.Keyed == "minus"})
	}
	for locale, f := range files {
		if err := MatchesEnglish(en.Rows, f); err != nil {
			return nil, fmt.Errorf("ipipneo: %w", err)
		}
		texts := make([]string, ItemCount)
		for _, r := range f.Rows {
			texts[b.byID[r.ID]] = r.Text
		}
		b.text[locale] = texts
	}
	return b, nil
}

func readAll(fsys fs.FS) (map[string]File, error) {
	names, err := fs.Glob(fsys, "items/*.tsv")
	if err != nil {
		return nil, err
	}
	files := map[string]File{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		locale := strings.TrimSuffix(strings.TrimPrefix(name, "items/"), ".tsv")
		f, err := ReadFile(name, data, locale)
		if err != nil {
			return nil, fmt.Errorf("ipipneo: %w", err)
		}
		files[locale] = f
	}
	return files, nil
}

// MatchesEnglish checks that a locale file has the 120 English items, each
// with the same domain, facet and keying and a text, and, for a
// translation, a complete review of each: the English it was checked
// against, a back-translation, a verdict, and what was changed.
func MatchesEnglish(en []Row, f File) error {
	name := "items/" + f.Locale + ".tsv"
	ref := map[string]Row{}
	for _, r := range en {
		ref[r.ID] = r
	}
	seen := map[string]bool{}
	texts := map[string]int{}
	for _, r := range f.Rows {
		e, ok := ref[r.ID]
		switch {
		case !ok:
			return fmt.Errorf("%s:%d: item %s is not in English", name, r.Line, r.ID)
		case seen[r.ID]:
			return fmt.Errorf("%s:%d: item %s appears twice", name, r.Line, r.ID)
		case r.Keyed != e.Keyed || r.Domain != e.Domain || r.Facet != e.Facet:
			return fmt.Errorf("%s:%d: item %s is keyed %s %s%d, English %s %s%d", name, r.Line, r.ID, r.Keyed, r.Domain, r.Facet, e.Keyed, e.Domain, e.Facet)
		case r.Text == "":
			return fmt.Errorf("%s:%d: item %s has no text", name, r.Line, r.ID)
		case texts[r.Text] != 0:
			return fmt.Errorf("%s:%d: item %s has the same text as line %d", name, r.Line, r.ID, texts[r.Text])
		}
		seen[r.ID] = true
		texts[r.Text] = r.Line
		if f.Locale == "en" {
			continue
		}
		switch {
		case r.English != e.Text:
			return fmt.Errorf("%s:%d: item %s was reviewed against %q, the English is %q", name, r.Line, r.ID, r.English, e.Text)
		case r.BackTranslation == "":
			return fmt.Errorf("%s:%d: item %s has no back-translation", name, r.Line, r.ID)
		case r.Verdict != VerdictOK && r.Verdict != VerdictChanged:
			return fmt.Errorf("%s:%d: item %s has verdict %q, want ok or changed", name, r.Line, r.ID, r.Verdict)
		case (r.Verdict == VerdictChanged) != (r.Change != ""):
			return fmt.Errorf("%s:%d: item %s: a changed item says what was changed, and only a changed one", name, r.Line, r.ID)
		}
	}
	if len(f.Rows) != len(en) {
		missing := ""
		for _, r := range en {
			if !seen[r.ID] {
				missing = r.ID
				break
			}
		}
		return fmt.Errorf("%s: %d items, want %d (missing %s)", name, len(f.Rows), len(en), missing)
	}
	return nil
}

func validDomain(d string) bool {
	for _, x := range Domains {
		if d == x {
			return true
		}
	}
	return false
}

// Index returns the position of an item id in the bank.
func (b *Bank) Index(id string) (int, bool) {
	i, ok := b.byID[id]
	return i, ok
}

// Text returns an item's statement in a locale, English when the locale has
// none.
func (b *Bank) Text(locale string, i int) string {
	if t, ok := b.text[locale]; ok {
		return t[i]
	}
	return b.text["en"][i]
}
