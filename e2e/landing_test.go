package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// landings are the landing pages and the home page, each in its theme.
var landings = []string{"founder", "free", "girl", "home", "new", "personal", "psychological", "relax", "roles", "third", "types", "young"}

// TestLandingScreenshots opens every landing page and the home page at phone
// and desktop width over the demo data (the server was seeded): no script
// loads, nothing scrolls sideways, and the screenshots land in the
// screenshot folder: the first screen as a visitor sees it, then the whole
// page once the cookie banner is answered.
func TestLandingScreenshots(t *testing.T) {
	dir := screenshotDir(t)
	pages := []struct{ name, path string }{{"homepage", "/"}}
	for _, n := range landings {
		pages = append(pages, struct{ name, path string }{"landing-" + n, "/landing/" + n + "/BMBTI-1807"})
	}
	for _, pg := range pages {
		t.Run(pg.name, func(t *testing.T) {
			p := newPageWithin(t, 60*time.Second)
			for _, width := range []int64{360, 1280} {
				mobile := width < 600
				p.setViewport(width, 800, mobile)
				p.open(pg.path)
				p.waitVisible("hero-title", "the page heading")
				if n := evaluate[int](p, `document.querySelectorAll('script[src], link[rel=modulepreload]').length`); n != 0 {
					t.Errorf("GET %s loads %d scripts before any interaction; landing pages ship none", pg.path, n)
				}
				sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`)
				if sizes[0] > sizes[1] {
					t.Errorf("GET %s at %d px: the page is %d px wide, so it scrolls sideways", pg.path, width, sizes[0])
				}
				if evaluate[int](p, `document.querySelectorAll('[data-testid=counters] li').length`) < 3 {
					t.Errorf("GET %s: the counters of the demo data are missing", pg.path)
				}
				name := fmt.Sprintf("%s-%d", pg.name, width)
				p.save(filepath.Join(dir, name+"-first.png"), p.viewportScreenshot())
				if width == 360 {
					p.click("consent-reject", "the banner's reject button")
					p.waitGone("consent-banner", "the cookie banner after reject")
				}
				p.save(filepath.Join(dir, name+".png"), p.fullScreenshot())
			}
			p.assertCleanConsole()
		})
	}
}

// TestActivityNoticesRespectReducedMotion: the demo data's recent tests
// rotate one at a time by CSS; a visitor who asks for less motion sees them
// all, still.
func TestActivityNoticesRespectReducedMotion(t *testing.T) {
	p := newPage(t)
	p.emulateMotion("reduce")
	p.open("/landing/relax/BMBTI-1807")
	p.waitVisible("activity", "the activity notices of the demo data")
	total := evaluate[int](p, `document.querySelectorAll('[data-testid=notice]').length`)
	shown := evaluate[int](p, `[...document.querySelectorAll('[data-testid=notice]')].filter(e => e.checkVisibility({opacityProperty: true}) && getComputedStyle(e).animationName === 'none').length`)
	if total == 0 || shown != total {
		t.Errorf("with reduced motion %d of %d notices are shown still; want all", shown, total)
	}
	p.emulateMotion("no-preference")
	p.reload()
	p.waitVisible("activity", "the activity notices")
	if total > 1 && evaluate[string](p, `getComputedStyle(document.querySelector('[data-testid=notice]')).animationName`) == "none" {
		t.Error("the notices do not rotate when motion is allowed")
	}
}

// emulateMotion sets the page's prefers-reduced-motion media feature.
func (p *browserPage) emulateMotion(value string) {
	p.t.Helper()
	params := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: value}}}
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, params); err != nil {
		p.t.Fatalf("emulate prefers-reduced-motion: %s: %v", value, err)
	}
}
