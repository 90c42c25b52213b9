package locales

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// glossaryFile is docs/glossary.md: per locale, a section "## <tag>: ..."
// with a ```forbidden block of "regexp<TAB>what to write instead" lines.
const glossaryFile = "../docs/glossary.md"

// forbidden is one form a locale's text must not contain.
type forbidden struct {
	re      *regexp.Regexp
	instead string
	line    int
}

// readGlossary parses the forbidden blocks of the glossary, by locale tag.
func readGlossary(t *testing.T) map[string][]forbidden {
	t.Helper()
	f, err := os.Open(glossaryFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]forbidden{}
	heading := regexp.MustCompile(`^## ([A-Za-z-]+): `)
	locale, inBlock, n := "", false, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case heading.MatchString(line):
			locale = heading.FindStringSubmatch(line)[1]
		case line == "```forbidden":
			if locale == "" {
				t.Fatalf("%s:%d: a forbidden block outside a locale's section", glossaryFile, n)
			}
			inBlock = true
		case inBlock && line == "```":
			inBlock = false
		case inBlock:
			pattern, instead, ok := strings.Cut(line, "\t")
			if !ok || instead == "" {
				t.Fatalf("%s:%d: want a regular expression, a tab and what to write instead: %q", glossaryFile, n, line)
			}
			re, err := regexp.Compile(pattern)
			if err != nil {
				t.Fatalf("%s:%d: %v", glossaryFile, n, err)
			}
			out[locale] = append(out[locale], forbidden{re, instead, n})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// text is one string a visitor reads, and where it comes from.
type text struct {
	where, value string
}

// templateAction and htmlTag are removed before matching: a placeholder's
// name ({{.Email}}) or a tag's attribute is code, not wording.
var (
	templateAction = regexp.MustCompile(`\{\{[^}]*\}\}`)
	htmlTag        = regexp.MustCompile(`<[^>]*>`)
)

// tomlTexts reads every string value of a TOML file, with its key path.
func tomlTexts(t *testing.T, path string) []text {
	t.Helper()
	var doc map[string]any
	if _, err := toml.DecodeFile(path, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []text
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case string:
			out = append(out, text{path + ": " + prefix, htmlTag.ReplaceAllString(templateAction.ReplaceAllString(v, " "), " ")})
		case map[string]any:
			for k, x := range v {
				walk(strings.TrimPrefix(prefix+"."+k, "."), x)
			}
		case []map[string]any:
			for i, x := range v {
				walk(fmt.Sprintf("%s[%d]", prefix, i), x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s[%d]", prefix, i), x)
			}
		}
	}
	walk("", doc)
	return out
}

// itemTexts reads the statement column of a locale's item file.
func itemTexts(t *testing.T, path string) []text {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []text
	for i, line := range strings.Split(string(data), "\n") {
		cols := strings.Split(line, "\t")
		if strings.HasPrefix(line, "#") || len(cols) < 5 {
			continue
		}
		out = append(out, text{fmt.Sprintf("%s:%d", path, i+1), cols[4]})
	}
	return out
}

// localeTexts gathers every user-facing string of a locale: the message
// files, the help, legal and notice texts, and the test statements.
func localeTexts(t *testing.T, tag string) []text {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*." + tag + ".toml", tag + ".toml", "../internal/content/data/*." + tag + ".toml", "../internal/notice/data/*." + tag + ".toml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("%s: only %d files found", tag, len(files))
	}
	sort.Strings(files)
	var out []text
	for _, f := range files {
		out = append(out, tomlTexts(t, f)...)
	}
	return append(out, itemTexts(t, "../internal/exam/ipipneo/items/"+tag+".tsv")...)
}

// Every locale's text follows its glossary: no form the glossary forbids
// appears in a message, a help or legal text, a notice or a test statement.
func TestGlossaryForbiddenForms(t *testing.T) {
	rules := readGlossary(t)
	tags := []string{"en", "zh-CN", "zh-HK", "fr", "es", "ja", "de", "pt", "ko"}
	for _, tag := range tags {
		if len(rules[tag]) == 0 {
			t.Errorf("%s: the glossary has no forbidden forms for %s", glossaryFile, tag)
		}
	}
	checked := 0
	for _, tag := range tags {
		for _, tx := range localeTexts(t, tag) {
			checked++
			for _, f := range rules[tag] {
				if m := f.re.FindString(tx.value); m != "" {
					t.Errorf("%s: %q is forbidden by the %s glossary (%s:%d); write %s", tx.where, m, tag, glossaryFile, f.line, f.instead)
				}
			}
		}
	}
	t.Logf("%d strings of 9 locales checked against the glossary", checked)
}

// The check itself catches what it is for: each locale's rules find the
// known defects the outside review reported.
func TestGlossaryCatchesKnownDefects(t *testing.T) {
	rules := readGlossary(t)
	for tag, bad := range map[string]string{
		"de":    "Ihr Test endet, dann zahlst du den vollen Preis.",
		"zh-CN": "请输入您的邮箱",
		"zh-HK": "請輸入你的郵箱",
		"ja":    "© 2026 Selfmap. All rights reserved.",
		"ko":    "결제가 완료되었습니다.",
		"pt":    "Seu período de teste termina amanhã.",
	} {
		hit := false
		for _, f := range rules[tag] {
			hit = hit || f.re.MatchString(bad)
		}
		if !hit {
			t.Errorf("%s: the glossary lets %q through", tag, bad)
		}
	}
}
