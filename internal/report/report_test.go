package report

import (
	"math"
	"testing"

	"selfmap/internal/exam/ipipneo"
)

func TestLeanLevel(t *testing.T) {
	for p, want := range map[int]int{50: 1, 59: 1, 60: 2, 75: 3, 89: 4, 90: 5, 99: 5} {
		if got := LeanLevel(p); got != want {
			t.Errorf("LeanLevel(%d) = %d, want %d", p, got, want)
		}
	}
}

func TestLeansFollowTheLetters(t *testing.T) {
	r := ipipneo.Result{Axes: []ipipneo.Axis{
		{Domain: "E", High: "E", Low: "I", Letter: "I", HighPercent: 12, LowPercent: 88},
		{Domain: "O", High: "N", Low: "S", Letter: "N", HighPercent: 53, LowPercent: 47},
		{Domain: "A", High: "F", Low: "T", Letter: "F", HighPercent: 99, LowPercent: 1},
		{Domain: "C", High: "J", Low: "P", Letter: "P", HighPercent: 40, LowPercent: 60},
		{Domain: "N", High: "T", Low: "A", Letter: "A", HighPercent: 20, LowPercent: 80},
	}}
	got := Leans(r)
	want := []Lean{{"E", "I", "E", 88, 4, "E", 12}, {"O", "N", "S", 53, 1, "N", 53}, {"A", "F", "T", 99, 5, "F", 99}, {"C", "P", "J", 60, 2, "J", 40}}
	if len(got) != len(want) {
		t.Fatalf("Leans = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("lean %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A share is plain counting, shown only from MinSample results on.
func TestShareNeedsASample(t *testing.T) {
	for _, tc := range []struct {
		s      Share
		enough bool
		pct    float64
	}{{Share{0, 0}, false, 0}, {Share{3, 12}, false, 25}, {Share{12, 199}, false, 100 * 12.0 / 199}, {Share{25, 200}, true, 12.5}} {
		if tc.s.Enough() != tc.enough || math.Abs(tc.s.Percent()-tc.pct) > 1e-9 {
			t.Errorf("%+v: enough %v %.3f%%, want %v %.3f%%", tc.s, tc.s.Enough(), tc.s.Percent(), tc.enough, tc.pct)
		}
	}
}

func TestRankAmong(t *testing.T) {
	sorted := []int{10, 20, 20, 30, 40}
	for v, want := range map[int]int{5: 0, 20: 20, 25: 60, 41: 100} {
		if got := RankAmong(sorted, v); got != want {
			t.Errorf("RankAmong(%d) = %d, want %d", v, got, want)
		}
	}
	if RankAmong(nil, 50) != 0 {
		t.Error("no results")
	}
}
