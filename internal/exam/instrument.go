package exam

import (
	"fmt"
	"strings"

	"selfmap/internal/exam/ipipneo"
	"selfmap/internal/exam/itembank"
	"selfmap/internal/exam/k10"
	"selfmap/internal/exam/phq9"
)

// Question is one item as the question flow shows it.
type Question struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	// Kind says how it is answered: on the instrument's Scale (Likert), or
	// by one of its own Options (Choice).
	Kind Kind `json:"kind"`
	// Options are a Choice item's answers, valued 1..n; empty for Likert.
	Options []Option `json:"options,omitempty"`
}

// Profile is what norms may need of the test-taker; zero values mean
// unknown.
type Profile struct {
	// Sex is "male", "female" or "" (not given).
	Sex string
	Age int
}

// Scored is a scored answer set in the form every instrument shares; Detail
// holds the instrument's own scores and is stored as JSON.
type Scored struct {
	// Code is the headline result, e.g. the type "ENFP-T".
	Code         string
	ItemsVersion string
	NormsVersion string
	NormGroup    string
	Detail       any
}

// Instrument is an item bank with its scoring. The question flow, the
// submission check and the API need nothing else of it: its items with
// their kind, and its answer scale, in a locale.
type Instrument interface {
	// Version names the items and their keying.
	Version() string
	ItemCount() int
	// Questions returns the items in the exam's fixed order, in a locale
	// (English when the instrument lacks it).
	Questions(locale string) []Question
	// Scale is the answer scale of the Likert items in a locale, with the
	// stem the items complete: the same values in every locale, labelled
	// in that locale (English when the instrument lacks it).
	Scale(locale string) Scale
	// Index finds an item's position by id.
	Index(id string) (int, bool)
	// Score scores a complete answer set in item order.
	Score(answers []int, p Profile) (Scored, error)
	// NeedsNorms reports whether Score uses the Profile (sex and age): only
	// then does the details step ask for them and rescore with them.
	NeedsNorms() bool
}

// IPIPNEO120 names the IPIP-NEO-120 in exams.json and in the report
// builders (internal/report), which are registered by instrument name.
const IPIPNEO120 = "ipip-neo-120"

// PHQ9 names the Patient Health Questionnaire-9 (internal/exam/phq9).
const PHQ9 = "phq-9"

// K10 names the Kessler Psychological Distress Scale (internal/exam/k10).
const K10 = "k10"

// loadInstruments lists every instrument by name: a new instrument is added
// here, and its report builder beside the others (app/reports.go).
func loadInstruments() (map[string]Instrument, error) {
	bank, err := ipipneo.LoadBank()
	if err != nil {
		return nil, fmt.Errorf("exam: %w", err)
	}
	norms, err := ipipneo.LoadNorms()
	if err != nil {
		return nil, fmt.Errorf("exam: %w", err)
	}
	scale, err := ipipneo.LoadScale()
	if err != nil {
		return nil, fmt.Errorf("exam: %w", err)
	}
	phq, err := phq9.LoadBank()
	if err != nil {
		return nil, fmt.Errorf("exam: %w", err)
	}
	k, err := k10.LoadBank()
	if err != nil {
		return nil, fmt.Errorf("exam: %w", err)
	}
	return map[string]Instrument{
		IPIPNEO120: ipipNEO{bank, norms, scale},
		PHQ9:       likertBank{bank: phq, version: phq9.Version, score: scorePHQ9},
		K10:        likertBank{bank: k, version: k10.Version, score: scoreK10},
	}, nil
}

// likertBank adapts an instrument of one Likert scale whose items and
// scale are an itembank (PHQ-9, K10) to the Instrument interface.
type likertBank struct {
	bank    *itembank.Bank
	version string
	score   func(answers []int) (Scored, error)
}

func (b likertBank) Version() string             { return b.version }
func (b likertBank) ItemCount() int              { return len(b.bank.Spec.IDs) }
func (b likertBank) Index(id string) (int, bool) { return b.bank.Index(id) }

func (b likertBank) Questions(locale string) []Question {
	l := b.bank.Locale(locale)
	out := make([]Question, len(l.Items))
	for i, it := range l.Items {
		out[i] = Question{ID: it.ID, Text: it.Text, Kind: Likert}
	}
	return out
}

func (b likertBank) Scale(locale string) Scale {
	s := b.bank.Locale(locale).Scale
	// Both banks (PHQ-9, K10) ask how often: their answers count up.
	return Scale{Min: b.bank.Spec.Min, Max: b.bank.Spec.Max, Labels: s.Labels, Stem: s.Stem, Frequency: true}
}

// NeedsNorms is false: neither instrument has norms by sex or age.
func (b likertBank) NeedsNorms() bool { return false }

// Score needs no profile: neither instrument has norms by sex or age.
func (b likertBank) Score(answers []int, _ Profile) (Scored, error) {
	sc, err := b.score(answers)
	if err != nil {
		return Scored{}, err
	}
	sc.ItemsVersion = b.version
	return sc, nil
}

// scorePHQ9 and scoreK10 headline a result by its band; the detail keeps
// the sum, the crisis flag and the answers.
func scorePHQ9(answers []int) (Scored, error) {
	r, err := phq9.Score(answers)
	return Scored{Code: string(r.Band), Detail: r}, err
}

func scoreK10(answers []int) (Scored, error) {
	r, err := k10.Score(answers)
	return Scored{Code: string(r.Band), Detail: r}, err
}

// ipipNEO adapts the IPIP-NEO-120 to the Instrument interface.
type ipipNEO struct {
	bank  *ipipneo.Bank
	norms *ipipneo.Norms
	// scale holds the five labels of each locale (ipipneo/scale.tsv).
	scale map[string][]string
}

func (p ipipNEO) Scale(locale string) Scale {
	labels, ok := p.scale[locale]
	if !ok {
		labels = p.scale["en"]
	}
	return Scale{Min: ipipneo.ScaleMin, Max: ipipneo.ScaleMax, Labels: labels}
}

func (p ipipNEO) Version() string {
	return "ipip-neo-120@" + p.bank.Version[strings.LastIndex(p.bank.Version, "@")+1:]
}
func (p ipipNEO) ItemCount() int              { return len(p.bank.Items) }
func (p ipipNEO) NeedsNorms() bool            { return true }
func (p ipipNEO) Index(id string) (int, bool) { return p.bank.Index(id) }

func (p ipipNEO) Questions(locale string) []Question {
	out := make([]Question, len(p.bank.Items))
	for i, it := range p.bank.Items {
		out[i] = Question{ID: it.ID, Text: p.bank.Text(locale, i), Kind: Likert}
	}
	return out
}

// NormGroup finds one of the instrument's norm groups by the label stored
// with a result: the report words the group a result was scored against
// with the very norms that scored it.
func (p ipipNEO) NormGroup(label string) (ipipneo.NormGroup, bool) { return p.norms.Group(label) }

func (p ipipNEO) Score(answers []int, prof Profile) (Scored, error) {
	sex := ipipneo.SexUnknown
	switch prof.Sex {
	case "male":
		sex = ipipneo.Male
	case "female":
		sex = ipipneo.Female
	}
	r, err := p.bank.Score(answers, ipipneo.Profile{Sex: sex, Age: prof.Age}, p.norms)
	if err != nil {
		return Scored{}, err
	}
	return Scored{Code: r.Type, ItemsVersion: p.Version(), NormsVersion: r.Norms, NormGroup: r.NormGroup, Detail: r}, nil
}
