// Package notice holds the service notices of the user centre: the
// shipped ones, written per locale in embedded files
// (data/notices.<tag>.toml), and who may read a notice. Sync writes the
// shipped notices into the database, where the list, the detail and the
// read state live.
package notice

import (
	"context"
	"embed"
	"fmt"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/jmoiron/sqlx"

	"selfmap/internal/content"
	"selfmap/internal/i18n"
	"selfmap/internal/ids"
	"selfmap/internal/store"
	"selfmap/internal/subscription"
)

//go:embed data/*.toml
var files embed.FS

// The audiences a notice is written for.
const (
	AudienceAll     = "all"
	AudienceBasic   = "basic"
	AudiencePremium = "premium"
)

// Audiences are the audiences, from widest to narrowest.
var Audiences = []string{AudienceAll, AudienceBasic, AudiencePremium}

// Required is the least tier that reads a notice of an audience: every
// signed-in user reads "all"; "basic" needs a basic or premium plan.
func Required(audience string) subscription.Tier {
	switch audience {
	case AudienceBasic:
		return subscription.TierBasic
	case AudiencePremium:
		return subscription.TierPremium
	}
	return subscription.TierGuest
}

// For lists the audiences whose notices a tier reads.
func For(t subscription.Tier) []string {
	var out []string
	for _, a := range Audiences {
		if t.Includes(Required(a)) {
			out = append(out, a)
		}
	}
	return out
}

// Shipped is a notice as written in a data file. Audience and Published
// (YYYY-MM-DD) are read from the English file only.
type Shipped struct {
	Slug      string `toml:"slug"`
	Audience  string `toml:"audience"`
	Published string `toml:"published"`
	Title     string `toml:"title"`
	Body      string `toml:"body"`
}

// Load reads the shipped notices of every locale and checks that each
// locale has the English notices, in the same order, with well-formed
// bodies.
func Load() (map[string][]Shipped, error) {
	out := map[string][]Shipped{}
	for _, l := range i18n.Locales {
		name := "data/notices." + l.Tag + ".toml"
		buf, err := files.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("notice: read %s: %w", name, err)
		}
		var f struct {
			Notices []Shipped `toml:"notice"`
		}
		if _, err := toml.Decode(string(buf), &f); err != nil {
			return nil, fmt.Errorf("notice: parse %s: %w", name, err)
		}
		for _, n := range f.Notices {
			if n.Title == "" || n.Body == "" {
				return nil, fmt.Errorf("notice: %s: %q is empty", name, n.Slug)
			}
			if err := content.Validate(n.Body); err != nil {
				return nil, fmt.Errorf("notice: %s: %q: %w", name, n.Slug, err)
			}
		}
		out[l.Tag] = f.Notices
	}
	en := out["en"]
	for _, n := range en {
		if Required(n.Audience) == subscription.TierGuest && n.Audience != AudienceAll {
			return nil, fmt.Errorf("notice: %q has unknown audience %q", n.Slug, n.Audience)
		}
		if _, err := time.Parse(time.DateOnly, n.Published); err != nil {
			return nil, fmt.Errorf("notice: %q: published must be a date: %w", n.Slug, err)
		}
	}
	for tag, ns := range out {
		if len(ns) != len(en) {
			return nil, fmt.Errorf("notice: %s has %d notices, en has %d", tag, len(ns), len(en))
		}
		for i := range ns {
			if ns[i].Slug != en[i].Slug {
				return nil, fmt.Errorf("notice: %s notice %d is %q, en's is %q", tag, i, ns[i].Slug, en[i].Slug)
			}
		}
	}
	return out, nil
}

// Sync writes the shipped notices into the database, each with its texts
// in one transaction: a new one published on its date, a known one with its
// texts brought up to date. It answers how many notices it wrote.
func Sync(ctx context.Context, st *store.Store, now time.Time) (int, error) {
	all, err := Load()
	if err != nil {
		return 0, err
	}
	for i, n := range all["en"] {
		pub, _ := time.Parse(time.DateOnly, n.Published)
		var texts []store.NoticeText
		for _, l := range i18n.Locales {
			t := all[l.Tag][i]
			texts = append(texts, store.NoticeText{Locale: l.Tag, Title: t.Title, Body: t.Body})
		}
		err := st.InTx(ctx, func(tx *sqlx.Tx) error {
			_, err := st.SaveNotice(ctx, tx, ids.New(), n.Slug, n.Audience, &pub, texts, now)
			return err
		})
		if err != nil {
			return 0, err
		}
	}
	return len(all["en"]), nil
}
