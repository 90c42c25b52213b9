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

func TestShareStartsEvenAndFollowsTheData(t *testing.T) {
	if s := Share(0, 0); math.Abs(s-6.25) > 1e-9 {
		t.Errorf("no data: %v, want the even 6.25", s)
	}
	if s := Share(5000, 10000); math.Abs(s-49.3) > 0.1 {
		t.Errorf("half of 10000: %v, want about 49.3", s)
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
