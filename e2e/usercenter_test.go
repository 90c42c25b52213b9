package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"selfmap/app/apptest"
	"selfmap/internal/subscription"
)

// TestUserCenterAtPhoneWidth registers a user, enters the mailed code and
// walks the user centre at 360 px: nothing scrolls sideways, the footer bar is fixed to the bottom
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
	email := "e2e-uc-" + time.Now().Format("150405.000000") + "@example.com"
	fill("name", "Ada Lovelace")
	fill("email", email)
	fill("password", "correct horse")
	fill("confirm", "correct horse")
	p.click("agree", "the agreement box")
	p.click("register-form-submit", "the register button")
	p.waitVisible("verify-form", "the verification form")
	enterMailedCode(t, p, email, "info-form", "the profile after verification")

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
		if !footerClear(p, s.testID) {
			t.Errorf("%s: the footer bar is not fixed at the bottom or covers content", s.name)
		}
		p.save(filepath.Join(dir, "usercenter-"+s.name+"-guest-360.png"), p.fullScreenshot())
	}
	p.assertCleanConsole()
}

// footerClear reports whether, scrolled to the end, the phone footer bar is
// fixed at the bottom and the page's last content ends above it.
func footerClear(p *browserPage, pageTestID string) bool {
	return evaluate[bool](p, `(() => {
		window.scrollTo(0, document.documentElement.scrollHeight);
		const bar = document.querySelector('[data-testid=uc-footer]').getBoundingClientRect();
		const fixed = getComputedStyle(document.querySelector('[data-testid=uc-footer]')).position === 'fixed';
		const last = [...document.body.querySelectorAll('body > *')].filter(e => e.offsetParent !== null && !e.contains(document.querySelector('[data-testid=uc-footer]')) && getComputedStyle(e).position !== 'fixed').pop();
		const content = document.querySelector('[data-testid=`+pageTestID+`] .wrap').getBoundingClientRect();
		return fixed && Math.round(bar.bottom) === window.innerHeight && content.bottom <= bar.top + 1 && (!last || last.getBoundingClientRect().bottom <= bar.top + 1);
	})()`)
}

// TestUserCenterNoticesAndCancel walks, at 360 px, the notices (list,
// search, detail, the unread count going down) and the one-click cancel
// (its dialog closes on Escape and gives focus back; confirmed, the home
// says until when), with screenshots of the home as a free account, a
// basic and a premium subscriber.
func TestUserCenterNoticesAndCancel(t *testing.T) {
	dir := screenshotDir(t)
	p := newPageWithin(t, 90*time.Second)
	p.setViewport(360, 800, true)
	email := "e2e-uc2-" + time.Now().Format("150405.000000") + "@example.com"
	p.open("/user/register")
	p.click("consent-reject", "the banner's reject button")
	p.waitGone("consent-banner", "the cookie banner after reject")
	for _, f := range [][2]string{{"name", "Grace Hopper"}, {"email", email}, {"password", "correct horse"}, {"confirm", "correct horse"}} {
		if err := p.run(chromedp.SendKeys(testID(f[0]), f[1])); err != nil {
			t.Fatalf("type into %s: %v", f[0], err)
		}
	}
	p.click("agree", "the agreement box")
	p.click("register-form-submit", "the register button")
	p.waitVisible("verify-form", "the verification form")
	enterMailedCode(t, p, email, "info-form", "the profile after verification")

	home := func(tier string) {
		t.Helper()
		p.open("/userCenter")
		p.waitVisible("uc-home", "the user centre's home")
		if got := evaluate[string](p, `document.querySelector('[data-testid=uc-status]').dataset.tier`); got != tier {
			t.Fatalf("the home shows tier %q, want %q", got, tier)
		}
		if sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`); sizes[0] > sizes[1] {
			t.Errorf("the %s home at 360 px is %d px wide", tier, sizes[0])
		}
		if !footerClear(p, "uc-home") {
			t.Errorf("%s home: the footer bar covers content", tier)
		}
		p.save(filepath.Join(dir, "usercenter-home-"+tier+"-360.png"), p.fullScreenshot())
	}
	home("guest")
	unread := func() string {
		return evaluate[string](p, `(document.querySelector('[data-testid=uc-unread]') || {}).textContent || ''`)
	}
	if got := unread(); got != "3 unread" {
		t.Errorf("a new account's home says %q", got)
	}

	p.click("uc-all-notices", "the link to every notice")
	p.waitVisible("notice-list", "the notice list")
	if n := evaluate[int](p, `document.querySelectorAll('[data-testid=notice-list] > li').length`); n != 4 {
		t.Errorf("the list shows %d notices, want 4 (one locked)", n)
	}
	if err := p.run(chromedp.SendKeys("#notice-q", "privacy"+kb.Enter)); err != nil {
		t.Fatal(err)
	}
	// The form navigates: poll across the page change.
	searched := false
	for i := 0; i < 100 && !searched; i++ {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`location.search === '?q=privacy' && document.readyState === 'complete' && document.querySelectorAll('[data-testid=notice-list] > li').length === 1`))
		if searched = err == nil && ok; !searched {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if !searched {
		t.Fatal("the search did not show its one result")
	}
	if sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`); sizes[0] > sizes[1] {
		t.Errorf("the notices at 360 px are %d px wide", sizes[0])
	}
	p.save(filepath.Join(dir, "usercenter-notices-search-360.png"), p.fullScreenshot())
	p.clickCSS("[data-testid=notice-list] h3 a", "the notice's title")
	p.waitVisible("notice-detail", "the notice")
	if !footerClear(p, "uc-notices") {
		t.Error("the notice: the footer bar covers content")
	}
	p.save(filepath.Join(dir, "usercenter-notice-detail-360.png"), p.fullScreenshot())
	p.open("/userCenter")
	p.waitVisible("uc-home", "the home")
	if got := unread(); got != "2 unread" {
		t.Errorf("after reading one the home says %q", got)
	}

	// A plan bought elsewhere (the plan pages have tests of their own),
	// through the subscription service on the server's database.
	st := openDatabase(t)
	user, err := st.GetUserByEmail(context.Background(), st.DB, email)
	if err != nil {
		t.Fatal(err)
	}
	svc := apptest.Subscriptions(st, time.Now)
	sub := apptest.Subscribe(t, svc, subscription.StartInput{CustomerID: user.ID, Email: email, PlanID: "basic-weekly"}, false)
	home("basic")
	p.click("uc-cancel", "the cancel button")
	p.waitVisible("cancel-dialog", "the cancel dialog")
	if err := p.run(chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	p.waitGone("cancel-dialog", "the dialog after Escape")
	p.waitTrue(`document.activeElement && document.activeElement.dataset.testid === 'uc-cancel'`, "focus back on the cancel button")
	p.click("uc-cancel", "the cancel button again")
	p.waitVisible("cancel-dialog", "the cancel dialog")
	p.save(filepath.Join(dir, "usercenter-cancel-dialog-360.png"), p.viewportScreenshot())
	// The footer bar stays under the dialog's overlay.
	if onTop := evaluate[bool](p, `(() => { const r = document.querySelector('[data-testid=uc-footer]').getBoundingClientRect();
		const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!e.closest('[data-testid=uc-footer]'); })()`); onTop {
		t.Error("the footer bar shows above the dialog's overlay")
	}
	p.click("cancel-confirm", "the dialog's confirm button")
	p.waitVisible("uc-cancelled", "the cancel's confirmation")
	until := sub.CurrentPeriodEnd.UTC().Format("2 January 2006")
	if got := evaluate[string](p, `document.querySelector('[data-testid=uc-cancelled]').textContent.trim()`); !strings.Contains(got, until) {
		t.Errorf("the home says %q, want the date %s", got, until)
	}
	p.assertAbsent("uc-cancel", "a cancelled subscription is still offered a cancel")

	if _, err := svc.Upgrade(context.Background(), user.ID, sub.ID, "premium-monthly"); err != nil {
		t.Fatal(err)
	}
	home("premium")
	// Every locale's footer labels fit side by side at 360 px, each word
	// whole.
	for _, prefix := range []string{"/zh-cn", "/zh-hk", "/fr", "/es", "/de", "/pt", "/ja", "/ko"} {
		p.open(prefix + "/userCenter")
		p.waitVisible("uc-footer", prefix+"'s footer bar")
		if wide := evaluate[string](p, `(() => { const bar = document.querySelector('[data-testid=uc-footer]');
			const over = [...bar.querySelectorAll('a')].filter(a => a.scrollWidth > a.clientWidth + 1 || a.getBoundingClientRect().right > window.innerWidth + 1);
			return (bar.scrollWidth > bar.clientWidth + 1 ? 'the bar, ' : '') + over.map(a => a.textContent).join(", "); })()`); wide != "" {
			t.Errorf("%s: %s overflow at 360 px", prefix, wide)
		}
	}
	p.save(filepath.Join(dir, "usercenter-home-premium-ko-360.png"), p.fullScreenshot())
	p.setViewport(1280, 900, false)
	p.open("/userCenter/notification")
	p.waitVisible("notice-list", "the notices on a desktop")
	p.save(filepath.Join(dir, "usercenter-notices-1280.png"), p.fullScreenshot())
	p.open("/userCenter")
	p.waitVisible("uc-home", "the home on a desktop")
	p.save(filepath.Join(dir, "usercenter-home-premium-1280.png"), p.fullScreenshot())
	p.assertCleanConsole()
}
