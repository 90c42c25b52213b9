package i18n

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Catalog holds the messages of every locale, loaded once at start-up.
type Catalog struct {
	bundle      *goi18n.Bundle
	translators map[string]*Translator
	ids         map[string][]string          // message ids per locale tag
	raw         map[string]map[string]string // singular message templates per locale tag
}

// Translator renders messages in one locale. It is safe for concurrent use.
type Translator struct {
	Locale    Locale
	localizer *goi18n.Localizer
	// plain caches every message without template data or plural forms, so
	// the common lookup on a hot page is one map read.
	plain map[string]string
	// raw holds the singular messages as written, placeholders unfilled,
	// falling back to the default locale's.
	raw map[string]string
	// byPrefix memoizes Messages: islands' props are rendered on every
	// page, and the answer never changes.
	byPrefix sync.Map
}

// Load reads the message files of every locale from files.
func Load(files fs.FS) (*Catalog, error) {
	c := &Catalog{
		bundle:      goi18n.NewBundle(language.English),
		translators: map[string]*Translator{},
		ids:         map[string][]string{},
		raw:         map[string]map[string]string{},
	}
	c.bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, l := range Locales {
		// A locale's messages are <prefix>.<tag>.toml, one file per key
		// prefix (locales/README.md), plus <tag>.toml for ids without a dot.
		names, err := fs.Glob(files, "*"+l.Tag+".toml")
		if err != nil {
			return nil, fmt.Errorf("i18n: list %s files: %w", l.Tag, err)
		}
		for _, name := range names {
			if name != l.Tag+".toml" && !strings.HasSuffix(name, "."+l.Tag+".toml") {
				continue
			}
			buf, err := fs.ReadFile(files, name)
			if err != nil {
				return nil, fmt.Errorf("i18n: read %s: %w", name, err)
			}
			mf, err := c.bundle.ParseMessageFileBytes(buf, l.Tag+".toml")
			if err != nil {
				return nil, fmt.Errorf("i18n: parse %s: %w", name, err)
			}
			if c.raw[l.Tag] == nil {
				c.raw[l.Tag] = map[string]string{}
			}
			for _, m := range mf.Messages {
				c.ids[l.Tag] = append(c.ids[l.Tag], m.ID)
				if m.One == "" && m.Many == "" && m.Few == "" && m.Two == "" && m.Zero == "" {
					c.raw[l.Tag][m.ID] = m.Other
				}
			}
		}
		if len(c.ids[l.Tag]) == 0 {
			return nil, fmt.Errorf("i18n: no messages for %s", l.Tag)
		}
	}
	for _, l := range Locales {
		t := &Translator{Locale: l, localizer: goi18n.NewLocalizer(c.bundle, l.Tag), plain: map[string]string{}, raw: map[string]string{}}
		for id, msg := range c.raw[Default.Tag] {
			t.raw[id] = msg
		}
		for id, msg := range c.raw[l.Tag] {
			t.raw[id] = msg
		}
		for _, id := range c.ids[Default.Tag] {
			msg, err := t.localizer.Localize(&goi18n.LocalizeConfig{MessageID: id})
			if err == nil && !strings.Contains(msg, "{{") {
				t.plain[id] = msg
			}
		}
		c.translators[l.Tag] = t
	}
	return c, nil
}

// Translator returns the translator of a locale.
func (c *Catalog) Translator(l Locale) *Translator {
	if t, ok := c.translators[l.Tag]; ok {
		return t
	}
	return c.translators[Default.Tag]
}

// IDs lists the message ids a locale's file defines.
func (c *Catalog) IDs(l Locale) []string { return c.ids[l.Tag] }

// Messages returns the singular messages whose ids start with prefix, keyed
// by the rest of the id, with their {{.Name}} placeholders as written:
// islands receive their strings this way and fill the placeholders.
// The map is shared: callers must not change it.
func (t *Translator) Messages(prefix string) map[string]string {
	if m, ok := t.byPrefix.Load(prefix); ok {
		return m.(map[string]string)
	}
	out := map[string]string{}
	for id, msg := range t.raw {
		if rest, ok := strings.CutPrefix(id, prefix); ok {
			out[rest] = msg
		}
	}
	m, _ := t.byPrefix.LoadOrStore(prefix, out)
	return m.(map[string]string)
}

// T returns the message id in the translator's locale, the message of the
// default locale when this one lacks it, and the id itself when both do (so a
// missing key shows on the page instead of hiding).
func (t *Translator) T(id string) string {
	if msg, ok := t.plain[id]; ok {
		return msg
	}
	return t.TD(id, nil)
}

// TD renders a message with template data, e.g. {{.Path}}.
func (t *Translator) TD(id string, data map[string]any) string {
	msg, err := t.localizer.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data})
	if err != nil && msg == "" {
		return id
	}
	return msg
}

// TN renders a plural message for count, with CLDR plural rules; the count
// is available to the message as {{.Count}}.
func (t *Translator) TN(id string, count int, data map[string]any) string {
	if data == nil {
		data = map[string]any{}
	}
	data["Count"] = count
	msg, err := t.localizer.Localize(&goi18n.LocalizeConfig{MessageID: id, PluralCount: count, TemplateData: data})
	if err != nil && msg == "" {
		return id
	}
	return msg
}

type ctxKey struct{}

// WithTranslator stores the request's translator in ctx.
func WithTranslator(ctx context.Context, t *Translator) context.Context {
	return context.WithValue(ctx, ctxKey{}, t)
}

// FromContext returns the request's translator; it panics when the locale
// middleware did not run, which is a wiring bug, not a request error.
func FromContext(ctx context.Context) *Translator {
	t, ok := ctx.Value(ctxKey{}).(*Translator)
	if !ok {
		panic("i18n: no translator in context")
	}
	return t
}
