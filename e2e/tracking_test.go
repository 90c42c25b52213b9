package e2e

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestTrackingWaitsForConsent visits a site with every kind of third-party
// script configured, from an ad click (fbclid and ttclid in the URL):
// before consent the browser asks nothing of another origin and keeps no
// cookie but the session's; after "Accept all" the analytics tools load,
// and of the ad pixels only the two whose click ids came with the visit.
func TestTrackingWaitsForConsent(t *testing.T) {
	p := newPage(t)
	if _, err := chromedp.Call(p.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	landing := trackedURL + "/landing/home/BMBTI-1807?fbclid=fb-e2e&ttclid=tt-e2e"
	if err := p.run(chromedp.Navigate(landing)); err != nil {
		t.Fatal(err)
	}
	p.waitVisible("consent-banner", "the cookie banner")
	origin := trackedURL
	if others := p.requestsElsewhere(origin); len(others) > 0 {
		t.Errorf("before consent the page asked other origins: %v", others)
	}
	res, err := chromedp.Call(p.ctx, network.GetCookies, network.GetCookiesParams{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cookies {
		if c.Name != "sm_session" {
			t.Errorf("before consent the browser keeps the cookie %q", c.Name)
		}
	}

	p.click("consent-accept", "Accept all")
	p.waitGone("consent-banner", "the banner after Accept all")
	p.reload()
	p.waitTrue(`!!document.getElementById("tracking-props")`, "the tracking plan after consent")
	want := []string{"connect.facebook.net", "analytics.tiktok.com", "www.googletagmanager.com", "www.clarity.ms", "challenges.cloudflare.com"}
	for _, host := range want {
		p.waitTrue(`[...document.scripts].some(s => s.src.includes("`+host+`"))`, host+" to be asked for after consent")
	}
	others := strings.Join(p.requestsElsewhere(origin), " ")
	for _, host := range want {
		if !strings.Contains(others, host) {
			t.Errorf("the browser never asked %s after consent (asked: %s)", host, others)
		}
	}
	for _, host := range []string{"sc-static.net", "bat.bing.com", "kwai.net"} {
		if strings.Contains(others, host) {
			t.Errorf("%s loaded without its click id in the URL", host)
		}
	}

	// The funnel keeps the click ids: the test's start link carries them.
	href := evaluate[string](p, `document.querySelector('[data-testid=start-test]')?.href || ""`)
	if u, err := url.Parse(href); err != nil || u.Query().Get("fbclid") != "fb-e2e" || u.Query().Get("ttclid") != "tt-e2e" {
		t.Errorf("the start link drops the click ids: %q", href)
	}
	// Offline, the vendors' hosts do not resolve; the page must show no
	// other error (a CSP refusal would be one).
	p.assertCleanConsole("net::ERR_")
}

// requestsElsewhere lists the requests the page made to other origins.
func (p *browserPage) requestsElsewhere(origin string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, u := range p.requests {
		if !strings.HasPrefix(u, origin) && !strings.HasPrefix(u, "data:") && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}
