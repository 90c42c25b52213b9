package tracking

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"selfmap/internal/consent"
)

var all = Config{
	Pixels:     map[string]string{"meta": "111", "tiktok": "T22", "snapchat": "s-3", "bing": "444", "kwai": "k5"},
	TagManager: "GTM-1", SessionReplay: "c1", BotProtection: "0x1",
}

func TestDecide(t *testing.T) {
	q := func(s string) url.Values { v, _ := url.ParseQuery(s); return v }
	for _, tc := range []struct {
		name   string
		choice consent.State
		query  string
		want   Plan
	}{
		{"undecided, even from an ad click", consent.State{}, "fbclid=1&ttclid=2", nil},
		{"rejected", consent.State{Decided: true}, "fbclid=1", nil},
		{"analytics only", consent.State{Decided: true, Analytics: true}, "fbclid=1",
			Plan{{"tagmanager", "GTM-1"}, {"sessionreplay", "c1"}, {"botprotection", "0x1"}}},
		{"marketing without a click id", consent.State{Decided: true, Marketing: true}, "hl=EN&gclid=9", nil},
		{"marketing from two clicks", consent.State{Decided: true, Marketing: true}, "fbclid=1&tt_test_id=2", Plan{{"meta", "111"}, {"tiktok", "T22"}}},
		{"every parameter", consent.State{Decided: true, Marketing: true}, "pixel_id=1&ScCid=2&MSCLKID=3&fbclid=4&ttclid=5",
			Plan{{"bing", "444"}, {"kwai", "k5"}, {"meta", "111"}, {"snapchat", "s-3"}, {"tiktok", "T22"}}},
		{"click_id for the short-video network", consent.State{Decided: true, Marketing: true}, "click_id=1", Plan{{"kwai", "k5"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Decide(all, tc.choice, q(tc.query)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Decide = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseRefusesWhatCouldReachAScript(t *testing.T) {
	for _, raw := range []string{
		`{"pixels":{"meta":"1\"};alert(1)//"}}`,
		`{"pixels":{"tagmanager":"GTM-1"}}`,
		`{"pixels":{"myspace":"1"}}`,
		`{"tagManager":"<script>"}`,
		`not json`,
	} {
		if _, err := Parse(raw); err == nil {
			t.Errorf("Parse(%s) accepted it", raw)
		}
	}
	c, err := Parse(`{"pixels":{"meta":"123"},"tagManager":"GTM-AB_1"}`)
	if err != nil || c.Pixels["meta"] != "123" || c.TagManager != "GTM-AB_1" {
		t.Errorf("Parse = %+v, %v", c, err)
	}
	if c, err := Parse(""); err != nil || len(c.Pixels) != 0 {
		t.Errorf("empty: %+v %v", c, err)
	}
}

func TestOriginsOfAPlan(t *testing.T) {
	o := Plan{{"meta", "1"}, {"tiktok", "2"}, {"meta", "1"}}.Origins()
	if got := strings.Join(o.Script, " "); got != "https://connect.facebook.net https://analytics.tiktok.com" {
		t.Errorf("script origins %q", got)
	}
	if len(Plan(nil).Origins().Script) != 0 {
		t.Error("an empty plan needs no origin")
	}
}
