package exam

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"selfmap/internal/apperr"
)

// MaxSubmissionBytes bounds an answer submission: 120 answers with their
// ids take about 7 KB.
const MaxSubmissionBytes = 32 << 10

// MaxDurationSeconds caps the recorded completion time (a day).
const MaxDurationSeconds = 86400

// Answer is one statement's answer as the question flow sends it.
type Answer struct {
	ID    string `json:"id"`
	Value int    `json:"value"`
}

// SubmissionRequest is the body of POST /api/exam/order/info.
type SubmissionRequest struct {
	ExamID          int      `json:"examId"`
	Code            string   `json:"code"`
	Version         string   `json:"version"`
	Answers         []Answer `json:"answers"`
	DurationSeconds int      `json:"durationSeconds"`
}

// Submission is a validated answer set: one answer per item, in the exam's
// item order.
type Submission struct {
	Exam            Exam
	Pair            Pair
	Answers         []int
	DurationSeconds int
}

// ParseSubmission reads and validates an answer submission. Every way it can
// be wrong has its own message: malformed JSON, a wrong exam or version, a
// missing, duplicated or unknown item (an item of another exam is unknown
// here), or a value its item does not offer (outside the instrument's
// scale, or not one of a Choice item's options). Nothing is scored or
// stored unless it is complete and clean.
func (r *Registry) ParseSubmission(body []byte) (Submission, error) {
	if len(body) > MaxSubmissionBytes {
		return Submission{}, &apperr.Error{Status: 413, ID: "error.too_large"}
	}
	var req SubmissionRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return Submission{}, &apperr.Error{Status: 400, ID: "exam.error.malformed", Cause: err}
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return Submission{}, &apperr.Error{Status: 400, ID: "exam.error.malformed", Cause: errors.New("trailing data")}
	}
	e, ok := r.byID[req.ExamID]
	if !ok {
		return Submission{}, apperr.BadRequest("exam.error.wrong_exam", nil)
	}
	p, ok := r.ParsePair(req.Code + "-" + strconv.Itoa(req.ExamID))
	if !ok {
		return Submission{}, apperr.BadRequest("exam.error.wrong_exam", nil)
	}
	if req.Version != e.FullVersion() {
		return Submission{}, apperr.BadRequest("exam.error.wrong_version", nil)
	}
	n := e.Instrument.ItemCount()
	if len(req.Answers) != n {
		return Submission{}, apperr.BadRequest("exam.error.count", map[string]any{"Count": n})
	}
	answers := make([]int, n)
	seen := make([]bool, n)
	for _, a := range req.Answers {
		i, ok := e.Instrument.Index(a.ID)
		switch {
		case !ok:
			return Submission{}, apperr.BadRequest("exam.error.unknown_item", nil)
		case seen[i]:
			return Submission{}, apperr.BadRequest("exam.error.duplicate_item", nil)
		case a.Value < e.accepts[i].min || a.Value > e.accepts[i].max:
			return Submission{}, apperr.BadRequest("exam.error.value", nil)
		}
		seen[i] = true
		answers[i] = a.Value
	}
	d := min(max(req.DurationSeconds, 0), MaxDurationSeconds)
	return Submission{Exam: e, Pair: p, Answers: answers, DurationSeconds: d}, nil
}
