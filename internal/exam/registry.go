// Package exam knows the tests the product offers and, in later steps, how
// their answers are scored. It is pure: no HTTP, no database.
package exam

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"selfmap/internal/i18n"
)

// Pair is the {code}-{examId} that every screen path carries: a page code
// (which may pick a theme and marketing variant) and the exam it belongs to.
type Pair struct {
	Code   string
	ExamID int
}

// DefaultPair is the home pair when a site names none.
var DefaultPair = Pair{Code: "BMBTI", ExamID: 1807}

func (p Pair) String() string { return p.Code + "-" + strconv.Itoa(p.ExamID) }

// Exam is one test of the catalogue. Exams are data: a new test names an
// instrument and its shape here, and the question flow, submission and
// scoring follow.
type Exam struct {
	ID    int      `json:"id"`
	Codes []string `json:"codes"`
	// Report is the report product (MBTI, IQ, DEPS, YDGX).
	Report   string `json:"report"`
	Category string `json:"category"`
	// InstrumentName picks the item bank and scoring.
	InstrumentName string `json:"instrument"`
	// Version is the exam's own version: the item order and paging.
	Version  string `json:"version"`
	Parts    int    `json:"parts"`
	PageSize int    `json:"pageSize"`
	Minutes  [2]int `json:"minutes"`

	Instrument Instrument `json:"-"`
	// accepts is what each item accepts, in item order (ranges).
	accepts []answerRange
}

// FullVersion names the items, their order and the paging: stored with
// every answer set, and part of the browser's storage key.
func (e Exam) FullVersion() string {
	return e.Instrument.Version() + "/" + e.Version
}

// Registry is the catalogue of exams, read from embedded data.
type Registry struct {
	byID        map[int]Exam
	instruments map[string]Instrument
}

//go:embed exams.json
var examsJSON []byte

// LoadRegistry parses the embedded catalogue and loads each exam's
// instrument.
func LoadRegistry() (*Registry, error) {
	return NewRegistry(examsJSON)
}

// NewRegistry builds a registry from a catalogue in the form of exams.json
// over the built-in instruments: LoadRegistry's, and how a test puts an
// instrument through the flow before its exam is in the catalogue. It
// refuses an exam whose shape its items do not fit, or whose instrument
// has a scale the question flow cannot show in some locale.
func NewRegistry(catalogue []byte) (*Registry, error) {
	instruments, err := loadInstruments()
	if err != nil {
		return nil, err
	}
	return newRegistry(catalogue, instruments)
}

func newRegistry(catalogue []byte, instruments map[string]Instrument) (*Registry, error) {
	var list []Exam
	if err := json.Unmarshal(catalogue, &list); err != nil {
		return nil, fmt.Errorf("exam: parse exams.json: %w", err)
	}
	locales := make([]string, len(i18n.Locales))
	for i, l := range i18n.Locales {
		locales[i] = l.Tag
	}
	r := &Registry{byID: map[int]Exam{}, instruments: instruments}
	for _, e := range list {
		if _, dup := r.byID[e.ID]; dup || e.ID <= 0 || len(e.Codes) == 0 || e.Parts <= 0 || e.PageSize <= 0 {
			return nil, fmt.Errorf("exam: bad or duplicate exam %d in exams.json", e.ID)
		}
		inst, ok := instruments[e.InstrumentName]
		if !ok {
			return nil, fmt.Errorf("exam: exam %d names unknown instrument %q", e.ID, e.InstrumentName)
		}
		if e.PageSize > inst.ItemCount() || inst.ItemCount()%e.Parts != 0 {
			return nil, fmt.Errorf("exam: exam %d: %d items do not split into %d parts of pages of %d", e.ID, inst.ItemCount(), e.Parts, e.PageSize)
		}
		var err error
		if e.accepts, err = ranges(inst, locales); err != nil {
			return nil, fmt.Errorf("exam: exam %d: instrument %s: %w", e.ID, e.InstrumentName, err)
		}
		e.Instrument = inst
		r.byID[e.ID] = e
	}
	return r, nil
}

// List returns every exam, by id.
func (r *Registry) List() []Exam {
	out := make([]Exam, 0, len(r.byID))
	for _, e := range r.byID {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Instrument returns an instrument by its name in exams.json (IPIPNEO120):
// how a report builder finds the instrument whose results it reads.
func (r *Registry) Instrument(name string) (Instrument, bool) {
	i, ok := r.instruments[name]
	return i, ok
}

// Exam returns an exam by id.
func (r *Registry) Exam(id int) (Exam, bool) {
	e, ok := r.byID[id]
	return e, ok
}

var pairPattern = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9]{0,31})-([1-9][0-9]{0,8})$`)

// ParsePair reads "{code}-{examId}" and checks that the exam exists and
// offers that page code.
func (r *Registry) ParsePair(s string) (Pair, bool) {
	m := pairPattern.FindStringSubmatch(s)
	if m == nil {
		return Pair{}, false
	}
	id, _ := strconv.Atoi(m[2])
	e, ok := r.byID[id]
	if !ok {
		return Pair{}, false
	}
	for _, c := range e.Codes {
		if c == m[1] {
			return Pair{Code: c, ExamID: id}, true
		}
	}
	return Pair{}, false
}
