package phq9

import (
	"strings"
	"testing"
)

// The shipped files load in every locale: nine items in order, four
// labelled answers and a stem that keeps the two-week time frame.
func TestBankLoadsEveryLocale(t *testing.T) {
	b, err := LoadBank()
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range Locales {
		l, ok := b.Locales[tag]
		if !ok {
			t.Fatalf("%s: missing", tag)
		}
		if len(l.Items) != ItemCount || len(l.Scale.Labels) != ScaleMax-ScaleMin+1 || l.Scale.Stem == "" || l.Provenance == "" {
			t.Errorf("%s: %d items, %d labels, stem %q", tag, len(l.Items), len(l.Scale.Labels), l.Scale.Stem)
		}
		for i, it := range l.Items {
			if it.ID != IDs[i] {
				t.Errorf("%s: item %d is %s", tag, i+1, it.ID)
			}
		}
	}
	en := b.Locales["en"]
	if en.Scale.Labels[0] != "Not at all" || en.Scale.Labels[3] != "Nearly every day" || !strings.Contains(en.Scale.Stem, "2 weeks") {
		t.Errorf("English scale %q, stem %q", en.Scale.Labels, en.Scale.Stem)
	}
	if !strings.Contains(en.Items[CrisisItem].Text, "better off dead") {
		t.Errorf("item 9 reads %q", en.Items[CrisisItem].Text)
	}
}
