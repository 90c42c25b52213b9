package ipipneo

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// answersWithRaw answers so that domain d sums to raw (24-120) and every
// other domain item is neutral (3).
func answersWithRaw(b *Bank, d string, raw int) []int {
	a := answersAll(3)
	base, extra := raw/24, raw%24
	k := 0
	for i, it := range b.Items {
		if it.Domain != d {
			continue
		}
		score := base
		if k < extra {
			score++
		}
		k++
		if it.Minus {
			score = 6 - score
		}
		a[i] = score
	}
	return a
}

// profileOf returns a test-taker the norms place in group g.
func profileOf(g NormGroup) Profile {
	p := Profile{Sex: g.Sex}
	if g.AgeMin != 0 {
		p.Age = (g.AgeMin + g.AgeMax) / 2
	}
	return p
}

// For every norm group and every domain, the raw sum just below the group's
// mean gives the low pole and the one just above (or at) it the high pole,
// whatever the rounded percentile shows. The table is the closing note's
// evidence (go test -v -run TestLetterBoundaries ./internal/exam/ipipneo/).
func TestLetterBoundaries(t *testing.T) {
	b, n := load(t)
	letters := map[string][2]string{"E": {"I", "E"}, "O": {"S", "N"}, "A": {"T", "F"}, "C": {"P", "J"}, "N": {"A", "T"}}
	pos := map[string]int{"E": 0, "O": 1, "A": 2, "C": 3, "N": 5}
	var table strings.Builder
	fmt.Fprintf(&table, "%-20s %s %7s %5s  %-16s %-16s\n", "group", "domain", "mean", "sd", "below: raw z pct", "above: raw z pct")
	for _, g := range n.Groups() {
		p := profileOf(g)
		if got := n.For(p.Sex, p.Age); got.Label != g.Label {
			t.Fatalf("profile %+v gives %s, want %s", p, got.Label, g.Label)
		}
		for _, d := range Domains {
			norm := g.Scales[d]
			below, above := int(math.Ceil(norm.Mean))-1, int(math.Ceil(norm.Mean))
			lo, err := b.Score(answersWithRaw(b, d, below), p, n)
			if err != nil {
				t.Fatal(err)
			}
			hi, err := b.Score(answersWithRaw(b, d, above), p, n)
			if err != nil {
				t.Fatal(err)
			}
			if lo.Domains[d].Raw != below || hi.Domains[d].Raw != above {
				t.Fatalf("%s %s: raw %d and %d, want %d and %d", g.Label, d, lo.Domains[d].Raw, hi.Domains[d].Raw, below, above)
			}
			if got := string(lo.Type[pos[d]]); got != letters[d][0] {
				t.Errorf("%s %s raw %d (mean %.2f, percentile %d): letter %s, want %s", g.Label, d, below, norm.Mean, lo.Domains[d].Percentile, got, letters[d][0])
			}
			if got := string(hi.Type[pos[d]]); got != letters[d][1] {
				t.Errorf("%s %s raw %d (mean %.2f, percentile %d): letter %s, want %s", g.Label, d, above, norm.Mean, hi.Domains[d].Percentile, got, letters[d][1])
			}
			fmt.Fprintf(&table, "%-20s %-6s %7.2f %5.2f  %3d %+.3f %2d %s  %3d %+.3f %2d %s\n", g.Label, d, norm.Mean, norm.SD,
				below, lo.Domains[d].Z, lo.Domains[d].Percentile, letters[d][0], above, hi.Domains[d].Z, hi.Domains[d].Percentile, letters[d][1])
		}
	}
	t.Log("\n" + table.String())
}
