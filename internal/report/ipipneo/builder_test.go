package ipipneo

import (
	"context"
	"encoding/json"
	"testing"

	"selfmap/internal/exam"
	neo "selfmap/internal/exam/ipipneo"
	"selfmap/internal/i18n"
	"selfmap/internal/report"
	"selfmap/internal/result"
	"selfmap/locales"
)

// scoredResult scores every statement of exam 1807 answered with value(i).
func scoredResult(t *testing.T, exams *exam.Registry, value func(i int) int) result.Result {
	t.Helper()
	e, _ := exams.Exam(1807)
	answers := make([]int, e.Instrument.ItemCount())
	for i := range answers {
		answers[i] = value(i)
	}
	sc, err := e.Instrument.Score(answers, exam.Profile{Sex: "female", Age: 30})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(sc.Detail)
	if err != nil {
		t.Fatal(err)
	}
	return result.Result{ID: "r1", ExamID: 1807, Scores: string(raw), ResultCode: sc.Code, NormGroup: sc.NormGroup, DurationSeconds: 90}
}

// The free result names the type in the reader's language and reads the
// five dimensions; its headline leads to the type's public page.
func TestFreeResult(t *testing.T) {
	exams, err := exam.LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	catalog, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	inst, _ := exams.Instrument(exam.IPIPNEO120)
	b, err := New(inst, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := scoredResult(t, exams, func(i int) int { return i%5 + 1 })
	l, _ := i18n.ByTag("fr")
	got, err := b.Free(context.Background(), report.Input{Result: r, Locale: l, T: catalog.Translator(l)})
	if err != nil {
		t.Fatal(err)
	}
	f := got.(Free)
	if f.Type != r.ResultCode || f.Title == "" || f.Title == "type."+f.Type[:4]+".title" || len(f.Domains) != 5 || !f.Fast {
		t.Errorf("free result %+v", f)
	}
	for _, d := range f.Domains {
		if d.Meaning == "" || d.Name == "" {
			t.Errorf("dimension %+v unworded", d)
		}
	}
	if h := got.Headline(); h.Code != r.ResultCode || h.TypePage == "" || h.Title != f.Title {
		t.Errorf("headline %+v", h)
	}
	if _, err := b.Free(context.Background(), report.Input{Result: result.Result{ID: "bad", Scores: "{"}, Locale: l, T: catalog.Translator(l)}); err == nil {
		t.Error("unreadable scores built a free result")
	}
}

// The builder words the group a result was scored against with the
// instrument's own norms.
func TestNormsAreTheInstruments(t *testing.T) {
	exams, err := exam.LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	inst, _ := exams.Instrument(exam.IPIPNEO120)
	b, err := New(inst, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := scoredResult(t, exams, func(i int) int { return i%5 + 1 })
	g, ok := b.Norms.NormGroup(r.NormGroup)
	if !ok || g.Sex != neo.Female || g.AgeMin == 0 {
		t.Errorf("norm group %q: %+v %v", r.NormGroup, g, ok)
	}
}

// Numbers are written as each locale writes them.
func TestFigureFormats(t *testing.T) {
	for _, tc := range []struct {
		tag     string
		v       float64
		decimal string
		percent string
	}{
		{"en", 6.25, "6.2", "6.2%"},
		{"fr", 6.3, "6,3", "6,3\u00a0%"},
		{"de", 12, "12,0", "12,0\u00a0%"},
		{"pt", 6.3, "6,3", "6,3%"},
		{"ko", 6.3, "6.3", "6.3%"},
	} {
		if got := formatDecimal(tc.v, tc.tag); got != tc.decimal {
			t.Errorf("formatDecimal(%v, %s) = %q, want %q", tc.v, tc.tag, got, tc.decimal)
		}
		if got := formatPercent(tc.v, tc.tag); got != tc.percent {
			t.Errorf("formatPercent(%v, %s) = %q, want %q", tc.v, tc.tag, got, tc.percent)
		}
	}
}

// The report is prepared for the given name, or in Chinese, Japanese and
// Korean for the full name, family name first (山田 花子 様).
func TestReportNameFollowsTheLocale(t *testing.T) {
	ja, _ := i18n.ByTag("ja")
	en, _ := i18n.ByTag("en")
	for _, c := range []struct {
		l                   i18n.Locale
		given, family, want string
	}{
		{ja, "花子", "山田", "山田 花子"},
		{ja, "花子", "", "花子"},
		{en, "Ada", "Lovelace", "Ada"},
		{en, " Ada ", "", "Ada"},
	} {
		if got := reportName(c.l, c.given, c.family); got != c.want {
			t.Errorf("%s %q %q: %q, want %q", c.l.Tag, c.given, c.family, got, c.want)
		}
	}
}
