package screen

import (
	"selfmap/internal/exam/crisis"
	"selfmap/internal/report"
)

// Crisis is what the crisis block shows: the lines of the result's country
// and why they are shown, worded.
type Crisis struct {
	Lines  crisis.Lines
	Reason string
}

// Free is the free result of a screen: the crisis block when the answers
// call for it (nil otherwise), the sum on its scale and its band.
type Free struct {
	// Screen is the spec's name ("phq9", "k10"); Short and Name name it.
	Screen, Short, Name string
	Crisis              *Crisis
	Sum, Min, Max       int
	// Band is the band's key; BandName and Meaning word it.
	Band, BandName, Meaning string
	// Bands are the published bands, the result's marked Current.
	Bands []BandMark
}

// Headline names the result by its screen and band; a screen has no
// public page to share.
func (f Free) Headline() report.Headline {
	return report.Headline{Code: f.Short, Title: f.BandName}
}

// Percent is where the sum's mark lies on the drawn scale, 0-100: the
// middle of its step, each of the Max-Min+1 possible sums one step wide.
func (f Free) Percent() int { return percentOf(2*(f.Sum-f.Min)+1, 0, 2*(f.Max-f.Min+1)) }

// BandMark is a published band as the scale draws it.
type BandMark struct {
	Key, Name string
	From, To  int
	Current   bool
}

// Report is the full report of a screen: its free result and what the paid
// report adds.
type Report struct {
	Free
	// PreparedFor is whom the report is for (the name given, if any).
	PreparedFor, Order, Date string
	// Detail is what the band means, NotMeans what no band means.
	Detail, NotMeans string
	// Often labels the answer from which Items lists a statement; Stem is
	// the question the statements answer.
	Often, Stem string
	Items       []ItemLine
	// SeeDoctor: the band is one where the report says to see a doctor.
	SeeDoctor bool
	// OwnTranslation: the statements in the reader's language are our
	// translation, not an official one.
	OwnTranslation bool
	Credit         string
}

// ItemLine is a statement answered at Often or above, in the words the
// person read.
type ItemLine struct {
	Number, Text, Answer string
}

// percentOf is v's place between lo and hi, 0-100.
func percentOf(v, lo, hi int) int {
	if hi <= lo {
		return 0
	}
	return min(max((v-lo)*100/(hi-lo), 0), 100)
}

// Left is where a band starts on the scale, in percent of its width; Width
// is its share of the scale.
func (b BandMark) Left(lo, hi int) int { return percentOf(b.From, lo, hi+1) }

// Width is the band's share of the scale, in percent.
func (b BandMark) Width(lo, hi int) int {
	return percentOf(b.To+1, lo, hi+1) - percentOf(b.From, lo, hi+1)
}
