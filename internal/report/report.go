// Package report turns a scored result and figures from the database into
// what the full report shows. Every number comes from the answers (through
// the keying and norms of internal/exam/ipipneo) or from stored results;
// docs/report.md says how each is computed.
package report

import (
	"selfmap/internal/exam/ipipneo"
)

// Lean is one letter of the type read as a lean toward a pole.
type Lean struct {
	Domain string
	// Pole is the letter the person leans to; Other is the opposite one.
	Pole, Other string
	// Percent is how far toward Pole the domain percentile lies: 50-99.
	Percent int
	// Level is how clear the lean is, 1 (very slight) to 5 (very clear).
	Level int
	// High is the letter of the domain's high pole, HighPercent the domain
	// percentile: how a chart from High to the other letter places it.
	High        string
	HighPercent int
}

// LeanLevel reads how far a lean goes (50-99) as a level 1-5, in bands of
// ten percentile points: 50-59 is 1, 90-99 is 5.
func LeanLevel(percent int) int {
	return min(max((percent-50)/10+1, 1), 5)
}

// Leans reads the four letter axes of a result (E/I, N/S, F/T, J/P).
func Leans(r ipipneo.Result) []Lean {
	var out []Lean
	for _, a := range r.Axes {
		if a.Domain == "N" {
			continue // the identity, not a letter
		}
		l := Lean{Domain: a.Domain, Pole: a.High, Other: a.Low, Percent: a.HighPercent, High: a.High, HighPercent: a.HighPercent}
		if a.Letter == a.Low {
			l.Pole, l.Other, l.Percent = a.Low, a.High, a.LowPercent
		}
		l.Percent = max(l.Percent, 50)
		l.Level = LeanLevel(l.Percent)
		out = append(out, l)
	}
	return out
}

// ReferenceLow and ReferenceHigh bound the reference range of a percentile:
// the middle half of the norm group lies between them.
const (
	ReferenceLow  = 25
	ReferenceHigh = 75
)

// PopulationPrior is how many results' weight the even share (1 in 16) has
// when the population ratio of a type is estimated from stored results:
// with few results the ratio stays near 6.25 %, and the data takes over as
// results accumulate.
const PopulationPrior = 160

// Share estimates the share of a type, in percent, from count results of
// the type among n: (count + prior/16) / (n + prior).
func Share(count, n int) float64 {
	return 100 * (float64(count) + PopulationPrior/16.0) / float64(n+PopulationPrior)
}

// RankAmong is the percentage of values strictly below v: where a score
// sits among recent results.
func RankAmong(sorted []int, v int) int {
	lo, hi := 0, len(sorted)
	for lo < hi {
		mid := (lo + hi) / 2
		if sorted[mid] < v {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if len(sorted) == 0 {
		return 0
	}
	return 100 * lo / len(sorted)
}
