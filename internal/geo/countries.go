// Package geo lists the countries and regions a visitor can choose, named
// in the visitor's language from CLDR data (golang.org/x/text).
package geo

import (
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"selfmap/internal/i18n"
)

// codes are the ISO 3166-1 alpha-2 codes of countries and territories.
const codes = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
	"CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
	"GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
	"KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT " +
	"MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
	"SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG " +
	"UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"

// Country is a selectable country or region.
type Country struct {
	Code string
	Name string
}

// lists holds the list of every locale, built once on first use and never
// changed after.
var lists = sync.OnceValue(func() map[string][]Country {
	out := map[string][]Country{}
	for _, l := range i18n.Locales {
		out[l.Tag] = build(l.Tag)
	}
	return out
})

// Countries returns every country named in the locale, in that language's
// alphabetical order (English for a locale we do not speak).
func Countries(locale string) []Country {
	if list, ok := lists()[locale]; ok {
		return list
	}
	return lists()[i18n.Default.Tag]
}

func build(locale string) []Country {
	tag := language.Make(locale)
	namer := display.Regions(tag)
	var list []Country
	for _, code := range strings.Fields(codes) {
		r := language.MustParseRegion(code)
		name := namer.Name(r)
		if name == "" {
			name = display.English.Regions().Name(r)
		}
		list = append(list, Country{Code: code, Name: name})
	}
	col := collate.New(tag)
	slices.SortFunc(list, func(a, b Country) int { return col.CompareString(a.Name, b.Name) })
	return list
}

// Valid reports whether code is one of the listed ISO codes.
func Valid(code string) bool {
	return len(code) == 2 && strings.Contains(" "+codes+" ", " "+code+" ")
}

// names maps each locale's country codes to their names, built once.
var names = sync.OnceValue(func() map[string]map[string]string {
	out := map[string]map[string]string{}
	for tag, list := range lists() {
		m := make(map[string]string, len(list))
		for _, c := range list {
			m[c.Code] = c.Name
		}
		out[tag] = m
	}
	return out
})

// Name returns a country's name in the locale, or "" for an unknown code.
func Name(locale, code string) string {
	m, ok := names()[locale]
	if !ok {
		m = names()[i18n.Default.Tag]
	}
	return m[code]
}

// FromAcceptLanguage returns the country a browser states in its preferred
// language ("de-AT,de;q=0.9" is AT), and false when the preferred language
// names none: "ja" or "en" alone says nothing certain about where a visitor
// is, so no country is guessed.
func FromAcceptLanguage(header string) (string, bool) {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return "", false
	}
	r, conf := tags[0].Region()
	if conf != language.Exact || !Valid(r.String()) {
		return "", false
	}
	return r.String(), true
}

// englishThe are the countries English names with "the" inside a sentence.
var englishThe = map[string]bool{
	"AE": true, "BS": true, "CF": true, "DO": true, "FK": true, "FO": true, "GB": true, "GM": true, "KM": true, "KY": true,
	"MH": true, "MP": true, "MV": true, "NL": true, "PH": true, "SB": true, "SC": true, "TC": true, "US": true, "VG": true, "VI": true,
}

// NameInSentence is Name as it reads after a preposition ("in the United
// States"). Only English needs this; the other locales' messages are worded
// so that the bare name fits.
func NameInSentence(locale, code string) string {
	n := Name(locale, code)
	if n != "" && englishThe[code] && locale == i18n.Default.Tag {
		return "the " + n
	}
	return n
}
