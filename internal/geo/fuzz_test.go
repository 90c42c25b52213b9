package geo

import "testing"

// FuzzFromAcceptLanguage reads browsers' Accept-Language headers: no
// panic, and a country it returns is one of ours.
func FuzzFromAcceptLanguage(f *testing.F) {
	f.Add("de-AT,de;q=0.9,en;q=0.8")
	f.Add("zh-Hant-HK")
	f.Add(";;;q=,,-")
	f.Fuzz(func(t *testing.T, header string) {
		if c, ok := FromAcceptLanguage(header); ok && !Valid(c) {
			t.Fatalf("%q gave the country %q", header, c)
		}
	})
}
