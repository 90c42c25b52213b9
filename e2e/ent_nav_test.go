package e2e

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"selfmap/app/apptest"
	"selfmap/internal/subscription"
)

// TestUserCenterNavigationAtEveryWidth: the user centre has its own
// navigation at 1280 px (a bar under the site header, not fixed) as at
// 360 px (the fixed footer bar), with the current entry marked, in Japanese
// and German; a Basic member's home says the plan renews and counts its
// free reports.
func TestUserCenterNavigationAtEveryWidth(t *testing.T) {
	dir := screenshotDir(t)
	p := newPageWithin(t, 90*time.Second)
	p.setViewport(1280, 900, false)
	email := "e2e-ucnav-" + time.Now().Format("150405.000000") + "@example.com"
	p.open("/user/register")
	p.click("consent-reject", "the banner's reject button")
	p.waitGone("consent-banner", "the cookie banner after reject")
	for _, f := range [][2]string{{"name", "Mary Somerville"}, {"email", email}, {"password", "correct horse"}, {"confirm", "correct horse"}} {
		if err := p.run(chromedp.SendKeys(testID(f[0]), f[1])); err != nil {
			t.Fatalf("type into %s: %v", f[0], err)
		}
	}
	p.click("agree", "the agreement box")
	p.click("register-form-submit", "the register button")
	p.waitVisible("verify-form", "the verification form")
	enterMailedCode(t, p, email, "info-form", "the profile after verification")
	st := openDatabase(t)
	user, err := st.GetUserByEmail(context.Background(), st.DB, email)
	if err != nil {
		t.Fatal(err)
	}
	apptest.Subscribe(t, apptest.Subscriptions(st, time.Now), subscription.StartInput{CustomerID: user.ID, Email: email, PlanID: "basic-weekly"}, false)

	for _, prefix := range []string{"/ja", "/de"} {
		for _, width := range []int64{1280, 360} {
			p.setViewport(width, 900, width < 720)
			for _, page := range []struct{ path, testID, entry string }{
				{"/userCenter", "uc-home", "home"}, {"/userCenter/reportList", "uc-reports", "reports"},
			} {
				p.open(prefix + page.path)
				p.waitVisible(page.testID, prefix+page.path)
				p.waitVisible("uc-footer", prefix+"'s user-centre navigation")
				if got := evaluate[string](p, `document.querySelector('[data-testid=uc-footer] [aria-current=page]').dataset.testid`); got != "uc-nav-"+page.entry {
					t.Errorf("%s%s at %d px: the current entry is %q", prefix, page.path, width, got)
				}
				if sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`); sizes[0] > sizes[1] {
					t.Errorf("%s%s at %d px is %d px wide", prefix, page.path, width, sizes[0])
				}
				if width > 720 {
					under := evaluate[bool](p, `(() => { const bar = document.querySelector('[data-testid=uc-footer]');
						const head = document.querySelector('.site-header').getBoundingClientRect(), r = bar.getBoundingClientRect();
						return getComputedStyle(bar).position !== 'fixed' && r.top >= head.bottom - 1 && r.top < head.bottom + 8 && r.height > 40; })()`)
					if !under {
						t.Errorf("%s%s at 1280 px: the navigation is not a bar under the header", prefix, page.path)
					}
				} else if !footerClear(p, page.testID) {
					t.Errorf("%s%s at 360 px: the footer bar is not fixed or covers content", prefix, page.path)
				}
				p.save(filepath.Join(dir, "usercenter-nav"+prefix[1:]+"-"+page.entry+"-"+itoa64(width)+".png"), p.fullScreenshot())
			}
		}
	}
	p.setViewport(1280, 900, false)
	p.open("/de/userCenter")
	p.waitVisible("uc-free-reports", "the free reports left")
	p.waitVisible("uc-valid-until", "the plan's date")
	if !evaluate[bool](p, `document.querySelector('[data-testid=uc-valid-until]').dataset.renews === 'true'`) {
		t.Error("a renewing plan does not say it renews")
	}
	p.assertCleanConsole()
}

func itoa64(n int64) string {
	b := []byte{}
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
