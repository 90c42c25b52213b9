// Package phq9 scores the Patient Health Questionnaire-9 (Kroenke, Spitzer
// & Williams 2001; free to use, developed with a grant from Pfizer): nine
// items answered 0-3 over the last two weeks, summed 0-27 into the
// published severity bands, with item 9 as the crisis signal. Its items and
// answer scale are data, one file per locale in items/ (items/README.md),
// each with its provenance and, for a translation, the review of each item.
// The package is pure: no I/O beyond its embedded data, no clock.
package phq9

import (
	"embed"
	"fmt"

	"selfmap/internal/exam/itembank"
)

// ItemCount is the number of items.
const ItemCount = 9

// ScaleMin and ScaleMax bound an answer: 0 "Not at all" to 3 "Nearly every
// day".
const (
	ScaleMin = 0
	ScaleMax = 3
)

// CrisisItem is the position of item 9, thoughts that you would be better
// off dead or of hurting yourself.
const CrisisItem = 8

// Version names the item files' revision: stored with every result.
const Version = "phq-9@1"

// Locales are the locales the items ship in, English first.
var Locales = []string{"en", "zh-CN", "zh-HK", "fr", "es", "ja", "de", "pt", "ko"}

// IDs are the item ids in the questionnaire's order, phq9-1 to phq9-9.
var IDs = func() []string {
	ids := make([]string, ItemCount)
	for i := range ids {
		ids[i] = fmt.Sprintf("phq9-%d", i+1)
	}
	return ids
}()

//go:embed items/*.tsv
var itemFiles embed.FS

// LoadBank reads the embedded item files, refusing a file that does not fit
// (itembank.Load names the file and line).
func LoadBank() (*itembank.Bank, error) {
	return itembank.Load(itemFiles, itembank.Spec{Name: "phq9", IDs: IDs, Min: ScaleMin, Max: ScaleMax, Locales: Locales})
}
