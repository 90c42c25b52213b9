package exam

import (
	"encoding/json"
	"errors"
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
// what it accepts is a complete, clean answer set.
func FuzzParseSubmission(f *testing.F) {
	r := registry(f)
	valid := body(f, validRequest(f, r, func(i int) int { return i%5 + 1 }))
	f.Add(valid)
	f.Add([]byte(`{"examId":1807,"code":"BMBTI","answers":[{"id":"x","value":3}]}`))
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
		for i, a := range s.Answers {
			if a < 1 || a > 5 {
				t.Fatalf("accepted answer %d = %d", i, a)
			}
		}
		if s.DurationSeconds < 0 || s.DurationSeconds > MaxDurationSeconds {
			t.Fatalf("accepted duration %d", s.DurationSeconds)
		}
	})
}
