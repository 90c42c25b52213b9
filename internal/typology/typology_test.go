package typology

import (
	"slices"
	"testing"
)

func TestCodesAreTheSixteenCombinations(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Codes {
		for i, a := range Axes {
			if c[i] != a.High && c[i] != a.Low {
				t.Errorf("%s: letter %d is not %c or %c", c, i, a.High, a.Low)
			}
		}
		seen[c] = true
	}
	if len(seen) != 16 {
		t.Fatalf("%d distinct codes, want 16", len(seen))
	}
	for _, g := range Groups {
		n := 0
		for _, c := range Codes {
			if Group(c) == g {
				n++
			}
		}
		if n != 4 {
			t.Errorf("group %s has %d types, want 4", g, n)
		}
	}
}

func TestNormalizeAndNeighbours(t *testing.T) {
	for in, want := range map[string]string{"intj": "INTJ", "EnFp": "ENFP", "INTJ-A": "", "ABCD": "", "": ""} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Neighbours("INTJ"); !slices.Equal(got, []string{"ENTJ", "ISTJ", "INFJ", "INTP"}) {
		t.Errorf("Neighbours(INTJ) = %v", got)
	}
	if Group("ISFP") != "SP" || Group("ESTJ") != "SJ" || Group("ENFJ") != "NF" || Group("INTP") != "NT" {
		t.Error("groups are wrong")
	}
}
