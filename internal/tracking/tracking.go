// Package tracking decides which third-party scripts a page may load: a
// site's ad pixels, tag manager, session replay and bot protection. Nothing
// loads before the visitor consents; analytics tools need the analytics
// choice; an ad pixel needs the marketing choice and its own click-id
// parameter in the visit's URL (the funnel keeps the parameters on every
// link). docs/tracking.md lists the vendors and their parameters.
package tracking

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"

	"selfmap/internal/consent"
)

// Config is what a site loads, by vendor: the ad pixels' ids, the tag
// manager's container, the session replay's project and the bot
// protection's site key. Empty means none.
type Config struct {
	Pixels        map[string]string `json:"pixels,omitempty"`
	TagManager    string            `json:"tagManager,omitempty"`
	SessionReplay string            `json:"sessionReplay,omitempty"`
	BotProtection string            `json:"botProtection,omitempty"`
}

// Vendor is one third-party script.
type Vendor struct {
	Name string
	// Marketing vendors need the marketing choice and one of Params in the
	// URL; the others need the analytics choice.
	Marketing bool
	Params    []string
	// Script, Connect, Frame and Img are the origins the vendor's script
	// loads from and talks to, for the page's Content-Security-Policy.
	Script, Connect, Frame, Img []string
}

// Vendors lists every vendor by name. The ad pixels follow the spec: a
// short-video network (pixel_id or click_id), a photo-messaging network
// (ScCid), a search engine (MSCLKID), a social network (fbclid) and a
// video-sharing network (ttclid or tt_test_id).
var Vendors = map[string]Vendor{
	"kwai": {Name: "kwai", Marketing: true, Params: []string{"pixel_id", "click_id"},
		Script: []string{"https://s1.kwai.net"}, Connect: []string{"https://*.kwai.com", "https://*.kwai.net"}, Img: []string{"https://*.kwai.com"}},
	"snapchat": {Name: "snapchat", Marketing: true, Params: []string{"ScCid"},
		Script: []string{"https://sc-static.net"}, Connect: []string{"https://tr.snapchat.com"}, Img: []string{"https://tr.snapchat.com"}},
	"bing": {Name: "bing", Marketing: true, Params: []string{"MSCLKID", "msclkid"},
		Script: []string{"https://bat.bing.com"}, Connect: []string{"https://bat.bing.com"}, Img: []string{"https://bat.bing.com"}},
	"meta": {Name: "meta", Marketing: true, Params: []string{"fbclid"},
		Script: []string{"https://connect.facebook.net"}, Connect: []string{"https://www.facebook.com"}, Img: []string{"https://www.facebook.com"}},
	"tiktok": {Name: "tiktok", Marketing: true, Params: []string{"ttclid", "tt_test_id"},
		Script: []string{"https://analytics.tiktok.com"}, Connect: []string{"https://analytics.tiktok.com"}, Img: []string{"https://analytics.tiktok.com"}},
	"tagmanager": {Name: "tagmanager",
		Script:  []string{"https://www.googletagmanager.com"},
		Connect: []string{"https://www.googletagmanager.com", "https://*.google-analytics.com", "https://*.analytics.google.com"},
		Img:     []string{"https://www.googletagmanager.com", "https://*.google-analytics.com"}},
	"sessionreplay": {Name: "sessionreplay",
		Script: []string{"https://www.clarity.ms", "https://*.clarity.ms"}, Connect: []string{"https://*.clarity.ms"}, Img: []string{"https://*.clarity.ms"}},
	"botprotection": {Name: "botprotection",
		Script: []string{"https://challenges.cloudflare.com"}, Frame: []string{"https://challenges.cloudflare.com"}},
}

// KeptParams are the visit's parameters every step of the funnel keeps,
// so an ad's click id reaches checkout: the spec's list, every ad pixel's
// click-id parameter, and "theme", the landing page's theme, so a visitor
// who came through /landing/relax/ keeps its look from the questions to
// the report.
var KeptParams = func() []string {
	out := []string{"hl", "logid", "gclid", "theme"}
	for _, name := range slices.Sorted(maps.Keys(Vendors)) {
		for _, p := range Vendors[name].Params {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}()

// idPattern is what a vendor id, container or site key may look like: it
// is written into a script, so nothing else is accepted.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Parse reads a site's configuration (JSON) and checks every vendor and id.
func Parse(raw string) (Config, error) {
	var c Config
	if raw == "" {
		return c, nil
	}
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		return Config{}, fmt.Errorf("tracking: %w", err)
	}
	for name, id := range c.Pixels {
		if v, ok := Vendors[name]; !ok || !v.Marketing {
			return Config{}, fmt.Errorf("tracking: %q is not an ad pixel", name)
		}
		if !idPattern.MatchString(id) {
			return Config{}, fmt.Errorf("tracking: pixel %s has a malformed id", name)
		}
	}
	for _, id := range []string{c.TagManager, c.SessionReplay, c.BotProtection} {
		if id != "" && !idPattern.MatchString(id) {
			return Config{}, fmt.Errorf("tracking: malformed id %q", id)
		}
	}
	return c, nil
}

// Load is one script a page loads.
type Load struct {
	Vendor string `json:"v"`
	ID     string `json:"id"`
}

// Plan is what a page loads.
type Plan []Load

// Decide plans a page's scripts from the site's configuration, the
// visitor's choice and the URL's query.
func Decide(c Config, choice consent.State, q url.Values) Plan {
	if !choice.Decided {
		return nil
	}
	var out Plan
	if choice.Analytics {
		for _, l := range []Load{{"tagmanager", c.TagManager}, {"sessionreplay", c.SessionReplay}, {"botprotection", c.BotProtection}} {
			if l.ID != "" {
				out = append(out, l)
			}
		}
	}
	if choice.Marketing {
		names := make([]string, 0, len(c.Pixels))
		for name := range c.Pixels {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			if slices.ContainsFunc(Vendors[name].Params, func(p string) bool { return q.Get(p) != "" }) {
				out = append(out, Load{Vendor: name, ID: c.Pixels[name]})
			}
		}
	}
	return out
}

// Origins are the origins a plan's scripts need, by CSP directive.
type Origins struct{ Script, Connect, Frame, Img []string }

// Origins lists, without repeats, the origins of the plan's vendors.
func (p Plan) Origins() Origins {
	var o Origins
	add := func(dst *[]string, src []string) {
		for _, s := range src {
			if !slices.Contains(*dst, s) {
				*dst = append(*dst, s)
			}
		}
	}
	for _, l := range p {
		v := Vendors[l.Vendor]
		add(&o.Script, v.Script)
		add(&o.Connect, v.Connect)
		add(&o.Frame, v.Frame)
		add(&o.Img, v.Img)
	}
	return o
}

// Event is an ad event a page reports to the pixels it loads.
type Event struct {
	Name string `json:"name"`
	// ID lets a network drop a repeat of the same event (a reload).
	ID       string  `json:"id,omitempty"`
	Value    float64 `json:"value,omitempty"`
	Currency string  `json:"currency,omitempty"`
}

// The events of the funnel.
const (
	ViewContent      = "view_content"
	InitiateCheckout = "initiate_checkout"
	AddPaymentInfo   = "add_payment_info"
	Purchase         = "purchase"
	StartTrial       = "start_trial"
)
