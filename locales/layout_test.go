package locales

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"selfmap/internal/i18n"
)

// The layout rule, so that a key is found from its id alone and a file's
// name says what it holds:
//
//   - a message whose id is "<prefix>.<rest>" (prefix: the text before the
//     first dot, which is the TOML file's top-level table) lives in
//     <prefix>.<tag>.toml, and that file holds nothing else;
//   - a message whose id has no dot (a top-level key, or a top-level plural
//     table) lives in <tag>.toml; there is none today, so no such file exists;
//   - every locale has the same files as English, the source: a file of a
//     locale without its English file (or the reverse) is an error.
//
// That every key of English exists in every locale is checked once, by
// internal/i18n's TestEveryLocaleHasEveryKey over the whole catalog; with the
// rule above it follows that the key sits in the locale's file of its prefix.

// homeOf is the file where a message id of a locale belongs.
func homeOf(id, tag string) string {
	prefix, _, dotted := strings.Cut(id, ".")
	if !dotted {
		return tag + ".toml"
	}
	return prefix + "." + tag + ".toml"
}

// splitName reads <prefix>.<tag>.toml or <tag>.toml; ok is false for any
// other name or a tag that is not one of tags.
func splitName(name string, tags []string) (prefix, tag string, ok bool) {
	base, isTOML := strings.CutSuffix(name, ".toml")
	if !isTOML {
		return "", "", false
	}
	if i := strings.LastIndex(base, "."); i >= 0 {
		prefix, tag = base[:i], base[i+1:]
	} else {
		tag = base
	}
	if prefix == "" && base != tag || strings.Contains(prefix, ".") || !slices.Contains(tags, tag) {
		return "", "", false
	}
	return prefix, tag, true
}

// messageIDs parses one message file as the catalog does and lists its ids.
func messageIDs(fsys fs.FS, name, tag string) ([]string, error) {
	buf, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	bundle := goi18n.NewBundle(language.English)
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	mf, err := bundle.ParseMessageFileBytes(buf, tag+".toml")
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(mf.Messages))
	for _, m := range mf.Messages {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// layoutProblems lists, one sentence each, every message file of fsys that
// breaks the layout rule for tags (the first one is the source locale).
func layoutProblems(fsys fs.FS, tags []string) ([]string, error) {
	names, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return nil, fmt.Errorf("locales: list message files: %w", err)
	}
	var problems []string
	files := map[string]map[string]bool{} // tag -> prefix -> present
	for _, name := range names {
		prefix, tag, ok := splitName(name, tags)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: the name is not <prefix>.<tag>.toml or <tag>.toml for a locale %v", name, tags))
			continue
		}
		if files[tag] == nil {
			files[tag] = map[string]bool{}
		}
		files[tag][prefix] = true
		ids, err := messageIDs(fsys, name, tag)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		if len(ids) == 0 {
			problems = append(problems, fmt.Sprintf("%s: holds no messages; remove it", name))
		}
		slices.Sort(ids)
		for _, id := range ids {
			if home := homeOf(id, tag); home != name {
				problems = append(problems, fmt.Sprintf("%s: key %q belongs in %s", name, id, home))
			}
		}
	}
	return append(problems, missingFiles(files, tags)...), nil
}

// missingFiles compares every locale's files with the source locale's.
func missingFiles(files map[string]map[string]bool, tags []string) []string {
	source := tags[0]
	var problems []string
	for _, tag := range tags[1:] {
		for prefix := range files[source] {
			if !files[tag][prefix] {
				problems = append(problems, fmt.Sprintf("%s exists but %s does not", fileName(prefix, source), fileName(prefix, tag)))
			}
		}
		for prefix := range files[tag] {
			if !files[source][prefix] {
				problems = append(problems, fmt.Sprintf("%s exists but %s, its source, does not", fileName(prefix, tag), fileName(prefix, source)))
			}
		}
	}
	slices.Sort(problems)
	return problems
}

// fileName is the message file of a prefix ("" for ids without a dot).
func fileName(prefix, tag string) string {
	if prefix == "" {
		return tag + ".toml"
	}
	return prefix + "." + tag + ".toml"
}

// localeTags lists the nine locales' tags, English first.
func localeTags() []string {
	tags := make([]string, 0, len(i18n.Locales))
	for _, l := range i18n.Locales {
		tags = append(tags, l.Tag)
	}
	return tags
}

// Every message sits in the file named by its key's prefix, and every locale
// has the same files as English.
func TestMessageFilesAreNamedByKeyPrefix(t *testing.T) {
	problems, err := layoutProblems(Files, localeTags())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	names, _ := fs.Glob(Files, "*.toml")
	t.Logf("%d message files of %d locales checked", len(names), len(i18n.Locales))
}

// The check finds each kind of misplacement it is for, naming the key and
// the file.
func TestLayoutProblemsAreFound(t *testing.T) {
	files := fstest.MapFS{
		"nav.en.toml":    {Data: []byte("[nav]\nhome = \"Home\"\n")},
		"nav.fr.toml":    {Data: []byte("[nav]\nhome = \"Accueil\"\n\n[footer]\nhelp = \"Aide\"\n")},
		"footer.en.toml": {Data: []byte("[footer]\nhelp = \"Help\"\n\n[footer.count]\none = \"{{.Count}} test\"\nother = \"{{.Count}} tests\"\n")},
		"quiz.fr.toml":   {Data: []byte("[quiz]\ntitle = \"Test\"\n")},
		"en.toml":        {Data: []byte("title = \"Selfmap\"\n")},
		"fr.toml":        {Data: []byte("[nav]\nmenu = \"Menu\"\n")},
		"empty.en.toml":  {Data: []byte("# nothing yet\n")},
		"empty.fr.toml":  {Data: []byte("# rien\n")},
		"nav.xx.toml":    {Data: []byte("[nav]\nhome = \"?\"\n")},
		"a.b.en.toml":    {Data: []byte("[a]\nb = \"?\"\n")},
	}
	problems, err := layoutProblems(files, []string{"en", "fr"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(problems, "\n")
	for _, want := range []string{
		`nav.fr.toml: key "footer.help" belongs in footer.fr.toml`,
		`fr.toml: key "nav.menu" belongs in nav.fr.toml`,
		`footer.en.toml exists but footer.fr.toml does not`,
		`quiz.fr.toml exists but quiz.en.toml, its source, does not`,
		`empty.en.toml: holds no messages`,
		`nav.xx.toml: the name is not`,
		`a.b.en.toml: the name is not`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the check misses %q; it reported:\n%s", want, got)
		}
	}
	for _, fine := range []string{`"nav.home"`, `"footer.count"`, `"title"`, "en.toml exists but fr.toml"} {
		if strings.Contains(got, fine) {
			t.Errorf("the check wrongly reports %s:\n%s", fine, got)
		}
	}
}
