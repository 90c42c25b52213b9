package ipipneo

import (
	"strings"

	"selfmap/internal/report"
)

// Report is the full report of an IPIP-NEO-120 result, worded in the
// reader's language: the model views.ReportPage draws on the web and in
// the PDF.
type Report struct {
	Name, Order, Date             string
	Type, Letters, Title, Summary string
	IdentityName, IdentitySummary string
	Keywords                      string
	Population                    []Share
	// MinSample is how many results a share needs.
	MinSample int
	Leans     []Lean
	Domains   []Scale
	Facets    []Facets
	// NormGroup is the comparison group in words.
	NormGroup  string
	Neighbours string
	RecentN    int
	// Fast marks a test answered in under two minutes.
	Fast bool
	// Demo marks figures (shares, ranking, countries) that include demo data.
	Demo                        bool
	Countries                   []Country
	Minutes, Seconds            int
	Strengths, Challenges, Work string
	Relationships, Growth       string
	Packs                       []Pack
}

// Headline names the type and its public page.
func (r Report) Headline() report.Headline {
	return report.Headline{Code: r.Type, Title: r.Title, TypePage: strings.ToLower(r.Letters)}
}

// Lean is one letter of the type on the report.
type Lean struct {
	Domain string
	// High and Low name the two poles as the chart draws them, left and
	// right; HighPercent is the share toward the left one.
	High, Low   string
	HighPercent int
	Pole        string
	Percent     int
	Level       int
	Text        string
}

// Scale is a domain or facet score on the report.
type Scale struct {
	Code, Name string
	Percentile int
	Text       string
	// Rank is where a domain sits among recent results (-1: not enough).
	Rank int
	// Norm is the raw score beside the comparison group's mean and standard
	// deviation, worded (domains only).
	Norm string
}

// Share is one share of results: shown as Value when the group has enough
// results, otherwise as too few (Value then says how many).
type Share struct {
	Label, Value string
	Enough       bool
}

// Facets are the six facets of a domain.
type Facets struct {
	Domain string
	Facets []Scale
}

// Country is one row of the top countries.
type Country struct {
	Name  string
	Count int
}

// Pack is a bought pack as the report shows it.
type Pack struct {
	Name     string
	Intro    string
	Sections []PackSection
}

// PackSection is one facet's reading in a pack.
type PackSection struct {
	Facet   string
	Percent int
	Text    string
}

// Free is the free result of an IPIP-NEO-120 result: the type with its
// title and description and the five dimensions.
type Free struct {
	Type            string
	Title           string
	Summary         string
	IdentityName    string
	IdentitySummary string
	Domains         []Bar
	Neighbours      string
	// Fast marks a test answered in under two minutes.
	Fast bool
	// letters name the type's public page.
	letters string
}

// Headline names the type and its public page.
func (f Free) Headline() report.Headline {
	return report.Headline{Code: f.Type, Title: f.Title, TypePage: strings.ToLower(f.letters)}
}

// Bar is one of the five dimensions on the free result.
type Bar struct {
	Code    string
	Name    string
	Percent int
	// Meaning is what the score tends to mean: the high or the low reading.
	Meaning string
}
