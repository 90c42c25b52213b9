package exam

import (
	"fmt"
	"strings"
)

// Kind is how an item is answered.
type Kind string

const (
	// Likert items are answered on the instrument's Scale (IPIP-NEO 1-5,
	// PHQ-9 0-3, K10 1-5).
	Likert Kind = "likert"
	// Choice items carry their own options (Question.Options), each a
	// picture with a label read to screen readers: the progressive matrices
	// of the next issue. The engine validates them; no page renders them yet.
	Choice Kind = "choice"
)

// Scale is an instrument's answer scale in one locale: every value from Min
// to Max, with one label each. Reverse-keyed items are the instrument's
// business when it scores; the scale is what the visitor sees.
type Scale struct {
	Min int `json:"min"`
	Max int `json:"max"`
	// Labels names each value, Labels[0] for Min.
	Labels []string `json:"labels"`
	// Stem is the instruction the items complete ("Over the last 2 weeks,
	// how often have you been bothered by…"); empty when the items stand on
	// their own and the page's own intro is enough.
	Stem string `json:"stem,omitempty"`
	// Frequency says the answers count up from "never" (PHQ-9, K10) rather
	// than run from disagree to agree: every label is shown and no middle
	// answer is drawn as neutral.
	Frequency bool `json:"frequency,omitempty"`
}

// Option is one answer a question offers.
type Option struct {
	Value int    `json:"value"`
	Label string `json:"label"`
	// Picture is the image of a Choice option (a path under /static); empty
	// on a Likert scale.
	Picture string `json:"picture,omitempty"`
}

// Options lists the scale's values with their labels, Min first.
func (s Scale) Options() []Option {
	out := make([]Option, len(s.Labels))
	for i, l := range s.Labels {
		out[i] = Option{Value: s.Min + i, Label: l}
	}
	return out
}

// Contains reports whether v is one of the scale's values.
func (s Scale) Contains(v int) bool { return v >= s.Min && v <= s.Max }

// Check refuses a scale the question flow cannot show: fewer than two
// values, a label missing or blank, or values a digit key cannot answer
// (the flow answers by keys Min..Max, so 0-9).
func (s Scale) Check() error {
	switch {
	case s.Min < 0 || s.Max > 9 || s.Max <= s.Min:
		return fmt.Errorf("values %d-%d, want at least two values within 0-9", s.Min, s.Max)
	case len(s.Labels) != s.Max-s.Min+1:
		return fmt.Errorf("%d labels for values %d-%d", len(s.Labels), s.Min, s.Max)
	}
	for i, l := range s.Labels {
		if strings.TrimSpace(l) == "" {
			return fmt.Errorf("value %d has no label", s.Min+i)
		}
	}
	return nil
}

// answerRange is what one item accepts, fixed when the registry loads.
type answerRange struct{ min, max int }

// ranges works out what each item of an instrument accepts and refuses an
// instrument the question flow cannot show: a malformed scale in any
// locale, a scale whose values differ between locales, or a Choice item
// whose options are not valued 1..n.
func ranges(inst Instrument, locales []string) ([]answerRange, error) {
	base := inst.Scale(locales[0])
	for _, l := range locales {
		s := inst.Scale(l)
		if err := s.Check(); err != nil {
			return nil, fmt.Errorf("scale in %s: %w", l, err)
		}
		if s.Min != base.Min || s.Max != base.Max {
			return nil, fmt.Errorf("scale in %s is %d-%d, in %s %d-%d", l, s.Min, s.Max, locales[0], base.Min, base.Max)
		}
	}
	qs := inst.Questions(locales[0])
	if len(qs) != inst.ItemCount() {
		return nil, fmt.Errorf("%d questions, %d items", len(qs), inst.ItemCount())
	}
	out := make([]answerRange, len(qs))
	for i, q := range qs {
		switch q.Kind {
		case Likert:
			out[i] = answerRange{base.Min, base.Max}
		case Choice:
			if len(q.Options) < 2 {
				return nil, fmt.Errorf("choice item %s has %d options", q.ID, len(q.Options))
			}
			for j, o := range q.Options {
				if o.Value != j+1 {
					return nil, fmt.Errorf("choice item %s: option %d has value %d, want %d", q.ID, j+1, o.Value, j+1)
				}
			}
			out[i] = answerRange{1, len(q.Options)}
		default:
			return nil, fmt.Errorf("item %s has kind %q", q.ID, q.Kind)
		}
		if j, ok := inst.Index(q.ID); !ok || j != i {
			return nil, fmt.Errorf("item %s is not found at its position %d", q.ID, i)
		}
	}
	return out, nil
}
