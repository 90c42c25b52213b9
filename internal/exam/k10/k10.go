// Package k10 scores the Kessler Psychological Distress Scale (Kessler et
// al. 2002; free to use): ten items answered 1-5 over the last 30 days,
// summed 10-50 into the bands of Andrews & Slade (2001), the top band being
// the crisis signal. Its items and answer scale are data, one file per
// locale in items/ (items/README.md), each with its provenance and, for a
// translation, the review of each item. The package is pure: no I/O beyond
// its embedded data, no clock.
package k10

import (
	"embed"
	"fmt"

	"selfmap/internal/exam/itembank"
)

// ItemCount is the number of items.
const ItemCount = 10

// ScaleMin and ScaleMax bound an answer: 1 "None of the time" to 5 "All of
// the time".
const (
	ScaleMin = 1
	ScaleMax = 5
)

// Version names the item files' revision: stored with every result.
const Version = "k10@1"

// Locales are the locales the items ship in, English first.
var Locales = []string{"en", "zh-CN", "zh-HK", "fr", "es", "ja", "de", "pt", "ko"}

// IDs are the item ids in the questionnaire's order, k10-1 to k10-10.
var IDs = func() []string {
	ids := make([]string, ItemCount)
	for i := range ids {
		ids[i] = fmt.Sprintf("k10-%d", i+1)
	}
	return ids
}()

//go:embed items/*.tsv
var itemFiles embed.FS

// LoadBank reads the embedded item files, refusing a file that does not fit
// (itembank.Load names the file and line).
func LoadBank() (*itembank.Bank, error) {
	return itembank.Load(itemFiles, itembank.Spec{Name: "k10", IDs: IDs, Min: ScaleMin, Max: ScaleMax, Locales: Locales})
}
