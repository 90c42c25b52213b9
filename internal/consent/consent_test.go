package consent

import "testing"

func TestParseRoundTrip(t *testing.T) {
	for _, s := range []State{
		{Decided: true},
		{Decided: true, Analytics: true},
		{Decided: true, Marketing: true},
		{Decided: true, Analytics: true, Marketing: true},
	} {
		if got := Parse(s.String()); got != s {
			t.Errorf("Parse(%q) = %+v; want %+v", s.String(), got, s)
		}
	}
}

func TestParseRejectsAnythingElse(t *testing.T) {
	for _, v := range []string{"", "yes", "v1.a1", "v2.a1.m1", "v1.a2.m0", "v1.m1.a1", "v1.a1.m1.x"} {
		if got := Parse(v); got != (State{}) {
			t.Errorf("Parse(%q) = %+v; want undecided", v, got)
		}
	}
}
