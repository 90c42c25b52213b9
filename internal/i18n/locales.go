// Package i18n holds the nine locales, how a request's locale is chosen, and
// the translator that views and handlers use.
package i18n

import (
	"strings"

	"golang.org/x/text/language"
)

// Locale is one language the product speaks.
type Locale struct {
	// Tag is the BCP 47 tag, used for <html lang>, hreflang and message files.
	Tag string
	// Spec is the upper-case code of the hl parameter (EN, CN, HK, ...).
	Spec string
	// Prefix is the URL path prefix, empty for the default locale.
	Prefix string
	// Name is the language's own name, for the language switcher.
	Name string
}

// FamilyNameFirst reports whether the locale writes a person's family name
// before the given name (Chinese, Japanese and Korean): the order of the
// name fields, and of a name put together from them.
func (l Locale) FamilyNameFirst() bool {
	switch l.Tag {
	case "ja", "ko", "zh-CN", "zh-HK":
		return true
	}
	return false
}

// Locales lists every locale, the default first.
var Locales = []Locale{
	{Tag: "en", Spec: "EN", Prefix: "", Name: "English"},
	{Tag: "zh-CN", Spec: "CN", Prefix: "/zh-cn", Name: "简体中文"},
	{Tag: "zh-HK", Spec: "HK", Prefix: "/zh-hk", Name: "繁體中文"},
	{Tag: "fr", Spec: "FR", Prefix: "/fr", Name: "Français"},
	{Tag: "es", Spec: "ES", Prefix: "/es", Name: "Español"},
	{Tag: "ja", Spec: "JA", Prefix: "/ja", Name: "日本語"},
	{Tag: "de", Spec: "DE", Prefix: "/de", Name: "Deutsch"},
	{Tag: "pt", Spec: "PT", Prefix: "/pt", Name: "Português"},
	{Tag: "ko", Spec: "KR", Prefix: "/ko", Name: "한국어"},
}

// Default is the locale used when nothing else decides.
var Default = Locales[0]

// matcher lists the locales in the order of Locales. Chinese is matched by
// script, so that zh-TW and zh-Hant find the Traditional locale.
var matcher = language.NewMatcher([]language.Tag{
	language.English,
	language.MustParse("zh-Hans"),
	language.MustParse("zh-Hant"),
	language.French,
	language.Spanish,
	language.Japanese,
	language.German,
	language.MustParse("pt-BR"),
	language.Korean,
})

// BySpec finds a locale by its hl code, ignoring case.
func BySpec(hl string) (Locale, bool) {
	hl = strings.ToUpper(strings.TrimSpace(hl))
	for _, l := range Locales {
		if l.Spec == hl {
			return l, true
		}
	}
	return Locale{}, false
}

// ByTag finds a locale by its tag, ignoring case.
func ByTag(tag string) (Locale, bool) {
	for _, l := range Locales {
		if strings.EqualFold(l.Tag, tag) {
			return l, true
		}
	}
	return Locale{}, false
}

// SplitPath separates a locale prefix from a request path: "/fr/types" gives
// fr and "/types"; a path without a known prefix belongs to the default
// locale. The bool reports whether a prefix was present.
func SplitPath(path string) (Locale, string, bool) {
	for _, l := range Locales[1:] {
		if path == l.Prefix {
			return l, "/", true
		}
		if strings.HasPrefix(path, l.Prefix+"/") {
			return l, path[len(l.Prefix):], true
		}
	}
	return Default, path, false
}

// Path returns the locale's URL for a path of the default locale.
func (l Locale) Path(path string) string {
	if l.Prefix == "" {
		return path
	}
	return l.Prefix + path
}

// FromAcceptLanguage picks the best supported locale for an Accept-Language
// header; ok is false when the header names nothing we speak.
func FromAcceptLanguage(header string) (Locale, bool) {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return Default, false
	}
	_, idx, conf := matcher.Match(tags...)
	if conf == language.No {
		return Default, false
	}
	return Locales[idx], true
}
