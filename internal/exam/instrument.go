package exam

import (
	"fmt"
	"strings"

	"selfmap/internal/exam/ipipneo"
)

// Question is one statement as the question flow shows it.
type Question struct {
	ID   string `json:"id"`
	Text string `json:"text"`
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

// Instrument is an item bank with its scoring.
type Instrument interface {
	// Version names the items and their keying.
	Version() string
	ItemCount() int
	// Questions returns the items in the exam's fixed order, in a locale.
	Questions(locale string) []Question
	// Index finds an item's position by id.
	Index(id string) (int, bool)
	// Score scores a complete answer set in item order.
	Score(answers []int, p Profile) (Scored, error)
}

// IPIPNEO120 names the IPIP-NEO-120 in exams.json and in the report
// builders (internal/report), which are registered by instrument name.
const IPIPNEO120 = "ipip-neo-120"

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
	return map[string]Instrument{IPIPNEO120: ipipNEO{bank, norms}}, nil
}

// ipipNEO adapts the IPIP-NEO-120 to the Instrument interface.
type ipipNEO struct {
	bank  *ipipneo.Bank
	norms *ipipneo.Norms
}

func (p ipipNEO) Version() string {
	return "ipip-neo-120@" + p.bank.Version[strings.LastIndex(p.bank.Version, "@")+1:]
}
func (p ipipNEO) ItemCount() int              { return len(p.bank.Items) }
func (p ipipNEO) Index(id string) (int, bool) { return p.bank.Index(id) }

func (p ipipNEO) Questions(locale string) []Question {
	out := make([]Question, len(p.bank.Items))
	for i, it := range p.bank.Items {
		out[i] = Question{ID: it.ID, Text: p.bank.Text(locale, i)}
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
