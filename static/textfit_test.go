package static_test

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"selfmap/internal/i18n"
	"selfmap/static"
	"selfmap/themes"
)

var (
	cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	// cssRule is a rule without a block inside it: its selector and its
	// declarations.
	cssRule = regexp.MustCompile(`([^{}]+)\{([^{}]*)\}`)
	spaces  = regexp.MustCompile(`\s+`)
)

// rules reads a stylesheet's rules as selector and declarations, with
// comments left out and spaces collapsed.
func rules(t *testing.T, fsys fs.FS, name string) [][2]string {
	t.Helper()
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, m := range cssRule.FindAllStringSubmatch(cssComment.ReplaceAllString(string(b), ""), -1) {
		out = append(out, [2]string{strings.TrimSpace(spaces.ReplaceAllString(m[1], " ")), spaces.ReplaceAllString(m[2], " ")})
	}
	return out
}

// TestLineBreakingPerScript holds the rules that keep words whole: Korean
// breaks between words, Chinese and Japanese under the strict rules, the
// Latin-script languages hyphenate their short boxes (e2e/overflow_test.go
// checks the pages themselves).
func TestLineBreakingPerScript(t *testing.T) {
	app := rules(t, static.CSS, "css/app.css")
	for _, want := range []struct{ selector, declaration string }{
		{":lang(ko)", "word-break: keep-all"},
		{":lang(ja)", "line-break: strict"},
		{":lang(zh)", "line-break: strict"},
		{":lang(de)", "hyphens: auto"},
		{":lang(fr)", "hyphens: auto"},
		{":lang(pt)", "hyphens: auto"},
		{":lang(es)", "hyphens: auto"},
		{":lang(de)", "overflow-wrap: break-word"},
	} {
		found := false
		for _, r := range app {
			if strings.Contains(r[0], want.selector) && strings.Contains(r[1], want.declaration) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("static/css/app.css has no rule for %s with %q", want.selector, want.declaration)
		}
	}
}

// TestNothingBreaksInsideCJKWords fails on a rule that breaks Chinese,
// Japanese or Korean words at any character, in the site's stylesheets and
// the themes'.
func TestNothingBreaksInsideCJKWords(t *testing.T) {
	for _, set := range []struct {
		name string
		fsys fs.FS
	}{{"static", static.CSS}, {"themes", themes.Files}} {
		err := fs.WalkDir(set.fsys, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".css") {
				return err
			}
			for _, r := range rules(t, set.fsys, path) {
				if strings.Contains(r[1], "word-break: break-all") || strings.Contains(r[1], "line-break: anywhere") {
					t.Errorf("%s/%s: %s { %s } breaks words at any character", set.name, path, r[0], strings.TrimSpace(r[1]))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestLocaleTagsAreBCP47: <html lang> is the locale's tag, and the browser
// picks its hyphenation dictionary and line-breaking rules by it.
func TestLocaleTagsAreBCP47(t *testing.T) {
	for _, l := range i18n.Locales {
		tag, err := language.Parse(l.Tag)
		if err != nil || tag.String() != l.Tag {
			t.Errorf("locale %q is not a canonical BCP 47 tag (parsed as %v, %v)", l.Tag, tag, err)
		}
	}
}
