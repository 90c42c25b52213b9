package ipipneo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// referenceDir is where npm installs the pinned English reference
// (package.json); `make test` installs it before the Go tests run.
var referenceDir = filepath.Join("..", "..", "..", "node_modules", "@alheimsins", "b5-johnson-120-ipip-neo-pi-r")

// The English file is the npm package's English items: the same ids in the
// same order, with the same domain, facet, keying and text, and the package
// is the pinned version Reference names.
func TestEnglishMatchesThePinnedReference(t *testing.T) {
	pkg, err := os.ReadFile(filepath.Join(referenceDir, "package.json"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the reference package is not installed (run make test): %v", err)
		}
		t.Skipf("the reference package is not installed (npm ci): %v", err)
	}
	var meta struct{ Name, Version string }
	if err := json.Unmarshal(pkg, &meta); err != nil {
		t.Fatal(err)
	}
	if got := meta.Name + "@" + meta.Version; got != Reference {
		t.Fatalf("node_modules has %s, the items are checked against %s", got, Reference)
	}
	data, err := os.ReadFile(filepath.Join(referenceDir, "data", "en", "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref []struct {
		ID, Text, Keyed, Domain string
		Facet                   int
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	files, err := readAll(itemFiles)
	if err != nil {
		t.Fatal(err)
	}
	en := files["en"].Rows
	if len(en) != len(ref) {
		t.Fatalf("items/en.tsv has %d items, the reference %d", len(en), len(ref))
	}
	for i, r := range ref {
		e := en[i]
		if e.ID != r.ID || e.Keyed != r.Keyed || e.Domain != r.Domain || e.Facet != r.Facet || e.Text != strings.TrimSpace(r.Text) {
			t.Errorf("items/en.tsv:%d = %s %s %s%d %q, the reference %s %s %s%d %q", e.Line, e.ID, e.Keyed, e.Domain, e.Facet, e.Text, r.ID, r.Keyed, r.Domain, r.Facet, r.Text)
		}
	}
}

// Every locale has a file, each matches English one for one and carries its
// review, and each says where it comes from.
func TestEveryLocaleIsReviewed(t *testing.T) {
	files, err := readAll(itemFiles)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for locale, f := range files {
		got = append(got, locale)
		if err := MatchesEnglish(files["en"].Rows, f); err != nil {
			t.Error(err)
		}
		if !strings.Contains(f.Provenance, "IPIP") || strings.Contains(f.Provenance, "PENDING") {
			t.Errorf("items/%s.tsv: provenance %q", locale, f.Provenance)
		}
		if locale == "en" {
			continue
		}
		changed := 0
		for _, r := range f.Rows {
			if r.Verdict == VerdictChanged {
				changed++
			}
		}
		t.Logf("%s: %d of %d items changed in review", locale, changed, len(f.Rows))
	}
	slices.Sort(got)
	if want := []string{"de", "en", "es", "fr", "ja", "ko", "pt", "zh-CN", "zh-HK"}; !slices.Equal(got, want) {
		t.Errorf("locales %v, want %v", got, want)
	}
}

// A file that lost an item, gained one, flipped a key or skipped a review
// stops the start with a message naming the file and line.
func TestBadItemFilesAreRefused(t *testing.T) {
	en, err := itemFiles.ReadFile("items/en.tsv")
	if err != nil {
		t.Fatal(err)
	}
	fr, err := itemFiles.ReadFile("items/fr.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(fr), "\n")
	edit := func(line int, f func(cols []string) []string) string {
		out := slices.Clone(lines)
		cols := strings.Split(strings.TrimSuffix(out[line-1], "\n"), "\t")
		out[line-1] = strings.Join(f(cols), "\t") + "\n"
		return strings.Join(out, "")
	}
	for _, tc := range []struct {
		name, fr, want string
	}{
		{"missing item", strings.Join(append(slices.Clone(lines[:10]), lines[11:]...), ""), "items/fr.tsv: 119 items, want 120"},
		{"extra item", string(fr) + strings.Replace(lines[2], lines[2][:8], "ffffffff", 1), "items/fr.tsv:123: item ffffffff"},
		{"flipped key", edit(5, func(c []string) []string { c[1] = map[string]string{"plus": "minus", "minus": "plus"}[c[1]]; return c }), "items/fr.tsv:5: item " + strings.Split(lines[4], "\t")[0] + " is keyed"},
		{"no back-translation", edit(7, func(c []string) []string { c[6] = ""; return c }), "items/fr.tsv:7: item " + strings.Split(lines[6], "\t")[0] + " has no back-translation"},
		{"changed without saying what", edit(8, func(c []string) []string { c[7], c[8] = "changed", ""; return c }), "items/fr.tsv:8:"},
		{"missing column", edit(9, func(c []string) []string { return c[:8] }), "items/fr.tsv:9: 8 columns, want 9"},
		{"no provenance", strings.Join(lines[1:], ""), "items/fr.tsv:1: the first line must be the provenance"},
	} {
		_, err := loadBank(fstest.MapFS{"items/en.tsv": {Data: en}, "items/fr.tsv": {Data: []byte(tc.fr)}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := loadBank(fstest.MapFS{"items/en.tsv": {Data: en}, "items/fr.tsv": {Data: fr}}); err != nil {
		t.Errorf("the real files: %v", err)
	}
}
