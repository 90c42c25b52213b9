// Package report turns a scored result and figures from the database into
// what the full report shows. Every number comes from the answers (through
// the keying and norms of internal/exam/ipipneo) or from stored results;
// docs/report.md says how each is computed. Each instrument has its Builder
// (internal/report/<instrument>); the Service opens a paid report to whoever
// may read it and builds it, for the page and the PDF alike.
package report

import "selfmap/internal/exam/ipipneo"

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

// MinSample is how many results a group (all, men, women, the latest
// results) needs before a share of it is shown. Below it a page says that
// too few results exist yet, with the count: a share of a handful of
// results is noise a reader would take as a fact. With 200 results a share
// near 6 % (one type in 16) has a 95 % margin of about 3.4 points.
const MinSample = 200

// Share is count results of a kind among n.
type Share struct{ Count, N int }

// Enough reports whether the share may be shown.
func (s Share) Enough() bool { return s.N >= MinSample }

// Percent is the share in percent; 0 when there are no results.
func (s Share) Percent() float64 {
	if s.N == 0 {
		return 0
	}
	return 100 * float64(s.Count) / float64(s.N)
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

// FastSeconds is the answering time under which a 120-statement test is
// flagged: under one second a statement leaves no time to read it, and such
// results are less reliable (the careless-responding literature, e.g.
// Huang et al. 2012, J. Bus. Psychol. 27:99-114, flags under 2 s an item).
// The result page and the report say so; nothing is hidden or refused.
const FastSeconds = 120

// AnsweredTooFast reports whether a test taking seconds (0: not known) was
// answered under FastSeconds.
func AnsweredTooFast(seconds int) bool { return seconds > 0 && seconds < FastSeconds }
