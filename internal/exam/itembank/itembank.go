// Package itembank reads the item files of a short instrument answered on
// one Likert scale (PHQ-9, K10): one file per locale in items/, each with
// its provenance line, its items and, for a translation, the review of
// each item, and the answer scale with its stem in that locale. It refuses
// a file that does not fit, naming the file and line, so a broken
// translation stops the start instead of reaching a visitor. It is pure:
// it reads the file system it is given.
package itembank

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Spec is what an instrument's files must hold.
type Spec struct {
	// Name is the instrument's package, for messages ("phq9").
	Name string
	// IDs are the item ids in the instrument's order ("phq9-1", ...).
	IDs []string
	// Min and Max bound the answer scale.
	Min, Max int
	// Locales are the tags every instrument ships ("en" first).
	Locales []string
}

// Verdicts of a translated item.
const (
	// VerdictOfficial: the wording of a published official translation.
	VerdictOfficial = "official"
	// VerdictTranslated: Selfmap's translation, reviewed against English.
	VerdictTranslated = "translated"
)

// Scale is the answer scale of one locale.
type Scale struct {
	// Labels names each value, Labels[0] for Spec.Min.
	Labels []string
	// Stem is the instruction the items complete.
	Stem string
}

// Item is one line of a locale's file.
type Item struct {
	ID   string
	Text string
	// English, BackTranslation, Verdict and Note are the review of a
	// translation; empty in English.
	English, BackTranslation, Verdict, Note string
}

// Locale is one locale's file.
type Locale struct {
	Tag string
	// Provenance is the first line: source, terms, and who translated.
	Provenance string
	Items      []Item
	Scale      Scale
}

// Bank is an instrument's items in every locale.
type Bank struct {
	Spec    Spec
	Locales map[string]Locale
	byID    map[string]int
}

// Load reads items/<tag>.tsv (the items) and items/scale.<tag>.tsv (the
// answer scale and its stem) for every locale of spec.
func Load(fsys fs.FS, spec Spec) (*Bank, error) {
	b := &Bank{Spec: spec, Locales: map[string]Locale{}, byID: map[string]int{}}
	for i, id := range spec.IDs {
		b.byID[id] = i
	}
	var en Locale
	for _, tag := range spec.Locales {
		l, err := readLocale(fsys, spec, tag)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Name, err)
		}
		if tag == "en" {
			en = l
		} else if err := reviewed(spec, en, l); err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Name, err)
		}
		b.Locales[tag] = l
	}
	return b, nil
}

// Index returns an item's position.
func (b *Bank) Index(id string) (int, bool) {
	i, ok := b.byID[id]
	return i, ok
}

// Locale returns a locale's file, English when the bank lacks it.
func (b *Bank) Locale(tag string) Locale {
	if l, ok := b.Locales[tag]; ok {
		return l
	}
	return b.Locales["en"]
}

// table is a parsed TSV file: its provenance, its column positions by name,
// and its rows with their line numbers.
type table struct {
	name       string
	provenance string
	cols       map[string]int
	rows       [][]string
	lines      []int
}

func (t table) get(row int, col string) string {
	i, ok := t.cols[col]
	if !ok {
		return ""
	}
	return t.rows[row][i]
}

// readTable reads a TSV file: a "# " provenance line, a line of column names
// (with or without a leading "# "), then rows of exactly that many columns.
// Blank lines and further "#" comments are skipped.
func readTable(fsys fs.FS, name string, required []string) (table, error) {
	t := table{name: name, cols: map[string]int{}}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return t, fmt.Errorf("%s: %w", name, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line, width := 0, 0
	for sc.Scan() {
		line++
		s := strings.TrimSuffix(sc.Text(), "\r")
		switch {
		case line == 1:
			if !strings.HasPrefix(s, "# ") || strings.Contains(s, "\t") {
				return t, fmt.Errorf("%s:1: the first line must be the provenance comment", name)
			}
			t.provenance = strings.TrimSpace(s[2:])
			continue
		case line == 2:
			for i, c := range strings.Split(strings.TrimPrefix(s, "# "), "\t") {
				t.cols[strings.TrimSpace(c)] = i
				width = i + 1
			}
			for _, c := range required {
				if _, ok := t.cols[c]; !ok {
					return t, fmt.Errorf("%s:2: no column %q in the column names", name, c)
				}
			}
			continue
		case strings.TrimSpace(s) == "" || strings.HasPrefix(s, "#"):
			continue
		}
		cols := strings.Split(s, "\t")
		if len(cols) != width {
			return t, fmt.Errorf("%s:%d: %d columns, want %d", name, line, len(cols), width)
		}
		for _, c := range cols {
			if strings.TrimSpace(c) != c {
				return t, fmt.Errorf("%s:%d: a value starts or ends with spaces", name, line)
			}
		}
		t.rows = append(t.rows, cols)
		t.lines = append(t.lines, line)
	}
	if err := sc.Err(); err != nil {
		return t, fmt.Errorf("%s: %w", name, err)
	}
	if line < 2 {
		return t, fmt.Errorf("%s: no column names", name)
	}
	return t, nil
}

func readLocale(fsys fs.FS, spec Spec, tag string) (Locale, error) {
	l := Locale{Tag: tag}
	name := path.Join("items", tag+".tsv")
	required := []string{"id", "text"}
	if tag != "en" {
		required = append(required, "english", "back_translation", "verdict", "note")
	}
	t, err := readTable(fsys, name, required)
	if err != nil {
		return l, err
	}
	l.Provenance = t.provenance
	seen := map[string]int{}
	for r := range t.rows {
		id, text, line := t.get(r, "id"), t.get(r, "text"), t.lines[r]
		if text == "" {
			return l, fmt.Errorf("%s:%d: %s has no text", name, line, id)
		}
		if !slices.Contains(spec.IDs, id) {
			return l, fmt.Errorf("%s:%d: item %s is not one of %s's items", name, line, id, spec.Name)
		}
		if first, dup := seen[id]; dup {
			return l, fmt.Errorf("%s:%d: item %s appears twice (first on line %d)", name, line, id, first)
		}
		seen[id] = line
		l.Items = append(l.Items, Item{ID: id, Text: text, English: t.get(r, "english"), BackTranslation: t.get(r, "back_translation"),
			Verdict: t.get(r, "verdict"), Note: t.get(r, "note")})
	}
	for i, id := range spec.IDs {
		if _, ok := seen[id]; !ok {
			return l, fmt.Errorf("%s: item %s is missing", name, id)
		}
		if l.Items[i].ID != id {
			return l, fmt.Errorf("%s:%d: item %s is out of order (want %s)", name, seen[l.Items[i].ID], l.Items[i].ID, id)
		}
	}
	l.Scale, err = readScale(fsys, spec, tag)
	return l, err
}

func scaleLabels(spec Spec, byValue map[int]string) ([]string, error) {
	labels := make([]string, 0, spec.Max-spec.Min+1)
	for v := spec.Min; v <= spec.Max; v++ {
		l, ok := byValue[v]
		if !ok {
			return nil, fmt.Errorf("the scale has no label for %d", v)
		}
		labels = append(labels, l)
	}
	if len(byValue) != len(labels) {
		return nil, fmt.Errorf("the scale has values outside %d-%d", spec.Min, spec.Max)
	}
	return labels, nil
}

// readScale reads items/scale.<tag>.tsv: one "stem" row and one "answer"
// row per value (key, value, text; a translation adds its review, as the
// items do).
func readScale(fsys fs.FS, spec Spec, tag string) (Scale, error) {
	var s Scale
	name := path.Join("items", "scale."+tag+".tsv")
	required := []string{"key", "value", "text"}
	if tag != "en" {
		required = append(required, "english", "back_translation", "verdict", "note")
	}
	t, err := readTable(fsys, name, required)
	if err != nil {
		return s, err
	}
	byValue := map[int]string{}
	stemLine := 0
	for r := range t.rows {
		key, v, text, line := t.get(r, "key"), t.get(r, "value"), t.get(r, "text"), t.lines[r]
		if text == "" {
			return s, fmt.Errorf("%s:%d: no text", name, line)
		}
		if tag != "en" && (t.get(r, "english") == "" || t.get(r, "back_translation") == "" ||
			t.get(r, "verdict") != VerdictOfficial && t.get(r, "verdict") != VerdictTranslated) {
			return s, fmt.Errorf("%s:%d: the review (english, back_translation, verdict) is incomplete", name, line)
		}
		switch key {
		case "stem":
			if stemLine != 0 {
				return s, fmt.Errorf("%s:%d: a second stem (the first is on line %d)", name, line, stemLine)
			}
			s.Stem, stemLine = text, line
		case "answer":
			n, err := strconv.Atoi(v)
			if err != nil {
				return s, fmt.Errorf("%s:%d: value %q is not a number", name, line, v)
			}
			if _, dup := byValue[n]; dup {
				return s, fmt.Errorf("%s:%d: value %d appears twice", name, line, n)
			}
			byValue[n] = text
		default:
			return s, fmt.Errorf("%s:%d: key %q, want stem or answer", name, line, key)
		}
	}
	if s.Labels, err = scaleLabels(spec, byValue); err != nil {
		return s, fmt.Errorf("%s: %w", name, err)
	}
	if s.Stem == "" {
		return s, fmt.Errorf("%s: no stem row", name)
	}
	return s, nil
}

// reviewed checks a translation against English: each item reviewed
// against the English text, with a back-translation and a verdict, and no
// two items or labels worded alike.
func reviewed(spec Spec, en, l Locale) error {
	name := path.Join("items", l.Tag+".tsv")
	texts := map[string]string{}
	for i, it := range l.Items {
		switch {
		case it.English != en.Items[i].Text:
			return fmt.Errorf("%s: item %s was reviewed against %q, the English is %q", name, it.ID, it.English, en.Items[i].Text)
		case it.BackTranslation == "":
			return fmt.Errorf("%s: item %s has no back-translation", name, it.ID)
		case it.Verdict != VerdictOfficial && it.Verdict != VerdictTranslated:
			return fmt.Errorf("%s: item %s has verdict %q, want %s or %s", name, it.ID, it.Verdict, VerdictOfficial, VerdictTranslated)
		case texts[it.Text] != "":
			return fmt.Errorf("%s: items %s and %s have the same text", name, texts[it.Text], it.ID)
		}
		texts[it.Text] = it.ID
	}
	seen := map[string]bool{}
	for _, label := range l.Scale.Labels {
		if seen[label] {
			return fmt.Errorf("%s: the scale label %q appears twice", name, label)
		}
		seen[label] = true
	}
	return nil
}
