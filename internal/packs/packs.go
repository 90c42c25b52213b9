// Package packs is the upsell after a paid report: the steps a buyer walks
// through, the pack each step offers, and the content a bought pack
// unlocks, chosen from the buyer's own facet scores.
package packs

import (
	"slices"
	"strings"

	"selfmap/internal/exam/ipipneo"
	"selfmap/internal/store"
)

// The steps of /paying/package, in order. A step is shown when it has an
// offer for the buyer; access_product, the last, always is.
const (
	SkipTrial       = "skip_trial"
	AddPacks        = "add_packs"
	DepthContent    = "depth_content"
	MemberExclusive = "member_exclusive"
	AccessProduct   = "access_product"
)

// Steps lists every step in order.
var Steps = []string{SkipTrial, AddPacks, DepthContent, MemberExclusive, AccessProduct}

// Plan is the steps a buyer sees: the given offered steps in the order of
// Steps, then access_product.
func Plan(offered map[string]bool) []string {
	var out []string
	for _, s := range Steps {
		if offered[s] || s == AccessProduct {
			out = append(out, s)
		}
	}
	return out
}

// Next is the step after step in plan, or "" after the last.
func Next(plan []string, step string) string {
	for i, s := range plan {
		if s == step && i+1 < len(plan) {
			return plan[i+1]
		}
	}
	return ""
}

// skuPrefix starts the id of every pack SKU of the 16-type test; the rest
// names the pack's content.
const skuPrefix = "mbti-pack-"

// Facets lists, per pack, the facets whose scores choose its sections
// (docs/payments.md, "Packs", explains the choice).
var Facets = map[string][]string{
	"relationships": {"A1", "A4", "A6", "E1", "N2"},
	"career":        {"C4", "C5", "E3", "O5", "C2"},
	"growth":        {"N1", "N6", "C1", "O4", "E6"},
}

// Offered reports whether a SKU is a pack the upsell can sell: a pack of a
// step, with content here.
func Offered(sku store.SKU) bool {
	return sku.Kind == store.OrderPack && sku.Step.Valid && slices.Contains(Steps, sku.Step.String) && Name(sku.ID) != ""
}

// Name is the content name of a pack SKU ("mbti-pack-career" -> "career"),
// or "" when the SKU has no content here.
func Name(skuID string) string {
	name, ok := strings.CutPrefix(skuID, skuPrefix)
	if _, known := Facets[name]; !ok || !known {
		return ""
	}
	return name
}

// Section is one unlocked section: a facet, its percentile, and the message
// key of the text for its level.
type Section struct {
	Facet      string
	Percentile int
	Key        string
}

// Sections chooses the sections of a pack for a buyer's facet
// percentiles, in the pack's order.
func Sections(pack string, percentiles map[string]int) []Section {
	var out []Section
	for _, f := range Facets[pack] {
		p := percentiles[f]
		out = append(out, Section{Facet: f, Percentile: p, Key: "pack." + pack + ".facet." + f + "." + ipipneo.Band(p)})
	}
	return out
}
