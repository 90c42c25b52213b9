package screen

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"selfmap/internal/exam/crisis"
	"selfmap/internal/exam/k10"
	"selfmap/internal/exam/phq9"
	"selfmap/internal/i18n"
	"selfmap/internal/report"
	"selfmap/internal/result"
	"selfmap/locales"
)

// kit is a builder of each screen and the message catalog.
type kit struct {
	phq, k10 *Builder
	catalog  *i18n.Catalog
}

func newKit(t *testing.T) kit {
	t.Helper()
	dir, err := crisis.Load()
	if err != nil {
		t.Fatal(err)
	}
	catalog, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	var k kit
	k.catalog = catalog
	for _, s := range []struct {
		spec func() (Spec, error)
		b    **Builder
	}{{PHQ9, &k.phq}, {K10, &k.k10}} {
		sp, err := s.spec()
		if err != nil {
			t.Fatal(err)
		}
		if *s.b, err = New(sp, dir); err != nil {
			t.Fatal(err)
		}
	}
	return k
}

// input is a result with a scored detail (phq9.Result, k10.Result) from
// country, read in locale tag.
func (k kit) input(t *testing.T, tag, country string, detail any) report.Input {
	t.Helper()
	raw, err := json.Marshal(detail)
	if err != nil {
		t.Fatal(err)
	}
	l, ok := i18n.ByTag(tag)
	if !ok {
		t.Fatalf("no locale %s", tag)
	}
	r := result.Result{ID: "r1", Scores: string(raw), Country: sql.NullString{String: country, Valid: country != ""}}
	return report.Input{Result: r, Locale: l, T: k.catalog.Translator(l), Order: "SM1"}
}

func phq(t *testing.T, answers ...int) phq9.Result {
	t.Helper()
	r, err := phq9.Score(answers)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func kes(t *testing.T, answers ...int) k10.Result {
	t.Helper()
	r, err := k10.Score(answers)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func build(t *testing.T, b *Builder, in report.Input) (Free, Report) {
	t.Helper()
	f, err := b.Free(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	r, err := b.Build(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return f.(Free), r.(Report)
}

// Hand-computed answer sets land in the published bands at both edges of
// each: PHQ-9 0-4, 5-9, 10-14, 15-19, 20-27; the report says to see a
// doctor from moderate on, and reflects every statement answered "more
// than half the days" or "nearly every day".
func TestPHQ9Bands(t *testing.T) {
	k := newKit(t)
	cases := []struct {
		answers  []int
		sum      int
		band     string
		name     string
		doctor   bool
		reflects int
	}{
		{[]int{0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, "minimal", "Minimal", false, 0},
		{[]int{1, 1, 1, 1, 0, 0, 0, 0, 0}, 4, "minimal", "Minimal", false, 0},
		{[]int{1, 1, 1, 1, 1, 0, 0, 0, 0}, 5, "mild", "Mild", false, 0},
		{[]int{2, 1, 1, 1, 1, 1, 1, 1, 0}, 9, "mild", "Mild", false, 1},
		{[]int{2, 2, 2, 1, 1, 1, 1, 0, 0}, 10, "moderate", "Moderate", true, 3},
		{[]int{2, 2, 2, 2, 2, 2, 2, 0, 0}, 14, "moderate", "Moderate", true, 7},
		{[]int{3, 2, 2, 2, 2, 2, 2, 0, 0}, 15, "moderately_severe", "Moderately severe", true, 7},
		{[]int{3, 3, 3, 2, 2, 2, 2, 2, 0}, 19, "moderately_severe", "Moderately severe", true, 8},
		{[]int{3, 3, 3, 3, 2, 2, 2, 2, 0}, 20, "severe", "Severe", true, 8},
		{[]int{3, 3, 3, 3, 3, 3, 3, 3, 3}, 27, "severe", "Severe", true, 9},
	}
	for _, c := range cases {
		f, r := build(t, k.phq, k.input(t, "en", "US", phq(t, c.answers...)))
		if f.Sum != c.sum || f.Band != c.band || f.BandName != c.name || f.Max != 27 || f.Min != 0 {
			t.Errorf("%v: free %d %s %q, want %d %s %q", c.answers, f.Sum, f.Band, f.BandName, c.sum, c.band, c.name)
		}
		if !strings.HasPrefix(f.Meaning, "Your answers show") || f.Headline().Title != c.name {
			t.Errorf("%v: meaning %q, headline %+v", c.answers, f.Meaning, f.Headline())
		}
		if r.SeeDoctor != c.doctor || len(r.Items) != c.reflects || r.Detail == "" || strings.HasPrefix(r.Detail, "screen.") {
			t.Errorf("%v: report doctor %v items %d detail %q", c.answers, r.SeeDoctor, len(r.Items), r.Detail)
		}
		current := 0
		for _, b := range f.Bands {
			if b.Current {
				current++
				if b.Key != c.band || c.sum < b.From || c.sum > b.To {
					t.Errorf("%v: current band %+v", c.answers, b)
				}
			}
		}
		if current != 1 || len(f.Bands) != 5 {
			t.Errorf("%v: %d current of %d bands", c.answers, current, len(f.Bands))
		}
	}
}

// Item 9 at 1 with every other item at 0 is a sum of 1, minimal, and still
// shows the crisis lines of the result's country; at 0 it shows none. A
// country without a row gets the international directory, no number.
func TestPHQ9Crisis(t *testing.T) {
	k := newKit(t)
	f, r := build(t, k.phq, k.input(t, "ja", "JP", phq(t, 0, 0, 0, 0, 0, 0, 0, 0, 1)))
	if f.Crisis == nil || r.Crisis == nil {
		t.Fatal("item 9 at 1: no crisis block")
	}
	if f.Sum != 1 || f.Band != "minimal" {
		t.Errorf("item 9 at 1: %d %s", f.Sum, f.Band)
	}
	if l := f.Crisis.Lines; l.Country != "JP" || l.Emergency != "119" || l.Line.Phone != "0120-279-338" || l.Line.Name != "よりそいホットライン" {
		t.Errorf("JP lines: %+v", l)
	}
	if !strings.Contains(f.Crisis.Reason, "自分を傷つけ") {
		t.Errorf("JP reason: %q", f.Crisis.Reason)
	}
	if f, _ := build(t, k.phq, k.input(t, "ja", "JP", phq(t, 3, 3, 3, 3, 3, 3, 3, 3, 0))); f.Crisis != nil {
		t.Errorf("item 9 at 0: crisis block %+v", f.Crisis)
	}
	for _, country := range []string{"", "NZ"} {
		f, _ := build(t, k.phq, k.input(t, "en", country, phq(t, 0, 0, 0, 0, 0, 0, 0, 0, 3)))
		if f.Crisis == nil || !f.Crisis.Lines.International() || f.Crisis.Lines.Emergency != "" || f.Crisis.Lines.WebURL == "" {
			t.Errorf("country %q: %+v", country, f.Crisis)
		}
	}
}

// K10 bands 10-15, 16-21, 22-29, 30-50; the crisis block is the top band's:
// 29 has none, 30 has it.
func TestK10Bands(t *testing.T) {
	k := newKit(t)
	cases := []struct {
		answers []int
		sum     int
		band    string
		crisis  bool
		doctor  bool
	}{
		{[]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 10, "low", false, false},
		{[]int{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}, 15, "low", false, false},
		{[]int{2, 2, 2, 2, 2, 2, 1, 1, 1, 1}, 16, "moderate", false, true},
		{[]int{3, 2, 2, 2, 2, 2, 2, 2, 2, 2}, 21, "moderate", false, true},
		{[]int{3, 3, 2, 2, 2, 2, 2, 2, 2, 2}, 22, "high", false, true},
		{[]int{3, 3, 3, 3, 3, 3, 3, 3, 3, 2}, 29, "high", false, true},
		{[]int{3, 3, 3, 3, 3, 3, 3, 3, 3, 3}, 30, "very_high", true, true},
		{[]int{5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, 50, "very_high", true, true},
	}
	for _, c := range cases {
		f, r := build(t, k.k10, k.input(t, "en", "GB", kes(t, c.answers...)))
		if f.Sum != c.sum || f.Band != c.band || (f.Crisis != nil) != c.crisis || r.SeeDoctor != c.doctor || f.Min != 10 || f.Max != 50 {
			t.Errorf("%v: %d %s crisis %v doctor %v, want %d %s %v %v", c.answers, f.Sum, f.Band, f.Crisis != nil, r.SeeDoctor, c.sum, c.band, c.crisis, c.doctor)
		}
		if c.crisis && (f.Crisis.Lines.Line.Phone != "116 123" || !strings.Contains(f.Crisis.Reason, "very high distress")) {
			t.Errorf("%v: GB crisis %+v", c.answers, f.Crisis)
		}
	}
}

// The report reflects statements in the reader's words and labels, says
// when those words are our translation, and refuses a stored detail whose
// sum or band its answers do not give.
func TestReportWordsAndRefusals(t *testing.T) {
	k := newKit(t)
	_, r := build(t, k.phq, k.input(t, "ja", "JP", phq(t, 0, 3, 0, 0, 0, 0, 0, 0, 0)))
	if len(r.Items) != 1 || r.Items[0].Number != "2" || !strings.Contains(r.Items[0].Text, "落ち込む") || r.Items[0].Answer != "ほとんど毎日" || r.Often != "半分以上" {
		t.Errorf("ja items: %+v often %q", r.Items, r.Often)
	}
	if r.OwnTranslation {
		t.Error("the Japanese PHQ-9 is the official translation")
	}
	if !strings.Contains(r.Credit, "Pfizer") {
		t.Errorf("credit %q", r.Credit)
	}
	if _, r := build(t, k.k10, k.input(t, "ja", "JP", kes(t, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1))); !r.OwnTranslation || len(r.Items) != 1 || r.Items[0].Answer == "" {
		t.Errorf("ja K10: own translation %v, items %+v", r.OwnTranslation, r.Items)
	}
	if _, r := build(t, k.k10, k.input(t, "en", "US", kes(t, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1))); r.OwnTranslation || r.Items[0].Text != "tired out for no good reason?" || r.Items[0].Answer != "Most of the time" {
		t.Errorf("en K10: %v %+v", r.OwnTranslation, r.Items)
	}
	bad := []any{
		phq9.Result{Sum: 12, Band: phq9.Moderate, Answers: []int{0, 0, 0, 0, 0, 0, 0, 0, 0}},
		phq9.Result{Sum: 0, Band: phq9.Severe, Answers: []int{0, 0, 0, 0, 0, 0, 0, 0, 0}},
		phq9.Result{Sum: 0, Band: phq9.Minimal, Answers: []int{0, 0, 0}},
	}
	for _, d := range bad {
		if _, err := k.phq.Free(context.Background(), k.input(t, "en", "US", d)); err == nil {
			t.Errorf("%+v: no error", d)
		}
	}
}
