// Package ipipneo builds the reports of the IPIP-NEO-120 (the 16-type
// test): its free result and its full report, worded in the reader's
// language from the stored scores, the instrument's norms and the figures
// of stored results (report.Stats). It is the instrument's report.Builder.
package ipipneo

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"selfmap/internal/exam"
	neo "selfmap/internal/exam/ipipneo"
	"selfmap/internal/geo"
	"selfmap/internal/i18n"
	"selfmap/internal/packs"
	"selfmap/internal/report"
	"selfmap/internal/result"
)

// Norms are the instrument's norm groups, by the label stored with a
// result (the exam registry's IPIP-NEO-120 has them).
type Norms interface {
	NormGroup(label string) (neo.NormGroup, bool)
}

// Builder is the IPIP-NEO-120's report.Builder.
type Builder struct {
	Norms Norms
	Stats *report.StatsCache
}

// New is the builder of the reports of inst, the exam registry's
// IPIP-NEO-120, whose norms word the comparison group.
func New(inst exam.Instrument, stats *report.StatsCache) (*Builder, error) {
	n, ok := inst.(Norms)
	if !ok {
		return nil, fmt.Errorf("report/ipipneo: instrument %s has no IPIP-NEO norms", inst.Version())
	}
	return &Builder{Norms: n, Stats: stats}, nil
}

// domains is the order the report lists the Big Five in.
var domains = []string{"O", "C", "E", "A", "N"}

// scores reads a result's stored scores.
func scores(r result.Result) (neo.Result, error) {
	var scored neo.Result
	if err := json.Unmarshal([]byte(r.Scores), &scored); err != nil {
		return neo.Result{}, fmt.Errorf("report/ipipneo: scores of result %s: %w", r.ID, err)
	}
	return scored, nil
}

// Free is the type with its title and description, and the five
// dimensions with what each score tends to mean.
func (b *Builder) Free(_ context.Context, in report.Input) (report.Report, error) {
	scored, err := scores(in.Result)
	if err != nil {
		return nil, err
	}
	t := in.T
	letters, identity, _ := strings.Cut(scored.Type, "-")
	f := Free{
		Type: scored.Type, Title: t.T("type." + letters + ".title"), Summary: t.T("type." + letters + ".summary"),
		IdentityName: t.T("identity." + identity + ".name"), IdentitySummary: t.T("identity." + identity + ".summary"),
		Neighbours: strings.Join(scored.Neighbours, ", "), Fast: report.AnsweredTooFast(in.Result.DurationSeconds), letters: letters,
	}
	for _, d := range domains {
		sc := scored.Domains[d]
		meaning := t.T("domain." + d + ".low")
		if sc.High() {
			meaning = t.T("domain." + d + ".high")
		}
		f.Domains = append(f.Domains, Bar{Code: d, Name: t.T("domain." + d + ".name"), Percent: sc.Percentile, Meaning: meaning})
	}
	return f, nil
}

// Build is the full report: the type and its profile, the eight
// dimensions, the Big Five and their facets against the norm group, the
// shares and rankings among stored results, and the packs bought.
func (b *Builder) Build(ctx context.Context, in report.Input) (report.Report, error) {
	scored, err := scores(in.Result)
	if err != nil {
		return nil, err
	}
	stats, err := b.Stats.Get(ctx, in.Result.ExamID)
	if err != nil {
		return nil, err
	}
	rep := profile(in, scored, stats)
	group, _ := b.Norms.NormGroup(scored.NormGroup)
	rep.NormGroup = normGroupWords(in.T, group)
	rep.Leans = leans(in.T, scored)
	rep.Domains, rep.Facets = scales(in, scored, stats, group)
	for _, c := range stats.Countries {
		name := geo.Name(in.Locale.Tag, c.Country)
		if name == "" {
			name = c.Country
		}
		rep.Countries = append(rep.Countries, Country{Name: name, Count: c.N})
	}
	rep.Packs = boughtPacks(in.T, in.Packs, scored)
	return rep, nil
}

// profile is the report's head: who, which type, what it means, how common
// it is, and how the test was taken.
func profile(in report.Input, scored neo.Result, stats report.Stats) Report {
	t, l, r := in.T, in.Locale, in.Result
	letters, identity, _ := strings.Cut(scored.Type, "-")
	pop := stats.Population(letters)
	return Report{
		Name: reportName(l, r.FirstName.String, r.LastName.String), Order: in.Order, Date: r.CreatedAt.Format("2006-01-02"),
		Type: scored.Type, Letters: letters, Title: t.T("type." + letters + ".title"), Summary: t.T("type." + letters + ".summary"),
		IdentityName: t.T("identity." + identity + ".name"), IdentitySummary: t.T("identity." + identity + ".summary"),
		Keywords: t.T("report.keywords." + letters),
		Population: []Share{
			shareOf(t, l, "report.page.population_all", pop.All),
			shareOf(t, l, "report.page.population_male", pop.Male),
			shareOf(t, l, "report.page.population_female", pop.Female),
		},
		MinSample: report.MinSample, Neighbours: strings.Join(scored.Neighbours, ", "),
		RecentN: len(stats.Recent["E"]), Minutes: r.DurationSeconds / 60, Seconds: r.DurationSeconds % 60,
		Fast: report.AnsweredTooFast(r.DurationSeconds), Demo: stats.Demo,
		Strengths: t.T("typeprofile." + letters + ".strengths"), Challenges: t.T("typeprofile." + letters + ".challenges"),
		Work: t.T("typeprofile." + letters + ".work"), Relationships: t.T("typeprofile." + letters + ".relationships"),
		Growth: t.T("typeprofile." + letters + ".growth"),
	}
}

// leans are the four letters, each read as a lean toward a pole.
func leans(t *i18n.Translator, scored neo.Result) []Lean {
	var out []Lean
	for _, ln := range report.Leans(scored) {
		low := ln.Other
		if ln.Pole != ln.High {
			low = ln.Pole
		}
		out = append(out, Lean{Domain: ln.Domain, High: ln.High, Low: low, HighPercent: ln.HighPercent,
			Pole: ln.Pole, Percent: ln.Percent, Level: ln.Level, Text: t.T("report.pole." + ln.Pole + ".level" + strconv.Itoa(ln.Level))})
	}
	return out
}

// scales are the five domains, ranked among recent results when there are
// enough, and their six facets each.
func scales(in report.Input, scored neo.Result, stats report.Stats, group neo.NormGroup) ([]Scale, []Facets) {
	t := in.T
	recent := len(stats.Recent["E"])
	var ds []Scale
	var fs []Facets
	for _, d := range domains {
		sc := scored.Domains[d]
		rank := -1
		if recent >= report.MinSample {
			rank = stats.Rank(d, sc.Percentile)
		}
		ds = append(ds, Scale{Code: d, Name: t.T("domain." + d + ".name"), Percentile: sc.Percentile,
			Text: t.T("report.domain." + d + "." + neo.Band(sc.Percentile)), Rank: rank, Norm: normLine(t, in.Locale, sc, group, d)})
		g := Facets{Domain: t.T("domain." + d + ".name")}
		for f := 1; f <= 6; f++ {
			code := d + strconv.Itoa(f)
			fsc := scored.Facets[code]
			g.Facets = append(g.Facets, Scale{Code: code, Name: t.T("facet." + code), Percentile: fsc.Percentile,
				Text: t.T("report.facet." + code + "." + neo.Band(fsc.Percentile))})
		}
		fs = append(fs, g)
	}
	return ds, fs
}

// boughtPacks are the sections of the packs bought (by SKU id), chosen by
// the facet scores.
func boughtPacks(t *i18n.Translator, skus []string, scored neo.Result) []Pack {
	percentiles := make(map[string]int, len(scored.Facets))
	for code, sc := range scored.Facets {
		percentiles[code] = sc.Percentile
	}
	var out []Pack
	for _, sku := range skus {
		name := packs.Name(sku)
		pc := Pack{Name: t.T("sku." + sku + ".name"), Intro: t.T("pack." + name + ".intro")}
		for _, sec := range packs.Sections(name, percentiles) {
			pc.Sections = append(pc.Sections, PackSection{Facet: t.T("facet." + sec.Facet), Percent: sec.Percentile, Text: t.T(sec.Key)})
		}
		out = append(out, pc)
	}
	return out
}

// reportName is whom the report is prepared for: the given name, or where
// the family name comes first (Chinese, Japanese, Korean) the full name in
// that order, as 様 and 님 address a person by it.
func reportName(l i18n.Locale, given, family string) string {
	given, family = strings.TrimSpace(given), strings.TrimSpace(family)
	if l.FamilyNameFirst() && family != "" {
		return strings.TrimSpace(family + " " + given)
	}
	return given
}
