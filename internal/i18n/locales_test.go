package i18n_test

import (
	"strings"
	"testing"

	"selfmap/internal/i18n"
	"selfmap/locales"
)

// Every key of English exists, non-empty, in every locale, and no locale has
// a key English lacks (it would never be shown).
func TestEveryLocaleHasEveryKey(t *testing.T) {
	c, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	en := map[string]bool{}
	for _, id := range c.IDs(i18n.Default) {
		en[id] = true
	}
	if len(en) < 50 {
		t.Fatalf("English has only %d keys; the file did not load as tables", len(en))
	}
	for _, l := range i18n.Locales[1:] {
		have := map[string]bool{}
		for _, id := range c.IDs(l) {
			have[id] = true
			if !en[id] {
				t.Errorf("%s has %q, which English lacks", l.Tag, id)
			}
		}
		tr := c.Translator(l)
		for id := range en {
			if !have[id] {
				t.Errorf("%s lacks %q", l.Tag, id)
				continue
			}
			if msg := render(tr, id, map[string]any{"Year": "2026", "Path": "/x", "Status": 404, "Code": "XX", "ID": "r1", "Name": "n"}); strings.TrimSpace(msg) == "" || msg == id {
				t.Errorf("%s: %q is empty or does not render", l.Tag, id)
			}
		}
	}
}

// Placeholders survive translation: a message that names {{.Path}} in English
// names it in every locale.
func TestPlaceholdersAreKept(t *testing.T) {
	c, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"Year": "Y-2026", "Path": "/P-path", "Status": 4040, "Code": "C-CODE", "ID": "I-ID", "Name": "N-NAME", "Minutes": 7070, "Percent": 6060, "Types": "T-TYPES", "Current": 3030, "Total": 2020, "Part": 9090,
		"Country": "K-COUNTRY", "Score": "S-SCORE", "Type": "TY-TYPE"}
	en := c.Translator(i18n.Default)
	for _, id := range c.IDs(i18n.Default) {
		want := render(en, id, data)
		for _, v := range []string{"Y-2026", "/P-path", "4040", "C-CODE", "I-ID", "N-NAME", "7070", "6060", "T-TYPES", "3030", "2020", "9090", "K-COUNTRY", "S-SCORE", "TY-TYPE"} {
			if !strings.Contains(want, v) {
				continue
			}
			for _, l := range i18n.Locales[1:] {
				if got := render(c.Translator(l), id, data); !strings.Contains(got, v) {
					t.Errorf("%s %s drops the placeholder value %s: %q", l.Tag, id, v, got)
				}
			}
		}
	}
}

// render renders a message with data, as a plural message when it is one
// (for every plural form the counts 1, 2 and 5 reach).
func render(tr *i18n.Translator, id string, data map[string]any) string {
	if msg := tr.TD(id, data); msg != id {
		return msg
	}
	out := ""
	for _, n := range []int{1, 2, 5} {
		out += tr.TN(id, n, data) + "|"
	}
	return out
}

func TestNegotiationHelpers(t *testing.T) {
	for header, want := range map[string]string{
		"zh-TW,zh;q=0.9": "zh-HK", "zh-HK": "zh-HK", "zh": "zh-CN", "zh-CN": "zh-CN", "pt-PT": "pt", "pt-BR": "pt",
		"ko-KR,ko;q=0.9": "ko", "de-AT": "de", "fr-CA,en;q=0.5": "fr", "ja": "ja", "es-MX": "es", "en-GB": "en",
	} {
		if l, ok := i18n.FromAcceptLanguage(header); !ok || l.Tag != want {
			t.Errorf("Accept-Language %q -> %s (%v), want %s", header, l.Tag, ok, want)
		}
	}
	for _, header := range []string{"", "sv-SE", "!!", "x"} {
		if _, ok := i18n.FromAcceptLanguage(header); ok {
			t.Errorf("Accept-Language %q matched", header)
		}
	}
	for hl, want := range map[string]string{"EN": "en", "cn": "zh-CN", "Hk": "zh-HK", "KR": "ko", "JA": "ja", "PT": "pt"} {
		if l, ok := i18n.BySpec(hl); !ok || l.Tag != want {
			t.Errorf("hl %q -> %s, want %s", hl, l.Tag, want)
		}
	}
	for _, hl := range []string{"", "ZH", "KO", "en-US", "JP"} {
		if _, ok := i18n.BySpec(hl); ok {
			t.Errorf("hl %q accepted", hl)
		}
	}
	for path, want := range map[string][2]string{
		"/": {"en", "/"}, "/fr": {"fr", "/"}, "/fr/": {"fr", "/"}, "/zh-cn/types/x": {"zh-CN", "/types/x"},
		"/french": {"en", "/french"}, "/ko/": {"ko", "/"},
	} {
		l, rest, _ := i18n.SplitPath(path)
		if l.Tag != want[0] || rest != want[1] {
			t.Errorf("SplitPath(%q) = %s %q, want %s %q", path, l.Tag, rest, want[0], want[1])
		}
	}
}
