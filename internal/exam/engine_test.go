package exam

import (
	"errors"
	"strings"
	"testing"

	"selfmap/internal/apperr"
	"selfmap/internal/i18n"
)

// The question flow of every instrument, in every locale: each item with
// its text, the instrument's own scale (count, labels, end labels), the
// stem, and the first page cut by the exam's page size.
func TestFlowOfEveryInstrument(t *testing.T) {
	r := everyInstrument(t)
	want := map[int]struct {
		items, options, first, parts int
		min                          int
		en                           []string
		stem                         bool
	}{
		1807: {120, 5, 5, 3, 1, []string{"Very inaccurate", "Very accurate"}, false},
		9001: {9, 4, 3, 1, 0, []string{"Not at all", "Nearly every day"}, true},
		9002: {10, 5, 10, 1, 1, []string{"None of the time", "All of the time"}, true},
	}
	for id, w := range want {
		e, ok := r.Exam(id)
		if !ok {
			t.Fatalf("exam %d missing", id)
		}
		for _, l := range i18n.Locales {
			f := e.Flow(l.Tag)
			opts := f.Scale.Options()
			switch {
			case len(f.Questions) != w.items || len(f.FirstPage()) != w.first || f.Parts != w.parts:
				t.Errorf("%d %s: %d items, first page %d, %d parts", id, l.Tag, len(f.Questions), len(f.FirstPage()), f.Parts)
			case len(opts) != w.options || opts[0].Value != w.min || f.Scale.Check() != nil:
				t.Errorf("%d %s: scale %+v", id, l.Tag, f.Scale)
			case w.stem != (f.Scale.Stem != ""):
				t.Errorf("%d %s: stem %q", id, l.Tag, f.Scale.Stem)
			}
			for _, q := range f.Questions {
				if q.Text == "" || q.Kind != Likert {
					t.Errorf("%d %s: item %+v", id, l.Tag, q)
				}
			}
			if l.Tag == "en" && (opts[0].Label != w.en[0] || opts[len(opts)-1].Label != w.en[1]) {
				t.Errorf("%d: English ends %q, %q", id, opts[0].Label, opts[len(opts)-1].Label)
			}
			if l.Tag != "en" && id != 1807 && f.Questions[0].Text == e.Flow("en").Questions[0].Text {
				t.Errorf("%d %s: item 1 is the English text", id, l.Tag)
			}
		}
	}
}

// Each instrument's own range is what a submission may use: PHQ-9 takes 0
// (which no longer reads as "unanswered") and refuses 4; K10 refuses 0.
func TestParseSubmissionUsesEachInstrumentsRange(t *testing.T) {
	r := everyInstrument(t)
	phq, _ := r.Exam(9001)
	k10, _ := r.Exam(9002)
	ipip, _ := r.Exam(1807)
	with := func(e Exam, v int, change func(*SubmissionRequest)) []byte {
		q := answerAll(t, e, func(int) int { return v })
		if change != nil {
			change(&q)
		}
		return body(t, q)
	}
	for _, c := range []struct {
		name string
		body []byte
		id   string
	}{
		{"PHQ-9 all 0", with(phq, 0, nil), ""},
		{"PHQ-9 all 3", with(phq, 3, nil), ""},
		{"PHQ-9 a 4", with(phq, 3, func(q *SubmissionRequest) { q.Answers[8].Value = 4 }), "exam.error.value"},
		{"PHQ-9 a -1", with(phq, 0, func(q *SubmissionRequest) { q.Answers[0].Value = -1 }), "exam.error.value"},
		{"PHQ-9 an item twice at 0", with(phq, 0, func(q *SubmissionRequest) { q.Answers[1].ID = q.Answers[0].ID }), "exam.error.duplicate_item"},
		{"PHQ-9 an item missing", with(phq, 1, func(q *SubmissionRequest) { q.Answers = q.Answers[:8] }), "exam.error.count"},
		{"PHQ-9 with a K10 item", with(phq, 1, func(q *SubmissionRequest) { q.Answers[4].ID = "k10-5" }), "exam.error.unknown_item"},
		{"PHQ-9 with an IPIP item", with(phq, 1, func(q *SubmissionRequest) { q.Answers[4].ID = ipip.Instrument.Questions("en")[0].ID }), "exam.error.unknown_item"},
		{"PHQ-9 answers under K10", with(phq, 1, func(q *SubmissionRequest) { q.ExamID, q.Code, q.Version = 9002, "TKTEN", k10.FullVersion() }), "exam.error.count"},
		{"K10 all 1", with(k10, 1, nil), ""},
		{"K10 all 5", with(k10, 5, nil), ""},
		{"K10 a 0", with(k10, 1, func(q *SubmissionRequest) { q.Answers[3].Value = 0 }), "exam.error.value"},
		{"K10 a 6", with(k10, 5, func(q *SubmissionRequest) { q.Answers[9].Value = 6 }), "exam.error.value"},
		{"K10 with a PHQ-9 item", with(k10, 2, func(q *SubmissionRequest) { q.Answers[9].ID = "phq9-9" }), "exam.error.unknown_item"},
		{"IPIP a 0", with(ipip, 3, func(q *SubmissionRequest) { q.Answers[0].Value = 0 }), "exam.error.value"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := r.ParseSubmission(c.body)
			if c.id == "" {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.Exam.Instrument.Score(s.Answers, Profile{}); err != nil {
					t.Fatalf("accepted but not scored: %v", err)
				}
				return
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Status != 400 || ae.ID != c.id {
				t.Fatalf("error %v, want 400 %s", err, c.id)
			}
		})
	}
}

// A PHQ-9 answer set scores through the registry to its band, with item 9
// raising the crisis flag.
func TestScoreThroughTheRegistry(t *testing.T) {
	r := everyInstrument(t)
	phq, _ := r.Exam(9001)
	s, err := r.ParseSubmission(body(t, answerAll(t, phq, func(i int) int {
		if i == 8 {
			return 1
		}
		return 0
	})))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := s.Exam.Instrument.Score(s.Answers, Profile{})
	if err != nil || sc.Code != "minimal" || sc.ItemsVersion != "phq-9@1" || !strings.Contains(string(body(t, sc.Detail)), `"crisis":true`) {
		t.Fatalf("%+v %v", sc, err)
	}
}

// withScale is an instrument whose scale a test breaks.
type withScale struct {
	Instrument
	scale func(locale string) Scale
}

func (w withScale) Scale(locale string) Scale { return w.scale(locale) }

// An exam whose instrument's scale the flow cannot show refuses to start.
func TestRegistryRefusesAMalformedScale(t *testing.T) {
	insts, err := loadInstruments()
	if err != nil {
		t.Fatal(err)
	}
	phq := insts[PHQ9]
	good := phq.Scale("en")
	cases := map[string]func(string) Scale{
		"a label short": func(string) Scale { s := good; s.Labels = s.Labels[:3]; return s },
		"a blank label": func(string) Scale { s := good; s.Labels = []string{"a", " ", "c", "d"}; return s },
		"one value":     func(string) Scale { return Scale{Min: 1, Max: 1, Labels: []string{"a"}} },
		"past 9":        func(string) Scale { return Scale{Min: 7, Max: 10, Labels: []string{"a", "b", "c", "d"}} },
		"upside down":   func(string) Scale { return Scale{Min: 3, Max: 0} },
		"unlabelled in one": func(l string) Scale {
			s := phq.Scale(l)
			if l == "ko" {
				s.Labels = nil
			}
			return s
		},
		"another range in one": func(l string) Scale {
			s := phq.Scale(l)
			if l == "de" {
				s.Min, s.Max = 1, 4
			}
			return s
		},
	}
	catalogue := []byte(`[{"id": 9001, "codes": ["TPHQ"], "instrument": "phq-9", "version": "1", "parts": 1, "pageSize": 9}]`)
	if _, err := newRegistry(catalogue, insts); err != nil {
		t.Fatalf("the real PHQ-9: %v", err)
	}
	for name, scale := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := newRegistry(catalogue, map[string]Instrument{PHQ9: withScale{phq, scale}})
			if err == nil || !strings.Contains(err.Error(), "exam 9001: instrument phq-9") {
				t.Fatalf("error %v", err)
			}
		})
	}
}

// Paging: nine items in one part of 9 or of 3 a page, ten in one part;
// parts that do not divide the items are refused.
func TestPagingOfShortInstruments(t *testing.T) {
	for _, c := range []struct {
		catalogue string
		ok        bool
	}{
		{`[{"id": 1, "codes": ["A"], "instrument": "phq-9", "parts": 1, "pageSize": 9}]`, true},
		{`[{"id": 1, "codes": ["A"], "instrument": "phq-9", "parts": 3, "pageSize": 3}]`, true},
		{`[{"id": 1, "codes": ["A"], "instrument": "phq-9", "parts": 2, "pageSize": 3}]`, false},
		{`[{"id": 1, "codes": ["A"], "instrument": "phq-9", "parts": 1, "pageSize": 10}]`, false},
		{`[{"id": 1, "codes": ["A"], "instrument": "k10", "parts": 1, "pageSize": 10}]`, true},
		{`[{"id": 1, "codes": ["A"], "instrument": "k10", "parts": 2, "pageSize": 5}]`, true},
	} {
		_, err := NewRegistry([]byte(c.catalogue))
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.catalogue, err)
		}
	}
}
