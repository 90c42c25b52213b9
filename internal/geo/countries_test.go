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

func TestFromAcceptLanguage(t *testing.T) {
	for header, want := range map[string]string{
		"de-AT,de;q=0.9": "AT", "en-GB": "GB", "pt-BR,pt;q=0.8,en;q=0.5": "BR", "zh-TW": "TW",
		"ja,en-US;q=0.9": "", "en": "", "": "", "!!": "", "en;q=0.1,fr-CA": "CA", "es-419": "",
	} {
		got, ok := FromAcceptLanguage(header)
		if got != want || ok != (want != "") {
			t.Errorf("FromAcceptLanguage(%q) = %q, %t; want %q", header, got, ok, want)
		}
	}
	if NameInSentence("en", "US") != "the United States" || NameInSentence("en", "DE") != "Germany" || NameInSentence("fr", "US") != "États-Unis" {
		t.Error("NameInSentence is wrong")
	}
	if Name("fr", "DE") != "Allemagne" || Name("xx", "DE") != "Germany" || Name("en", "XX") != "" {
		t.Error("Name is wrong")
	}
}

func TestUsesPostalCode(t *testing.T) {
	for c, want := range map[string]bool{"HK": false, "AE": false, "MO": false, "IE": true, "DE": true, "US": true, "JP": true, "": true, "*": true} {
		if got := UsesPostalCode(c); got != want {
			t.Errorf("UsesPostalCode(%q) = %v, want %v", c, got, want)
		}
	}
}
