package k10

import (
	"strings"
	"testing"
)

// The shipped files load in every locale: ten items in order, five
// labelled answers and a stem that keeps the 30-day time frame.
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
	if en.Scale.Labels[0] != "None of the time" || en.Scale.Labels[4] != "All of the time" || !strings.Contains(en.Scale.Stem, "30 days") {
		t.Errorf("English scale %q, stem %q", en.Scale.Labels, en.Scale.Stem)
	}
}
