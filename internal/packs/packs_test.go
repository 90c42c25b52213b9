package packs

import (
	"slices"
	"testing"
)

func TestPlan(t *testing.T) {
	got := Plan(map[string]bool{MemberExclusive: true, AddPacks: true, "unknown": true})
	want := []string{AddPacks, MemberExclusive, AccessProduct}
	if !slices.Equal(got, want) {
		t.Fatalf("Plan = %v, want %v", got, want)
	}
	if n := Next(got, AddPacks); n != MemberExclusive {
		t.Errorf("Next(add_packs) = %q", n)
	}
	if n := Next(got, AccessProduct); n != "" {
		t.Errorf("Next(access_product) = %q, want the end", n)
	}
	if n := Next(got, DepthContent); n != "" {
		t.Errorf("Next of a step not in the plan = %q", n)
	}
	if got := Plan(nil); !slices.Equal(got, []string{AccessProduct}) {
		t.Errorf("Plan(nil) = %v", got)
	}
}

func TestNameAndSections(t *testing.T) {
	if Name("mbti-pack-career") != "career" || Name("mbti-report") != "" || Name("mbti-pack-unknown") != "" {
		t.Fatal("Name does not map pack SKUs to their content")
	}
	s := Sections("relationships", map[string]int{"A1": 12, "A4": 50, "A6": 88, "E1": 30, "N2": 69})
	keys := make([]string, len(s))
	for i, x := range s {
		keys[i] = x.Key
	}
	want := []string{
		"pack.relationships.facet.A1.low", "pack.relationships.facet.A4.mid", "pack.relationships.facet.A6.high",
		"pack.relationships.facet.E1.mid", "pack.relationships.facet.N2.mid",
	}
	if !slices.Equal(keys, want) {
		t.Fatalf("Sections keys = %v\nwant %v", keys, want)
	}
}
