package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// TestPayForTheReport takes the test, then buys the full report on the
// sandbox in two locales: a declined card first (the order stays payable,
// the message is in the visitor's language), then 4242 4242 4242 4242,
// the status check, the success screen and its countdown, and the unlocked
// report. In Korean the card asks for a 3-D Secure step on the way.
func TestPayForTheReport(t *testing.T) {
	for _, tc := range []payCase{{lang: "en"}, {lang: "ko", prefix: "/ko", threeDS: true}} {
		t.Run(tc.lang, func(t *testing.T) {
			payForTheReport(t, newPageWithin(t, 150*time.Second), tc)
		})
	}
}

// TestPayForTheReportOnPostgres is TestPayForTheReport's English flow, on a
// server of its own over PostgreSQL: the result, the orders, the sandbox's
// payments and the pack, stored by the real binary on the database
// production uses. It needs TEST_DATABASE_URL, and runs under CI=true.
func TestPayForTheReportOnPostgres(t *testing.T) {
	srv := startPostgresServer(t)
	payForTheReport(t, newPageAt(t, srv.url, 150*time.Second), payCase{lang: "en", shots: "postgres-"})
}

// payCase is one run of the flow: the visitor's language and path prefix,
// whether the card asks for 3-D Secure, and the screenshots' name prefix.
type payCase struct {
	lang, prefix string
	threeDS      bool
	shots        string
}

// payForTheReport takes the test, then buys the full report on the
// sandbox: a declined card first, then a good one (with a 3-D Secure step
// when tc says so), the success screen and the unlocked report, then a
// pack through the upsell steps.
func payForTheReport(t *testing.T, p *browserPage, tc payCase) {
	t.Helper()
	dir := screenshotDir(t)
	p.setViewport(360, 800, true)
	shot := func(name string) {
		p.save(filepath.Join(dir, fmt.Sprintf(tc.shots+"pay-%s-%s.png", tc.lang, name)), p.viewportScreenshot())
	}
	takeTest(t, p, tc.lang, tc.prefix, func(string) {})

	p.click("unlock", "Unlock the full report")
	p.waitVisible("buy", "the product page")
	shot("buy")
	p.desktopShot(filepath.Join(dir, fmt.Sprintf(tc.shots+"pay-%s-buy-1280.png", tc.lang)))
	p.click("unlock-report", "Unlock my report")

	p.waitVisible("payment", "the payment page")
	// A promo code that does not exist is refused in the visitor's
	// language, and the price stays.
	total := evaluate[string](p, `document.querySelector('[data-testid=total]').textContent`)
	p.fill("#promo", "NOPE2026")
	p.clickCSS(`[data-testid=promo-form] button`, "Apply the promo code")
	p.waitVisible("promo-error", "the unknown promo code message")
	if got := evaluate[string](p, `document.querySelector('#promo').value`); got != "NOPE2026" {
		t.Errorf("the promo field lost what was typed: %q", got)
	}
	if got := evaluate[string](p, `document.querySelector('[data-testid=total]').textContent`); got != total {
		t.Errorf("an unknown promo code changed the total from %s to %s", total, got)
	}
	shot("promo-error")
	p.waitTrue(`!document.querySelector('[data-testid=pay-button]').disabled`, "the card form to be ready")
	fillCard := func(number string) {
		p.fill(`[data-testid=card-number]`, number)
		p.fill(`[data-testid=card-expiry]`, "12 / 30")
		p.fill(`[data-testid=card-cvc]`, "123")
		p.fill(`[data-testid=card-name]`, "Min Park")
		p.fill(`[data-testid=card-postal]`, "04524")
	}
	fillCard("4000 0000 0000 0002")
	shot("card")
	p.setViewport(1280, 900, false)
	p.save(filepath.Join(dir, fmt.Sprintf(tc.shots+"pay-%s-card-1280.png", tc.lang)), p.fullScreenshot())
	p.setViewport(360, 800, true)
	p.click("pay-button", "Pay with a card that is declined")
	p.waitTrue(`document.querySelector('[data-testid=pay-error]').textContent.trim() !== ""`, "the decline message")
	shot("declined")

	number := "4242 4242 4242 4242"
	if tc.threeDS {
		number = "4000 0027 6000 3184"
	}
	fillCard(number)
	p.click("pay-button", "Pay again")
	if tc.threeDS {
		p.waitVisible("threeds", "the 3-D Secure step")
		shot("3ds")
		p.click("threeds-complete", "Confirm on the 3-D Secure page")
	}
	p.waitVisible("pay-success", "the success screen")
	shot("success")
	p.desktopShot(filepath.Join(dir, fmt.Sprintf(tc.shots+"pay-%s-success-1280.png", tc.lang)))
	// The success screen opens the report by itself after 3 seconds.
	p.waitVisible("report", "the full report after the countdown")
	shot("report")
	p.desktopShot(filepath.Join(dir, fmt.Sprintf(tc.shots+"report-%s-1280.png", tc.lang)))
	p.click("tab-dimensions", "the Dimensions tab")
	p.waitVisible("dimensions", "the dimension analysis")
	if n := evaluate[int](p, `document.querySelectorAll('.scale-small').length`); n != 30 {
		t.Errorf("the report shows %d facets, want 30", n)
	}
	shot("report-dimensions")
	p.desktopShot(filepath.Join(dir, fmt.Sprintf(tc.shots+"report-%s-dimensions-1280.png", tc.lang)))
	p.click("tab-overview", "the Overview tab")
	p.waitVisible("about-test", "the overview")

	// The upsell steps: leaving asks first; a pack bought with a
	// card moves on by itself; the last step opens the report with
	// the pack's sections.
	p.click("see-packs", "See the packs")
	p.waitVisible("package-offer", "the first pack step")
	shot("package")
	p.desktopShot(filepath.Join(dir, fmt.Sprintf(tc.shots+"pay-%s-package-1280.png", tc.lang)))
	p.click("package-leave", "Leave the steps")
	p.waitVisible("exit-dialog", "the are-you-sure dialog")
	shot("package-exit")
	p.click("exit-stay", "Stay on the steps")
	p.waitGone("exit-dialog", "the dialog after Stay")
	p.waitTrue(`!document.querySelector('[data-testid=pay-button]').disabled`, "the pack's card form to be ready")
	fillCard("4242 4242 4242 4242")
	p.click("pay-button", "Pay for the pack")
	p.waitVisible("package-added", "the pack added message")
	shot("package-added")
	p.waitVisibleCSS(`[data-step="depth_content"] [data-testid=package-skip]`, "the next step after 3 seconds")
	p.click("package-skip", "Skip the second pack")
	p.waitVisibleCSS(`[data-step="member_exclusive"] [data-testid=package-skip]`, "the third step")
	p.click("package-skip", "Skip the third pack")
	p.waitVisible("package-access", "the last step")
	shot("package-access")
	p.click("open-report", "Open the report")
	p.waitVisible("pack-content", "the bought pack on the report")
	p.assertCleanConsole("status of 422", "status of 400")
}
