// Package ipipneo scores the IPIP-NEO-120 (Johnson 2014): 120 public-domain
// IPIP items, five domains of six facets, answered on a 1-5 scale. The items
// come from the npm package @alheimsins/b5-johnson-120-ipip-neo-pi-r (pinned,
// exported at build time by scripts/export-items.mjs); the norms are Johnson's
// (norms.csv, with its source line). The package is pure: no I/O beyond its
// embedded data, no clock.
package ipipneo

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// ItemCount is the number of items of the inventory.
const ItemCount = 120

// Domains lists the five domains in the inventory's order.
var Domains = []string{"N", "E", "O", "A", "C"}

// Item is one statement with its scoring key, taken from the English data.
type Item struct {
	ID     string
	Domain string
	Facet  int
	// FacetCode names the facet, e.g. "N1".
	FacetCode string
	// Minus marks a reverse-keyed item: an answer a scores 6 - a.
	Minus bool
}

// Bank is the inventory: items in the fixed order of the exam version, and
// their text in every locale.
type Bank struct {
	// Version names the item source, e.g. "@alheimsins/...@6.0.13".
	Version string
	Items   []Item
	byID    map[string]int
	text    map[string][]string
}

// rawItem is an item as the export writes it, per language.
type rawItem struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Keyed  string `json:"keyed"`
	Domain string `json:"domain"`
	Facet  int    `json:"facet"`
}

type export struct {
	Package   string               `json:"package"`
	Version   string               `json:"version"`
	Languages map[string][]rawItem `json:"languages"`
}

//go:embed items.gen.json
var itemsJSON []byte

// LoadBank reads the embedded export. It refuses a language whose items do
// not match English one for one (id, domain, facet and keying), because a
// translation that silently changed a key would score answers backwards.
func LoadBank() (*Bank, error) {
	var ex export
	if err := json.Unmarshal(itemsJSON, &ex); err != nil {
		return nil, fmt.Errorf("ipipneo: parse items: %w", err)
	}
	en := ex.Languages["en"]
	if len(en) != ItemCount {
		return nil, fmt.Errorf("ipipneo: English has %d items, want %d", len(en), ItemCount)
	}
	b := &Bank{Version: ex.Package + "@" + ex.Version, byID: map[string]int{}, text: map[string][]string{}}
	for i, r := range en {
		if r.Keyed != "plus" && r.Keyed != "minus" || r.Facet < 1 || r.Facet > 6 || !validDomain(r.Domain) {
			return nil, fmt.Errorf("ipipneo: English item %d (%s) has a bad key", i, r.ID)
		}
		if _, dup := b.byID[r.ID]; dup {
			return nil, fmt.Errorf("ipipneo: duplicate item id %s", r.ID)
		}
		b.byID[r.ID] = i
		b.Items = append(b.Items, Item{ID: r.ID, Domain: r.Domain, Facet: r.Facet, FacetCode: fmt.Sprintf("%s%d", r.Domain, r.Facet), Minus: r.Keyed == "minus"})
	}
	for lang, items := range ex.Languages {
		if err := MatchesEnglish(en, items); err != nil {
			return nil, fmt.Errorf("ipipneo: %s: %w", lang, err)
		}
		texts := make([]string, ItemCount)
		for _, r := range items {
			texts[b.byID[r.ID]] = r.Text
		}
		b.text[lang] = texts
	}
	return b, nil
}

// MatchesEnglish checks that a language has the 120 English items, each with
// the same domain, facet and keying, and a text.
func MatchesEnglish(en, items []rawItem) error {
	if len(items) != len(en) {
		return fmt.Errorf("%d items, want %d", len(items), len(en))
	}
	ref := map[string]rawItem{}
	for _, r := range en {
		ref[r.ID] = r
	}
	seen := map[string]bool{}
	for _, r := range items {
		e, ok := ref[r.ID]
		switch {
		case !ok:
			return fmt.Errorf("item %s is not in English", r.ID)
		case seen[r.ID]:
			return fmt.Errorf("item %s appears twice", r.ID)
		case r.Keyed != e.Keyed || r.Domain != e.Domain || r.Facet != e.Facet:
			return fmt.Errorf("item %s is keyed %s %s%d, English %s %s%d", r.ID, r.Keyed, r.Domain, r.Facet, e.Keyed, e.Domain, e.Facet)
		case r.Text == "":
			return fmt.Errorf("item %s has no text", r.ID)
		}
		seen[r.ID] = true
	}
	return nil
}

func validDomain(d string) bool {
	for _, x := range Domains {
		if d == x {
			return true
		}
	}
	return false
}

// Index returns the position of an item id in the bank.
func (b *Bank) Index(id string) (int, bool) {
	i, ok := b.byID[id]
	return i, ok
}

// Text returns an item's statement in a locale, English when the locale has
// none.
func (b *Bank) Text(locale string, i int) string {
	if t, ok := b.text[locale]; ok {
		return t[i]
	}
	return b.text["en"][i]
}
