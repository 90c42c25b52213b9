package ipipneo

import (
	"errors"
	"fmt"
	"math"
)

// BorderlineBand is how many percentile points either side of 50 make an
// axis borderline: a percentile from 45 to 55 could fall on the other pole
// on another day.
const BorderlineBand = 5

// ErrIncomplete is returned when not every item has an answer from 1 to 5.
var ErrIncomplete = errors.New("ipipneo: every item needs an answer from 1 to 5")

// Profile is what the norms need to know of the test-taker; zero values mean
// unknown.
type Profile struct {
	Sex Sex
	Age int
}

// Scale is one scale's score.
type Scale struct {
	// Raw is the sum of the keyed item scores (domain 24-120, facet 4-20).
	Raw int `json:"raw"`
	// Z is (Raw - mean) / SD against the norm group, unrounded: a letter is
	// decided by it, never by the rounded percentile.
	Z float64 `json:"z"`
	// Percentile is the share of the norm group scoring lower, 1-99, from
	// the normal distribution of the group's raw sums, rounded for display.
	Percentile int `json:"percentile"`
}

// High reports whether a score reads as the high pole of its scale: at or
// above the norm group's mean, by the unrounded z-score. (A rounded
// percentile would call a raw sum just below the mean, z = -0.01,
// percentile 49.6, "50" and so high.)
func (s Scale) High() bool { return s.Z >= 0 }

// Band reads a percentile as the band the report's texts are written for:
// low below 30, mid from 30 to 69, high from 70 (about the lower, middle and
// upper thirds of the norm group).
func Band(percentile int) string {
	switch {
	case percentile < 30:
		return "low"
	case percentile < 70:
		return "mid"
	default:
		return "high"
	}
}

// Axis is one letter of the type: a domain read as two poles.
type Axis struct {
	Domain string `json:"domain"`
	// High and Low are the letters of the two poles (E and I for
	// Extraversion); Letter is the one that applies.
	High   string `json:"high"`
	Low    string `json:"low"`
	Letter string `json:"letter"`
	// HighPercent is the domain percentile; LowPercent is 100 minus it.
	HighPercent int `json:"highPercent"`
	LowPercent  int `json:"lowPercent"`
	// Borderline marks a percentile within BorderlineBand of 50.
	Borderline bool `json:"borderline"`
}

// Result is a scored answer set: everything a report shows, and enough to
// recompute it.
type Result struct {
	Items     string           `json:"items"`
	Norms     string           `json:"norms"`
	NormGroup string           `json:"normGroup"`
	Domains   map[string]Scale `json:"domains"`
	Facets    map[string]Scale `json:"facets"`
	// Type is the four letters and the identity, e.g. "ENFP-T".
	Type string `json:"type"`
	Axes []Axis `json:"axes"`
	// Neighbours lists the types one borderline letter away.
	Neighbours []string `json:"neighbours"`
}

// typeAxes maps the four letters, then the identity, to their domains:
// E/I from Extraversion, N/S from Openness, F/T from Agreeableness, J/P from
// Conscientiousness, and -T (Turbulent, high) / -A from Neuroticism.
var typeAxes = []struct{ domain, high, low string }{
	{"E", "E", "I"},
	{"O", "N", "S"},
	{"A", "F", "T"},
	{"C", "J", "P"},
	{"N", "T", "A"},
}

// Score scores a complete answer set (item index -> answer 1-5, in the
// bank's order) against the norms of the profile.
func (b *Bank) Score(answers []int, p Profile, norms *Norms) (Result, error) {
	if len(answers) != len(b.Items) {
		return Result{}, ErrIncomplete
	}
	domainRaw := map[string]int{}
	facetRaw := map[string]int{}
	for i, a := range answers {
		if a < 1 || a > 5 {
			return Result{}, fmt.Errorf("%w: item %d has %d", ErrIncomplete, i+1, a)
		}
		it := b.Items[i]
		score := a
		if it.Minus {
			score = 6 - a
		}
		domainRaw[it.Domain] += score
		facetRaw[it.FacetCode] += score
	}
	group := norms.For(p.Sex, p.Age)
	r := Result{
		Items: b.Version, Norms: NormsVersion, NormGroup: group.Label,
		Domains: map[string]Scale{}, Facets: map[string]Scale{},
	}
	for d, raw := range domainRaw {
		r.Domains[d] = scale(raw, group.Scales[d])
	}
	for f, raw := range facetRaw {
		r.Facets[f] = scale(raw, group.Scales[f])
	}
	letters := ""
	for i, ax := range typeAxes {
		a := newAxis(ax.domain, ax.high, ax.low, r.Domains[ax.domain])
		r.Axes = append(r.Axes, a)
		if i == 4 {
			letters += "-"
		}
		letters += a.Letter
	}
	r.Type = letters
	for i, a := range r.Axes {
		if a.Borderline {
			r.Neighbours = append(r.Neighbours, flip(r.Type, i, a))
		}
	}
	return r, nil
}

// newAxis reads a domain score as a letter: the high pole from the norm
// mean up (by the unrounded z-score); the percentages are only shown.
func newAxis(domain, high, low string, s Scale) Axis {
	pct := s.Percentile
	a := Axis{Domain: domain, High: high, Low: low, Letter: low, HighPercent: pct, LowPercent: 100 - pct,
		Borderline: pct >= 50-BorderlineBand && pct <= 50+BorderlineBand}
	if s.High() {
		a.Letter = high
	}
	return a
}

// flip returns the type with axis i on its other pole.
func flip(typ string, i int, a Axis) string {
	other := a.High
	if a.Letter == a.High {
		other = a.Low
	}
	pos := i
	if i == 4 {
		pos = 5 // after the dash
	}
	return typ[:pos] + other + typ[pos+1:]
}

func scale(raw int, n Norm) Scale {
	z := (float64(raw) - n.Mean) / n.SD
	pct := int(math.Round(100 * 0.5 * math.Erfc(-z/math.Sqrt2)))
	pct = min(max(pct, 1), 99)
	return Scale{Raw: raw, Z: z, Percentile: pct}
}
