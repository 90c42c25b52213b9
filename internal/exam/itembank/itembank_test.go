package itembank

import (
	"strings"
	"testing"
	"testing/fstest"
)

var spec = Spec{Name: "two", IDs: []string{"t-1", "t-2"}, Min: 0, Max: 1, Locales: []string{"en", "fr"}}

const (
	enItems = "# Two items, English.\n# id\ttext\nt-1\tFirst\nt-2\tSecond\n"
	enScale = "# Scale, English.\n# key\tvalue\ttext\nstem\t\tHow often?\nanswer\t0\tNever\nanswer\t1\tOften\n"
	frItems = "# Two items, French.\n# id\ttext\tenglish\tback_translation\tverdict\tnote\n" +
		"t-1\tPremier\tFirst\tFirst\ttranslated\t\nt-2\tSecond\tSecond\tSecond\tofficial\t\n"
	frScale = "# Scale, French.\n# key\tvalue\ttext\tenglish\tback_translation\tverdict\tnote\n" +
		"stem\t\tÀ quelle fréquence ?\tHow often?\tHow often?\ttranslated\t\n" +
		"answer\t0\tJamais\tNever\tNever\ttranslated\t\nanswer\t1\tSouvent\tOften\tOften\ttranslated\t\n"
)

func files(change map[string]string) fstest.MapFS {
	fs := fstest.MapFS{}
	for name, data := range map[string]string{"items/en.tsv": enItems, "items/scale.en.tsv": enScale, "items/fr.tsv": frItems, "items/scale.fr.tsv": frScale} {
		fs[name] = &fstest.MapFile{Data: []byte(data)}
	}
	for name, data := range change {
		if data == "" {
			delete(fs, name)
			continue
		}
		fs[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fs
}

func TestLoadReadsItemsAndScale(t *testing.T) {
	b, err := Load(files(nil), spec)
	if err != nil {
		t.Fatal(err)
	}
	fr := b.Locale("fr")
	if fr.Items[0].Text != "Premier" || fr.Scale.Stem != "À quelle fréquence ?" || strings.Join(fr.Scale.Labels, "|") != "Jamais|Souvent" {
		t.Errorf("fr: %+v", fr)
	}
	if b.Locale("ja").Items[1].Text != "Second" {
		t.Error("a locale the bank lacks does not fall back to English")
	}
	if i, ok := b.Index("t-2"); !ok || i != 1 {
		t.Errorf("Index(t-2) = %d, %v", i, ok)
	}
}

// A malformed file stops the load with its name and, where there is one,
// the line.
func TestLoadRefusesMalformedFiles(t *testing.T) {
	cases := []struct {
		name   string
		change map[string]string
		want   string
	}{
		{"no provenance", map[string]string{"items/en.tsv": "# id\ttext\nt-1\tFirst\nt-2\tSecond\n"}, "items/en.tsv:1:"},
		{"missing column", map[string]string{"items/fr.tsv": strings.Replace(frItems, "\tnote", "", 1)}, `items/fr.tsv:2: no column "note"`},
		{"short row", map[string]string{"items/en.tsv": enItems + "t-3\n"}, "items/en.tsv:5: 1 columns, want 2"},
		{"padded value", map[string]string{"items/en.tsv": strings.Replace(enItems, "\tFirst", "\tFirst ", 1)}, "items/en.tsv:3:"},
		{"unknown item", map[string]string{"items/en.tsv": strings.Replace(enItems, "t-2\t", "t-9\t", 1)}, "items/en.tsv:4: item t-9"},
		{"missing item", map[string]string{"items/en.tsv": "# E.\n# id\ttext\nt-1\tFirst\n"}, "item t-2 is missing"},
		{"twice", map[string]string{"items/en.tsv": enItems + "t-1\tAgain\n"}, "items/en.tsv:5: item t-1 appears twice"},
		{"out of order", map[string]string{"items/en.tsv": "# E.\n# id\ttext\nt-2\tSecond\nt-1\tFirst\n"}, "out of order"},
		{"no text", map[string]string{"items/en.tsv": strings.Replace(enItems, "\tFirst", "\t", 1)}, "items/en.tsv:3: t-1 has no text"},
		{"stale review", map[string]string{"items/fr.tsv": strings.Replace(frItems, "\tFirst\tFirst\t", "\tOne\tFirst\t", 1)}, `reviewed against "One"`},
		{"no back-translation", map[string]string{"items/fr.tsv": strings.Replace(frItems, "\tFirst\tFirst\t", "\tFirst\t\t", 1)}, "no back-translation"},
		{"bad verdict", map[string]string{"items/fr.tsv": strings.Replace(frItems, "translated", "ok", 1)}, `verdict "ok"`},
		{"same text twice", map[string]string{"items/fr.tsv": strings.Replace(frItems, "Premier", "Second", 1)}, "same text"},
		{"scale file missing", map[string]string{"items/scale.fr.tsv": ""}, "items/scale.fr.tsv"},
		{"scale label missing", map[string]string{"items/scale.en.tsv": strings.Replace(enScale, "answer\t1\tOften\n", "", 1)}, "items/scale.en.tsv: the scale has no label for 1"},
		{"scale value outside", map[string]string{"items/scale.en.tsv": enScale + "answer\t2\tAlways\n"}, "outside 0-1"},
		{"scale value twice", map[string]string{"items/scale.en.tsv": enScale + "answer\t1\tAlways\n"}, "items/scale.en.tsv:6: value 1 appears twice"},
		{"scale value not a number", map[string]string{"items/scale.en.tsv": enScale + "answer\tx\tAlways\n"}, `items/scale.en.tsv:6: value "x"`},
		{"no stem", map[string]string{"items/scale.en.tsv": strings.Replace(enScale, "stem\t\tHow often?\n", "", 1)}, "no stem row"},
		{"bad key", map[string]string{"items/scale.en.tsv": enScale + "label\t1\tx\n"}, `items/scale.en.tsv:6: key "label"`},
		{"scale unreviewed", map[string]string{"items/scale.fr.tsv": strings.Replace(frScale, "\tNever\tNever\t", "\tNever\t\t", 1)}, "items/scale.fr.tsv:4: the review"},
		{"scale label twice", map[string]string{"items/scale.fr.tsv": strings.Replace(frScale, "Souvent", "Jamais", 1)}, `label "Jamais" appears twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(files(c.change), spec)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "two: ") {
				t.Fatalf("error %v, want one naming %q", err, c.want)
			}
		})
	}
}
