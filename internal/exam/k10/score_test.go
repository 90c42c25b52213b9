package k10

import "testing"

// answersFor spreads a sum over the ten items, 1-5 each.
func answersFor(sum int) []int {
	a := make([]int, ItemCount)
	extra := sum - ItemCount*ScaleMin
	for i := range a {
		a[i] = ScaleMin + min(extra, ScaleMax-ScaleMin)
		extra -= a[i] - ScaleMin
	}
	return a
}

// Sums and bands computed by hand from Andrews & Slade (2001): 10-15 low,
// 16-21 moderate, 22-29 high, 30-50 very high. Every edge is here.
func TestScoreSumsAndBands(t *testing.T) {
	cases := []struct {
		answers []int
		sum     int
		band    Band
	}{
		{[]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 10, Low},
		{[]int{2, 2, 2, 2, 2, 1, 1, 1, 1, 1}, 15, Low},
		{[]int{2, 2, 2, 2, 2, 2, 1, 1, 1, 1}, 16, Moderate},
		{[]int{3, 3, 3, 2, 2, 2, 2, 2, 1, 1}, 21, Moderate},
		{[]int{3, 3, 3, 3, 2, 2, 2, 2, 1, 1}, 22, High},
		{[]int{4, 4, 3, 3, 3, 3, 3, 2, 2, 2}, 29, High},
		{[]int{4, 4, 3, 3, 3, 3, 3, 3, 2, 2}, 30, VeryHigh},
		{[]int{5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, 50, VeryHigh},
	}
	for _, c := range cases {
		r, err := Score(c.answers)
		if err != nil {
			t.Fatalf("%v: %v", c.answers, err)
		}
		if r.Sum != c.sum || r.Band != c.band || r.Crisis != (c.band == VeryHigh) {
			t.Errorf("%v: sum %d %s crisis %v, want %d %s", c.answers, r.Sum, r.Band, r.Crisis, c.sum, c.band)
		}
	}
}

func TestEverySumHasItsBand(t *testing.T) {
	want := func(s int) Band {
		switch {
		case s <= 15:
			return Low
		case s <= 21:
			return Moderate
		case s <= 29:
			return High
		}
		return VeryHigh
	}
	for s := 10; s <= 50; s++ {
		r, err := Score(answersFor(s))
		if err != nil || r.Sum != s || r.Band != want(s) {
			t.Errorf("sum %d: got %d %s (%v), want %s", s, r.Sum, r.Band, err, want(s))
		}
	}
}

// The crisis rule is the top band: 29 is high and shows no crisis
// resources, 30 is very high and does.
func TestCrisisStartsAtThirty(t *testing.T) {
	r29, _ := Score(answersFor(29))
	r30, _ := Score(answersFor(30))
	if r29.Sum != 29 || r29.Band != High || r29.Crisis {
		t.Errorf("29: %+v, want high without crisis", r29)
	}
	if r30.Sum != 30 || r30.Band != VeryHigh || !r30.Crisis {
		t.Errorf("30: %+v, want very high with crisis", r30)
	}
	if b := BandOf(29.9); b != High {
		t.Errorf("BandOf(29.9) = %s, want high: the band comes from the unrounded sum", b)
	}
}

func TestScoreRefusesBadSets(t *testing.T) {
	for _, a := range [][]int{nil, make([]int, 10), answersFor(30)[:9], {1, 1, 1, 1, 1, 1, 1, 1, 1, 6}} {
		if _, err := Score(a); err == nil {
			t.Errorf("%v: accepted", a)
		}
	}
}
