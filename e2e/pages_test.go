package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestContentPages goes through the content pages as a visitor on a phone
// would: the types list, one type, the help centre, one answer, then the
// contact form, sent first with a mistake and then right. Each screen is
// also shot at desktop width.
func TestContentPages(t *testing.T) {
	dir := screenshotDir(t)
	p := newPageWithin(t, 90*time.Second)
	p.setViewport(360, 800, true)
	shot := func(name string) {
		p.t.Helper()
		evaluate[bool](p, `(window.scrollTo(0, 0), true)`)
		p.assertFitsPhone(name)
		p.save(filepath.Join(dir, fmt.Sprintf("pages-%s-360.png", name)), p.fullScreenshot())
		p.desktopShot(filepath.Join(dir, fmt.Sprintf("pages-%s-1280.png", name)))
	}

	p.open("/types/BMBTI-1807")
	p.waitVisible("types-title", "the types list heading")
	p.click("consent-reject", "Reject optional cookies")
	p.waitGone("consent-banner", "the cookie banner")
	if n := evaluate[int](p, `document.querySelectorAll('.type-tile').length`); n != 16 {
		t.Errorf("the types list shows %d types, want 16", n)
	}
	shot("types")

	p.click("type-INTJ", "the INTJ tile")
	p.waitVisible("type-title", "the INTJ page heading")
	if path := evaluate[string](p, `location.pathname`); path != "/types/BMBTI-1807/intj" {
		t.Errorf("the INTJ tile leads to %s", path)
	}
	for _, section := range []string{"strengths", "challenges", "work", "relationships", "growth"} {
		p.waitVisible("section-"+section, "the "+section+" section of the type page")
	}
	shot("type-intj")

	p.open("/help/BMBTI-1807")
	p.waitVisible("help-title", "the help centre heading")
	p.clickCSS(`details:has([data-testid="article-refunds"]) > summary`, "the refunds question")
	p.waitVisible("article-refunds", "the refunds answer's link, once the question is open")
	shot("help")

	p.click("article-refunds", "the link to the refunds article")
	p.waitVisible("help-article", "the refunds article")
	shot("help-article")

	p.click("contact-support", "Contact support")
	p.waitVisible("contact-form", "the contact form")
	shot("support")

	p.fill("#contact-name", "Ada Lovelace")
	p.fill("#contact-email", "ada@example")
	p.fill("#contact-message", "Hello")
	p.click("contact-submit", "Send message")
	p.waitVisible("contact-errors", "the form's error summary")
	p.waitVisible("contact-email-error", "the e-mail field's message")
	p.waitVisible("contact-message-error", "the message field's message")
	if got := evaluate[string](p, `document.querySelector('#contact-name').value`); got != "Ada Lovelace" {
		t.Errorf("after a mistake the name field holds %q; what the visitor typed is lost", got)
	}
	shot("support-errors")

	p.fill("#contact-email", "ada@example.com")
	if err := p.run(chromedp.SetValue(chromedp.CSS("#contact-topic"), "report")); err != nil {
		t.Fatalf("choose a topic: %v", err)
	}
	p.fill("#contact-message", "My report never arrived. Could you send it again?")
	p.click("contact-submit", "Send message")
	p.waitVisible("flash", "the thank-you after sending")
	if text := evaluate[string](p, `document.querySelector('[data-testid=flash]').innerText`); !strings.Contains(text, "Thank you") {
		t.Errorf("the confirmation says %q", text)
	}
	shot("support-sent")
	p.assertCleanConsole("status of 422")
}

// assertFitsPhone fails when the page is wider than the phone's screen.
func (p *browserPage) assertFitsPhone(what string) {
	p.t.Helper()
	sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`)
	if sizes[0] > sizes[1] {
		p.t.Errorf("%s is %d px wide on a %d px phone, so it scrolls sideways", what, sizes[0], sizes[1])
	}
}

// TestContentPagesInOtherLanguages checks that long German words and
// Chinese, Japanese and Korean text fit a phone, and shoots each page.
func TestContentPagesInOtherLanguages(t *testing.T) {
	dir := screenshotDir(t)
	p := newPageWithin(t, 60*time.Second)
	p.setViewport(360, 800, true)
	for _, pg := range []struct{ name, path, lang string }{
		{"types-ja", "/ja/types/BMBTI-1807", "ja"},
		{"type-ja", "/ja/types/BMBTI-1807/infj", "ja"},
		{"help-ko", "/ko/help/BMBTI-1807", "ko"},
		{"legal-de", "/de/legal/privacy/BMBTI-1807", "de"},
		{"support-zh-hk", "/zh-hk/support/BMBTI-1807", "zh-HK"},
		{"tests-fr", "/fr/tests/BMBTI-1807", "fr"},
	} {
		p.open(pg.path)
		if pg.name == "types-ja" {
			p.click("consent-reject", "Reject optional cookies")
			p.waitGone("consent-banner", "the cookie banner")
		}
		if got := evaluate[string](p, `document.documentElement.lang`); got != pg.lang {
			t.Errorf("GET %s: <html lang> is %q, want %q", pg.path, got, pg.lang)
		}
		if evaluate[bool](p, `document.body.innerText.includes("typeprofile.") || document.body.innerText.includes("typepage.")`) {
			t.Errorf("GET %s shows a message id instead of its text", pg.path)
		}
		p.assertFitsPhone(pg.path)
		p.save(filepath.Join(dir, fmt.Sprintf("pages-%s-360.png", pg.name)), p.fullScreenshot())
	}
	p.assertCleanConsole()
}
