package phq9

import "testing"

// answersFor spreads a sum over the nine items, 0-3 each, item 9 left at 0
// unless the sum needs it.
func answersFor(sum int) []int {
	a := make([]int, ItemCount)
	for i := range a {
		a[i] = min(sum, ScaleMax)
		sum -= a[i]
	}
	return a
}

// Sums and bands computed by hand from Kroenke, Spitzer & Williams (2001):
// 0-4 minimal, 5-9 mild, 10-14 moderate, 15-19 moderately severe, 20-27
// severe. Every edge of every band is here.
func TestScoreSumsAndBands(t *testing.T) {
	cases := []struct {
		answers []int
		sum     int
		band    Band
		crisis  bool
	}{
		{[]int{0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, Minimal, false},
		{[]int{1, 1, 1, 1, 0, 0, 0, 0, 0}, 4, Minimal, false},
		{[]int{1, 1, 1, 1, 1, 0, 0, 0, 0}, 5, Mild, false},
		{[]int{2, 2, 2, 1, 1, 1, 0, 0, 0}, 9, Mild, false},
		{[]int{2, 2, 2, 2, 1, 1, 0, 0, 0}, 10, Moderate, false},
		{[]int{3, 3, 2, 2, 2, 2, 0, 0, 0}, 14, Moderate, false},
		{[]int{3, 3, 3, 2, 2, 2, 0, 0, 0}, 15, ModeratelySevere, false},
		{[]int{3, 3, 3, 3, 3, 2, 2, 0, 0}, 19, ModeratelySevere, false},
		{[]int{3, 3, 3, 3, 3, 3, 2, 0, 0}, 20, Severe, false},
		{[]int{3, 3, 3, 3, 3, 3, 3, 3, 3}, 27, Severe, true},
		{[]int{2, 1, 3, 0, 2, 1, 0, 1, 1}, 11, Moderate, true},
	}
	for _, c := range cases {
		r, err := Score(c.answers)
		if err != nil {
			t.Fatalf("%v: %v", c.answers, err)
		}
		if r.Sum != c.sum || r.Band != c.band || r.Crisis != c.crisis {
			t.Errorf("%v: sum %d %s crisis %v, want %d %s %v", c.answers, r.Sum, r.Band, r.Crisis, c.sum, c.band, c.crisis)
		}
	}
}

// Every sum from 0 to 27 falls in exactly the band of the published table.
func TestEverySumHasItsBand(t *testing.T) {
	want := func(s int) Band {
		switch {
		case s <= 4:
			return Minimal
		case s <= 9:
			return Mild
		case s <= 14:
			return Moderate
		case s <= 19:
			return ModeratelySevere
		}
		return Severe
	}
	for s := 0; s <= 27; s++ {
		r, err := Score(answersFor(s))
		if err != nil || r.Sum != s || r.Band != want(s) {
			t.Errorf("sum %d: got %d %s (%v), want %s", s, r.Sum, r.Band, err, want(s))
		}
	}
}

// Item 9 alone above 0 is the crisis signal, whatever the total: a sum of
// 1 (minimal) still shows crisis resources. No other item raises it.
func TestItemNineAloneIsTheCrisisSignal(t *testing.T) {
	for v := 1; v <= ScaleMax; v++ {
		a := make([]int, ItemCount)
		a[CrisisItem] = v
		r, err := Score(a)
		if err != nil || !r.Crisis || r.Sum != v || r.Band != Minimal {
			t.Errorf("item 9 = %d: %+v %v, want crisis at sum %d, minimal", v, r, err, v)
		}
	}
	a := []int{3, 3, 3, 3, 3, 3, 3, 3, 0}
	if r, _ := Score(a); r.Crisis || r.Band != Severe {
		t.Errorf("items 1-8 at 3, item 9 at 0: %+v, want severe without the crisis flag", r)
	}
}

// A band is decided from the unrounded value: 4.9 is still minimal, 19.5
// moderately severe.
func TestBandOfUnroundedSums(t *testing.T) {
	for _, c := range []struct {
		sum  float64
		band Band
	}{{4.9, Minimal}, {5, Mild}, {9.99, Mild}, {14.5, Moderate}, {19.5, ModeratelySevere}, {20, Severe}} {
		if got := BandOf(c.sum); got != c.band {
			t.Errorf("BandOf(%v) = %s, want %s", c.sum, got, c.band)
		}
	}
}

func TestScoreRefusesBadSets(t *testing.T) {
	for _, a := range [][]int{nil, make([]int, 8), make([]int, 10), {0, 0, 0, 0, 0, 0, 0, 0, 4}, {-1, 0, 0, 0, 0, 0, 0, 0, 0}} {
		if _, err := Score(a); err == nil {
			t.Errorf("%v: accepted", a)
		}
	}
}
