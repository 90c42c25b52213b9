package i18n_test

import (
	"testing"
	"time"

	"selfmap/internal/i18n"
	"selfmap/locales"
)

// Every locale writes a day as its readers do, the first of a month too.
func TestLongDayInEveryLocale(t *testing.T) {
	c, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2026, 12, 1, 23, 30, 0, 0, time.UTC)
	want := map[string][2]string{
		"en":    {"1 December 2026", "24 December 2026"},
		"zh-CN": {"2026年12月1日", "2026年12月24日"},
		"zh-HK": {"2026年12月1日", "2026年12月24日"},
		"fr":    {"1er décembre 2026", "24 décembre 2026"},
		"es":    {"1 de diciembre de 2026", "24 de diciembre de 2026"},
		"ja":    {"2026年12月1日", "2026年12月24日"},
		"de":    {"1. Dezember 2026", "24. Dezember 2026"},
		"pt":    {"1º de dezembro de 2026", "24 de dezembro de 2026"},
		"ko":    {"2026년 12월 1일", "2026년 12월 24일"},
	}
	if len(want) != len(i18n.Locales) {
		t.Fatalf("the test names %d locales, the product has %d", len(want), len(i18n.Locales))
	}
	for _, l := range i18n.Locales {
		tr := c.Translator(l)
		if got := tr.LongDay(first); got != want[l.Tag][0] {
			t.Errorf("%s: first of the month %q, want %q", l.Tag, got, want[l.Tag][0])
		}
		if got := tr.LongDayOf("2026-12-24"); got != want[l.Tag][1] {
			t.Errorf("%s: %q, want %q", l.Tag, got, want[l.Tag][1])
		}
	}
	en := c.Translator(i18n.Default)
	// The day is UTC's: 00:30 in Tokyo on the 25th is still the 24th.
	if got := en.LongDay(time.Date(2026, 12, 25, 0, 30, 0, 0, time.FixedZone("JST", 9*3600))); got != "24 December 2026" {
		t.Errorf("a time in another zone: %q", got)
	}
	// Every month has its name.
	for m := time.January; m <= time.December; m++ {
		if got := en.LongDay(time.Date(2027, m, 15, 0, 0, 0, 0, time.UTC)); got != "15 "+m.String()+" 2027" {
			t.Errorf("month %d: %q", m, got)
		}
	}
	for _, bad := range []string{"", "24/12/2026", "2026-13-01", "2026-12-24T10:00:00Z"} {
		if got := en.LongDayOf(bad); got != "" {
			t.Errorf("LongDayOf(%q) = %q, want empty", bad, got)
		}
	}
	if got := en.LongDay(time.Time{}); got != "" {
		t.Errorf("the zero time: %q", got)
	}
}
