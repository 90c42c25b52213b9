package geo

import "testing"

func TestCountriesAreNamedInTheLocale(t *testing.T) {
	for locale, want := range map[string]string{"en": "Germany", "de": "Deutschland", "ja": "ドイツ", "ko": "독일", "zh-CN": "德国", "zh-HK": "德國", "fr": "Allemagne", "es": "Alemania", "pt": "Alemanha"} {
		found := false
		for _, c := range Countries(locale) {
			if c.Code == "DE" {
				found = c.Name == want
			}
			if c.Name == "" {
				t.Errorf("%s: %s has no name", locale, c.Code)
			}
		}
		if !found {
			t.Errorf("%s: DE is not named %q", locale, want)
		}
	}
	if !Valid("KR") || Valid("XX") || Valid("k") || Valid("KR ") {
		t.Error("Valid is wrong")
	}
}
