package e2e

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestUserCenterAtPhoneWidth registers a user and walks the user centre at
// 360 px: nothing scrolls sideways, the footer bar is fixed to the bottom
// and, scrolled to the end, covers none of the page. Screenshots land in
// the screenshot folder.
func TestUserCenterAtPhoneWidth(t *testing.T) {
	dir := screenshotDir(t)
	p := newPageWithin(t, 60*time.Second)
	p.setViewport(360, 800, true)
	fill := func(id, value string) {
		t.Helper()
		if err := p.run(chromedp.SendKeys(testID(id), value)); err != nil {
			t.Fatalf("type into %s: %v", id, err)
		}
	}
	p.open("/userCenter")
	p.click("consent-reject", "the banner's reject button")
	p.waitGone("consent-banner", "the cookie banner after reject")
	p.waitVisible("login-form", "the log-in form for a guest")
	if got := evaluate[string](p, `document.querySelector('[data-testid=flash]').textContent`); got != "Please login first" {
		t.Errorf("the log-in page says %q", got)
	}

	p.open("/user/register")
	p.waitVisible("register-form", "the registration form")
	fill("name", "Ada Lovelace")
	fill("email", "e2e-uc-"+time.Now().Format("150405.000000")+"@example.com")
	fill("password", "correct horse")
	fill("confirm", "correct horse")
	p.click("agree", "the agreement box")
	p.click("register-form-submit", "the register button")
	p.waitVisible("verify-form", "the verification form")

	for _, s := range []struct{ path, testID, name string }{
		{"/userCenter", "uc-home", "home"},
		{"/userCenter/reportList", "uc-reports", "reports"},
		{"/userCenter/rightsInterests", "uc-rights", "rights"},
	} {
		p.open(s.path)
		p.waitVisible(s.testID, "the user centre's "+s.name)
		p.waitVisible("uc-footer", "the footer bar")
		sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`)
		if sizes[0] > sizes[1] {
			t.Errorf("%s at 360 px is %d px wide, so it scrolls sideways", s.name, sizes[0])
		}
		// Scrolled to the end, the page's last content ends above the bar.
		clear := evaluate[bool](p, `(() => {
			window.scrollTo(0, document.documentElement.scrollHeight);
			const bar = document.querySelector('[data-testid=uc-footer]').getBoundingClientRect();
			const fixed = getComputedStyle(document.querySelector('[data-testid=uc-footer]')).position === 'fixed';
			const last = [...document.body.querySelectorAll('body > *')].filter(e => e.offsetParent !== null && !e.contains(document.querySelector('[data-testid=uc-footer]')) && getComputedStyle(e).position !== 'fixed').pop();
			const content = document.querySelector('[data-testid=`+s.testID+`] .wrap').getBoundingClientRect();
			return fixed && Math.round(bar.bottom) === window.innerHeight && content.bottom <= bar.top + 1 && (!last || last.getBoundingClientRect().bottom <= bar.top + 1);
		})()`)
		if !clear {
			t.Errorf("%s: the footer bar is not fixed at the bottom or covers content", s.name)
		}
		p.save(filepath.Join(dir, "usercenter-"+s.name+"-guest-360.png"), p.fullScreenshot())
	}
	p.assertCleanConsole()
}
