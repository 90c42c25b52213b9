package ipipneo

import (
	"strconv"
	"strings"

	neo "selfmap/internal/exam/ipipneo"
	"selfmap/internal/i18n"
	"selfmap/internal/report"
)

// shareOf words one share of results: "12.5% of 1,204 results" when the
// group has report.MinSample results, otherwise that there are too few.
func shareOf(t *i18n.Translator, l i18n.Locale, label string, sh report.Share) Share {
	out := Share{Label: t.T(label), Enough: sh.Enough()}
	if out.Enough {
		out.Value = t.TD("shares.value", map[string]any{"Percent": formatPercent(sh.Percent(), l.Tag), "N": sh.N})
	} else {
		out.Value = t.TD("shares.too_few", map[string]any{"N": sh.N, "Min": report.MinSample})
	}
	return out
}

// normGroupWords names a norm group in words ("women aged 21 to 40"),
// never by its stored code.
func normGroupWords(t *i18n.Translator, g neo.NormGroup) string {
	who := "people"
	switch g.Sex {
	case neo.Female:
		who = "women"
	case neo.Male:
		who = "men"
	}
	if g.AgeMin == 0 {
		return t.T("norms.group." + who + "_all")
	}
	return t.TD("norms.group."+who+"_band", map[string]any{"Min": g.AgeMin, "Max": g.AgeMax})
}

// normLine puts a domain's raw score beside its comparison group's mean and
// standard deviation; "" when the group is not known.
func normLine(t *i18n.Translator, l i18n.Locale, sc neo.Scale, g neo.NormGroup, domain string) string {
	n, ok := g.Scales[domain]
	if !ok {
		return ""
	}
	return t.TD("norms.scale", map[string]any{"Raw": sc.Raw, "Min": 24, "Max": 120,
		"Mean": formatDecimal(n.Mean, l.Tag), "SD": formatDecimal(n.SD, l.Tag)})
}

// formatDecimal writes a number with one decimal and the locale's decimal
// mark: a comma in French, Spanish, German and Portuguese.
func formatDecimal(v float64, tag string) string {
	n := strconv.FormatFloat(v, 'f', 1, 64)
	switch tag {
	case "fr", "es", "de", "pt":
		return strings.Replace(n, ".", ",", 1)
	}
	return n
}

// formatPercent writes a share with one decimal as the locale writes
// percentages: 6.3% in English, Chinese, Japanese and Korean, 6,3 % in
// French, Spanish and German (a no-break space), 6,3% in Portuguese.
func formatPercent(v float64, tag string) string {
	n := formatDecimal(v, tag)
	switch tag {
	case "fr", "es", "de":
		return n + "\u00a0%"
	}
	return n + "%"
}
