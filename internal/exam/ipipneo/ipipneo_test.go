package ipipneo

import (
	"errors"
	"math"
	"testing"
)

func load(t testing.TB) (*Bank, *Norms) {
	t.Helper()
	b, err := LoadBank()
	if err != nil {
		t.Fatal(err)
	}
	n, err := LoadNorms()
	if err != nil {
		t.Fatal(err)
	}
	return b, n
}

// Each part of 40 items covers all five domains (eight items each), so a
// visitor who stops early has answered a balanced set.
func TestPartsCoverEveryDomain(t *testing.T) {
	b, _ := load(t)
	for part := range 3 {
		count := map[string]int{}
		for _, it := range b.Items[part*40 : part*40+40] {
			count[it.Domain]++
		}
		for _, d := range Domains {
			if count[d] != 8 {
				t.Errorf("part %d has %d %s items, want 8", part+1, count[d], d)
			}
		}
	}
}

// near compares a score with one worked out by hand to three decimals.
func near(got, want Scale) bool {
	return got.Raw == want.Raw && got.Percentile == want.Percentile && math.Abs(got.Z-want.Z) < 5e-4
}

func answersAll(v int) []int {
	a := make([]int, ItemCount)
	for i := range a {
		a[i] = v
	}
	return a
}

// All neutral (3): every domain sums to 72 and every facet to 12 whatever
// the keying; against men aged 21-40 (N 66.97/16.48, E 78.90/15.21, O
// 86.51/12.65, A 84.22/13.10, C 85.50/14.27) that is, by hand,
// z = (72 - mean) / sd: N 0.305, E -0.454, O -1.147, A -0.933, C -0.946,
// percentiles 62, 33, 13, 18, 17: I S T P, Turbulent.
func TestAllNeutralByHand(t *testing.T) {
	b, n := load(t)
	r, err := b.Score(answersAll(3), Profile{Sex: Male, Age: 30}, n)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Scale{
		"N": {72, 0.305, 62}, "E": {72, -0.454, 33}, "O": {72, -1.147, 13}, "A": {72, -0.933, 18}, "C": {72, -0.946, 17},
	}
	for d, w := range want {
		if !near(r.Domains[d], w) {
			t.Errorf("%s = %+v, want %+v", d, r.Domains[d], w)
		}
	}
	for f, s := range r.Facets {
		if s.Raw != 12 {
			t.Errorf("facet %s raw %d, want 12", f, s.Raw)
		}
	}
	if r.Type != "ISTP-T" || r.NormGroup != "M 21-40" || r.Norms != NormsVersion || r.Items != Reference {
		t.Errorf("type %s, group %s, norms %s, items %s", r.Type, r.NormGroup, r.Norms, r.Items)
	}
	if len(r.Facets) != 30 || len(r.Axes) != 5 {
		t.Errorf("%d facets, %d axes", len(r.Facets), len(r.Axes))
	}
}

// Answering 5 everywhere scores plus-keyed items 5 and minus-keyed items 1.
// The English keys per domain (plus/minus) are N 17/7, E 18/6, O 12/12,
// A 7/17, C 11/13, so the raw sums are N 92, E 96, O 72, A 52, C 68. Facet
// N1 is four plus-keyed items (20) and A2 four minus-keyed ones (4).
func TestReverseKeyingByHand(t *testing.T) {
	b, n := load(t)
	r, err := b.Score(answersAll(5), Profile{Sex: Male, Age: 30}, n)
	if err != nil {
		t.Fatal(err)
	}
	for d, raw := range map[string]int{"N": 92, "E": 96, "O": 72, "A": 52, "C": 68} {
		if r.Domains[d].Raw != raw {
			t.Errorf("%s raw %d, want %d", d, r.Domains[d].Raw, raw)
		}
	}
	if r.Facets["N1"].Raw != 20 || r.Facets["A2"].Raw != 4 {
		t.Errorf("N1 %d (want 20), A2 %d (want 4)", r.Facets["N1"].Raw, r.Facets["A2"].Raw)
	}
	// z: N (92-66.97)/16.48 = 1.519 -> 94; A (52-84.22)/13.10 = -2.460 -> 1.
	if !near(r.Domains["N"], Scale{92, 1.519, 94}) || !near(r.Domains["A"], Scale{52, -2.46, 1}) {
		t.Errorf("N %+v, A %+v", r.Domains["N"], r.Domains["A"])
	}
	if r.Type != "ESTP-T" {
		t.Errorf("type %s, want ESTP-T", r.Type)
	}
}

// keyedAnswers answers so that each domain's keyed item scores are 4 (high)
// or 2 (low): raw sums of 96 and 48, beyond every norm mean either way.
func keyedAnswers(b *Bank, high map[string]bool) []int {
	a := make([]int, ItemCount)
	for i, it := range b.Items {
		score := 2
		if high[it.Domain] {
			score = 4
		}
		if it.Minus {
			score = 6 - score
		}
		a[i] = score
	}
	return a
}

// For all 32 types, answers built for that type give it, and answering every
// item the opposite way (6 - answer) flips every letter.
func TestOppositeAnswersFlipEveryLetter(t *testing.T) {
	b, n := load(t)
	opposite := map[byte]byte{'E': 'I', 'I': 'E', 'N': 'S', 'S': 'N', 'F': 'T', 'T': 'F', 'J': 'P', 'P': 'J', 'A': 'T'}
	for mask := range 32 {
		high := map[string]bool{"E": mask&1 != 0, "O": mask&2 != 0, "A": mask&4 != 0, "C": mask&8 != 0, "N": mask&16 != 0}
		answers := keyedAnswers(b, high)
		for _, p := range []Profile{{}, {Sex: Female, Age: 19}, {Sex: Male, Age: 70}} {
			r, err := b.Score(answers, p, n)
			if err != nil {
				t.Fatal(err)
			}
			flipped := make([]int, ItemCount)
			for i, a := range answers {
				flipped[i] = 6 - a
			}
			o, err := b.Score(flipped, p, n)
			if err != nil {
				t.Fatal(err)
			}
			for i := range r.Type {
				want := r.Type[i]
				if want != '-' {
					want = opposite[want]
					if i == 5 && r.Type[i] == 'T' {
						want = 'A'
					}
				}
				if o.Type[i] != want {
					t.Errorf("%v: %s answered oppositely gives %s", p, r.Type, o.Type)
					break
				}
			}
		}
	}
}

// Percentiles 45 to 55 are borderline and name the neighbouring type; the
// letter follows the unrounded z-score, so a z just below 0 (shown as 50)
// is still the low pole.
func TestBorderlineBand(t *testing.T) {
	for _, tc := range []struct {
		pct        int
		z          float64
		letter     string
		borderline bool
	}{{1, -2.5, "I", false}, {44, -0.15, "I", false}, {45, -0.12, "I", true}, {49, -0.02, "I", true}, {50, -0.004, "I", true},
		{50, 0, "E", true}, {50, 0.004, "E", true}, {55, 0.12, "E", true}, {56, 0.15, "E", false}, {99, 2.5, "E", false}} {
		got := newAxis("E", "E", "I", Scale{Z: tc.z, Percentile: tc.pct})
		if got.Letter != tc.letter || got.Borderline != tc.borderline || got.HighPercent+got.LowPercent != 100 {
			t.Errorf("percentile %d: %+v, want %s borderline %v", tc.pct, got, tc.letter, tc.borderline)
		}
	}
	b, n := load(t)
	// A real answer set near the cut: raise Extraversion item by item until
	// it crosses its mean; the result is marked and its neighbour named.
	answers := answersAll(3)
	for i, it := range b.Items {
		if it.Domain != "E" {
			continue
		}
		s, err := b.Score(answers, Profile{Sex: Male, Age: 30}, n)
		if err != nil {
			t.Fatal(err)
		}
		if e := s.Axes[0]; e.HighPercent >= 45 && e.HighPercent <= 55 {
			if !e.Borderline || len(s.Neighbours) == 0 || s.Neighbours[0][0] == s.Type[0] {
				t.Fatalf("E at percentile %d: borderline %v, neighbours %v of %s", e.HighPercent, e.Borderline, s.Neighbours, s.Type)
			}
			return
		}
		if it.Minus {
			answers[i] = 1
		} else {
			answers[i] = 5
		}
	}
	t.Fatal("never reached the borderline band")
}

func TestIncompleteAnswersAreRefused(t *testing.T) {
	b, n := load(t)
	for _, a := range [][]int{answersAll(3)[:119], append(answersAll(3)[:119], 0), append(answersAll(3)[:119], 6)} {
		if _, err := b.Score(a, Profile{}, n); !errors.Is(err, ErrIncomplete) {
			t.Errorf("answers %v...: %v", a[115:], err)
		}
	}
}

// The pooled norm is the equal-weight mixture of the eight cells: for
// Neuroticism, mean 66.71875 and SD 16.4614 (by hand from norms.csv).
func TestNormGroups(t *testing.T) {
	_, n := load(t)
	for _, tc := range []struct {
		sex   Sex
		age   int
		label string
	}{
		{Male, 25, "M 21-40"}, {Female, 20, "F 10-20"}, {Female, 61, "F 61-99"}, {Female, 0, "F pooled ages"},
		{SexUnknown, 45, "pooled sexes 41-60"}, {SexUnknown, 0, "pooled"}, {Male, 5, "M pooled ages"}, {Male, 120, "M pooled ages"},
	} {
		if g := n.For(tc.sex, tc.age); g.Label != tc.label || len(g.Scales) != 35 {
			t.Errorf("For(%q, %d) = %s with %d scales, want %s", tc.sex, tc.age, g.Label, len(g.Scales), tc.label)
		}
	}
	pooled := n.For(SexUnknown, 0).Scales["N"]
	if math.Abs(pooled.Mean-66.71875) > 1e-9 || math.Abs(pooled.SD-16.4614) > 1e-4 {
		t.Errorf("pooled N = %+v", pooled)
	}
}

// BenchmarkScore measures scoring one complete answer set.
func BenchmarkScore(b *testing.B) {
	bank, n := load(b)
	answers := keyedAnswers(bank, map[string]bool{"E": true, "A": true})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bank.Score(answers, Profile{Sex: Female, Age: 33}, n); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBand(t *testing.T) {
	for p, want := range map[int]string{1: "low", 29: "low", 30: "mid", 69: "mid", 70: "high", 99: "high"} {
		if got := Band(p); got != want {
			t.Errorf("Band(%d) = %q, want %q", p, got, want)
		}
	}
}
