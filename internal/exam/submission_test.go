package exam

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"selfmap/internal/apperr"
)

func registry(t testing.TB) *Registry {
	t.Helper()
	r, err := LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// testExams are exams of the instruments not yet in exams.json, so the
// flow and the submission check run over every instrument.
const testExams = `[
  {"id": 9001, "codes": ["TPHQ"], "report": "DEPS", "category": "clinical", "instrument": "phq-9", "version": "1", "parts": 1, "pageSize": 3, "minutes": [2, 4]},
  {"id": 9002, "codes": ["TKTEN"], "report": "YDGX", "category": "clinical", "instrument": "k10", "version": "1", "parts": 1, "pageSize": 10, "minutes": [2, 4]}
]`

// everyInstrument is the shipped catalogue plus testExams; it fails when an
// instrument has no exam in either, so a new instrument joins these tests.
func everyInstrument(t testing.TB) *Registry {
	t.Helper()
	var list []json.RawMessage
	for _, b := range []string{string(examsJSON), testExams} {
		var part []json.RawMessage
		if err := json.Unmarshal([]byte(b), &part); err != nil {
			t.Fatal(err)
		}
		list = append(list, part...)
	}
	r, err := NewRegistry(body(t, list))
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, e := range r.List() {
		covered[e.InstrumentName] = true
	}
	for name := range r.instruments {
		if !covered[name] {
			t.Fatalf("instrument %s has no exam in exams.json or testExams", name)
		}
	}
	return r
}

// answerAll answers every item of an exam with value(i).
func answerAll(t testing.TB, e Exam, value func(i int) int) SubmissionRequest {
	req := SubmissionRequest{ExamID: e.ID, Code: e.Codes[0], Version: e.FullVersion(), DurationSeconds: 60}
	for i, q := range e.Instrument.Questions("en") {
		req.Answers = append(req.Answers, Answer{ID: q.ID, Value: value(i)})
	}
	return req
}

// validRequest answers every statement of exam 1807 with value(i).
func validRequest(t testing.TB, r *Registry, value func(i int) int) SubmissionRequest {
	e, _ := r.Exam(1807)
	req := SubmissionRequest{ExamID: 1807, Code: "BMBTI", Version: e.FullVersion(), DurationSeconds: 600}
	for i, q := range e.Instrument.Questions("en") {
		req.Answers = append(req.Answers, Answer{ID: q.ID, Value: value(i)})
	}
	return req
}

func body(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseSubmissionAcceptsACompleteSet(t *testing.T) {
	r := registry(t)
	req := validRequest(t, r, func(i int) int { return i%5 + 1 })
	// Order on the wire does not matter: answers are placed by id.
	req.Answers[0], req.Answers[119] = req.Answers[119], req.Answers[0]
	s, err := r.ParseSubmission(body(t, req))
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range s.Answers {
		if a != i%5+1 {
			t.Fatalf("answer %d = %d, want %d", i, a, i%5+1)
		}
	}
	if s.Pair != DefaultPair || s.DurationSeconds != 600 {
		t.Errorf("pair %v, duration %d", s.Pair, s.DurationSeconds)
	}
}

func TestParseSubmissionRefusesBadInput(t *testing.T) {
	r := registry(t)
	three := func(int) int { return 3 }
	cases := []struct {
		name   string
		body   func() []byte
		status int
		id     string
	}{
		{"not JSON", func() []byte { return []byte("{answers") }, 400, "exam.error.malformed"},
		{"unknown field", func() []byte { return []byte(`{"examId":1807,"score":100}`) }, 400, "exam.error.malformed"},
		{"two documents", func() []byte { return append(body(t, validRequest(t, r, three)), []byte(`{}`)...) }, 400, "exam.error.malformed"},
		{"unknown exam", func() []byte { q := validRequest(t, r, three); q.ExamID = 9; return body(t, q) }, 400, "exam.error.wrong_exam"},
		{"wrong page code", func() []byte { q := validRequest(t, r, three); q.Code = "IQ"; return body(t, q) }, 400, "exam.error.wrong_exam"},
		{"old version", func() []byte { q := validRequest(t, r, three); q.Version = "ipip-neo-120@6.0.12/1"; return body(t, q) }, 400, "exam.error.wrong_version"},
		{"missing answer", func() []byte { q := validRequest(t, r, three); q.Answers = q.Answers[:119]; return body(t, q) }, 400, "exam.error.count"},
		{"duplicated item", func() []byte { q := validRequest(t, r, three); q.Answers[5].ID = q.Answers[6].ID; return body(t, q) }, 400, "exam.error.duplicate_item"},
		{"unknown item", func() []byte { q := validRequest(t, r, three); q.Answers[7].ID = "nope"; return body(t, q) }, 400, "exam.error.unknown_item"},
		{"value 0", func() []byte { q := validRequest(t, r, three); q.Answers[8].Value = 0; return body(t, q) }, 400, "exam.error.value"},
		{"value 6", func() []byte { q := validRequest(t, r, three); q.Answers[9].Value = 6; return body(t, q) }, 400, "exam.error.value"},
		{"too large", func() []byte {
			return []byte(`{"examId":1807,"code":"` + strings.Repeat("x", MaxSubmissionBytes) + `"}`)
		}, 413, "error.too_large"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.ParseSubmission(tc.body())
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Status != tc.status || ae.ID != tc.id {
				t.Fatalf("error %v, want %d %s", err, tc.status, tc.id)
			}
		})
	}
}

// FuzzParseSubmission: whatever the bytes, the parser does not panic, and
// what it accepts is a complete, clean answer set, for every instrument:
// each answer within what its item offers.
func FuzzParseSubmission(f *testing.F) {
	r := everyInstrument(f)
	for _, e := range r.List() {
		lo := e.Instrument.Scale("en").Min
		f.Add(body(f, answerAll(f, e, func(i int) int { return lo + i%2 })))
		f.Add([]byte(`{"examId":` + strconv.Itoa(e.ID) + `,"code":"` + e.Codes[0] + `","answers":[{"id":"x","value":3}]}`))
	}
	f.Add([]byte(`{"examId":9001,"code":"TPHQ","answers":[{"id":"phq9-1","value":4}]}`))
	f.Add([]byte(`{"examId":1807,"answers":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"examId":-1,"durationSeconds":-5}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := r.ParseSubmission(b)
		if err != nil {
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.ID == "" {
				t.Fatalf("error without a message id: %v", err)
			}
			return
		}
		if len(s.Answers) != s.Exam.Instrument.ItemCount() {
			t.Fatalf("accepted %d answers", len(s.Answers))
		}
		scale := s.Exam.Instrument.Scale("en")
		for i, a := range s.Answers {
			if !scale.Contains(a) {
				t.Fatalf("accepted answer %d = %d outside %d-%d", i, a, scale.Min, scale.Max)
			}
		}
		if s.DurationSeconds < 0 || s.DurationSeconds > MaxDurationSeconds {
			t.Fatalf("accepted duration %d", s.DurationSeconds)
		}
	})
}
