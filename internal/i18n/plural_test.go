package i18n_test

import (
	"testing"
	"testing/fstest"

	"selfmap/internal/i18n"
)

// Plural forms follow CLDR, not a hand-made rule: French treats 0 as
// singular, Japanese has one form, English says "1 test" and "0 tests".
func TestPluralsFollowCLDR(t *testing.T) {
	files := fstest.MapFS{}
	for _, l := range i18n.Locales {
		files[l.Tag+".toml"] = &fstest.MapFile{Data: []byte("[n]\ntests.other = \"{{.Count}} x\"\n")}
	}
	files["en.toml"] = &fstest.MapFile{Data: []byte("[n.tests]\none = \"{{.Count}} test\"\nother = \"{{.Count}} tests\"\n")}
	files["fr.toml"] = &fstest.MapFile{Data: []byte("[n.tests]\none = \"{{.Count}} test\"\nmany = \"{{.Count}} de tests\"\nother = \"{{.Count}} tests\"\n")}
	files["ja.toml"] = &fstest.MapFile{Data: []byte("[n.tests]\nother = \"{{.Count}}件のテスト\"\n")}
	// Spanish has a "many" form (exact millions) this message lacks: go-i18n
	// reads it as "other", never as the message id, so a message needs no
	// "many" of its own.
	files["es.toml"] = &fstest.MapFile{Data: []byte("[n.tests]\none = \"{{.Count}} test\"\nother = \"{{.Count}} tests\"\n")}
	c, err := i18n.Load(files)
	if err != nil {
		t.Fatal(err)
	}
	en, _ := i18n.ByTag("en")
	fr, _ := i18n.ByTag("fr")
	ja, _ := i18n.ByTag("ja")
	es, _ := i18n.ByTag("es")
	for _, tc := range []struct {
		loc   i18n.Locale
		count int
		want  string
	}{
		{en, 0, "0 tests"}, {en, 1, "1 test"}, {en, 2, "2 tests"},
		{fr, 0, "0 test"}, {fr, 1, "1 test"}, {fr, 2, "2 tests"}, {fr, 1000000, "1000000 de tests"},
		{ja, 1, "1件のテスト"}, {ja, 5, "5件のテスト"},
		{es, 1, "1 test"}, {es, 1000000, "1000000 tests"},
	} {
		if got := c.Translator(tc.loc).TN("n.tests", tc.count, nil); got != tc.want {
			t.Errorf("%s TN(%d) = %q, want %q", tc.loc.Tag, tc.count, got, tc.want)
		}
	}
}
