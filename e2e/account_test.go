package e2e

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// outboxCode reads the code of the newest account e-mail to an address
// from the development outbox (/dev/mail, newest first).
func outboxCode(t *testing.T, p *browserPage, email string) string {
	t.Helper()
	p.open("/dev/mail")
	code := evaluate[string](p, `(() => {
		for (const m of document.querySelectorAll('[data-testid=dev-mail]')) {
			if (m.textContent.includes('account_code') && m.textContent.includes('To: ' + `+strconv.Quote(email)+`)) {
				const c = m.querySelector('[data-testid=dev-mail-text]').textContent.match(/\b\d{6}\b/);
				if (c) return c[0];
			}
		}
		return '';
	})()`)
	if code == "" {
		t.Fatalf("no code to %s in the development outbox", email)
	}
	return code
}

// enterMailedCode enters, on the code's screen, the code mailed to an
// address, which verifies it and signs in, and waits for the screen it
// leads to.
func enterMailedCode(t *testing.T, p *browserPage, email, nextTestID, next string) {
	t.Helper()
	code := outboxCode(t, p, email)
	p.open("/user/verify")
	p.waitVisible("verify-form", "the code's screen")
	if err := p.run(chromedp.SendKeys(testID("code"), code)); err != nil {
		t.Fatalf("type the code: %v", err)
	}
	p.click("verify-form-submit", "the verify button")
	p.waitVisible(nextTestID, next)
}

// signedInMenu reports whether the page's menu offers the user centre
// rather than the log-in page.
func signedInMenu(p *browserPage) bool {
	return evaluate[bool](p, `!!document.querySelector('[data-testid=nav-menu] a[href="/userCenter/home"]') && !document.querySelector('[data-testid=nav-menu] a[href="/user/login"]')`)
}

// TestAccountRegisterAndLogin registers at phone width (a mistake first,
// so the field's message shows); registering signs nobody in until the
// code read from the development outbox verifies the address; then it
// logs out and logs in again. Screenshots of each screen land in the
// screenshot folder.
func TestAccountRegisterAndLogin(t *testing.T) {
	dir := screenshotDir(t)
	p := newPageWithin(t, 60*time.Second)
	p.setViewport(360, 800, true)
	fill := func(id, value string) {
		t.Helper()
		if err := p.run(chromedp.SendKeys(testID(id), value)); err != nil {
			t.Fatalf("type into %s: %v", id, err)
		}
	}
	shot := func(name string) {
		sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`)
		if sizes[0] > sizes[1] {
			t.Errorf("%s at 360 px is %d px wide, so it scrolls sideways", name, sizes[0])
		}
		p.save(filepath.Join(dir, "account-"+name+"-360.png"), p.fullScreenshot())
	}
	email := "e2e-" + time.Now().Format("150405.000000") + "@example.com"

	p.open("/user/register")
	p.click("consent-reject", "the banner's reject button")
	p.waitGone("consent-banner", "the cookie banner after reject")
	p.waitVisible("register-form", "the registration form")
	shot("register")
	fill("name", "Ada Lovelace")
	fill("email", email)
	fill("password", "correct horse")
	fill("confirm", "correct horse battery")
	p.click("register-form-submit", "the register button")
	p.waitVisible("confirm-error", "the message under the confirmation")
	p.waitVisible("agree-error", "the message under the agreement")
	if got := evaluate[string](p, `document.querySelector('[data-testid=confirm-error]').textContent`); got != "Passwords do not match" {
		t.Errorf("confirmation message %q", got)
	}
	if got := evaluate[string](p, `document.querySelector('[data-testid=email]').value`); got != email {
		t.Errorf("the e-mail was not kept: %q", got)
	}
	if got := evaluate[string](p, `document.querySelector('[data-testid=password]').value`); got != "" {
		t.Error("the password was sent back into the form")
	}
	shot("register-errors")
	fill("password", "correct horse")
	fill("confirm", "correct horse")
	p.click("agree", "the agreement box")
	p.click("register-form-submit", "the register button")
	p.waitVisible("verify-form", "the verification form")
	shot("verify")
	if signedInMenu(p) {
		t.Error("registering signed in before the mailed code")
	}
	p.open("/user/info")
	p.waitVisible("login-form", "the log-in form, for the profile before the code")

	enterMailedCode(t, p, email, "info-form", "the profile after verification")
	p.waitVisible("flash", "the confirmation of the verification")
	if !signedInMenu(p) {
		t.Error("the menu offers to log in after the mailed code")
	}
	shot("info")

	p.click("logout-submit", "the log-out button")
	p.waitVisible("hero-title", "the home page after logging out")
	// A page behind log-in sends to the log-in form, which leads back to it.
	p.open("/user/edit-password")
	p.waitVisible("login-form", "the log-in form")
	fill("email", email)
	p.click("login-form-submit", "the log-in button with no password")
	p.waitVisible("login-form-error", "the error summary")
	if got := evaluate[string](p, `document.activeElement.dataset.testid || ''`); got != "login-form-error" {
		t.Errorf("after a failed log-in the focus is on %q, not the error summary", got)
	}
	if got := evaluate[string](p, `document.querySelector('[data-testid=login-form-error] a[href="#password"]')?.textContent ?? ''`); got != "Password: Please enter your password." {
		t.Errorf("the summary's link to the password reads %q", got)
	}
	p.clickCSS(`[data-testid=login-form-error] a[href="#password"]`, "the summary's link to the password")
	if got := evaluate[string](p, `document.activeElement.id`); got != "password" {
		t.Errorf("the summary's link leads the focus to %q, not the password", got)
	}
	shot("login-empty-password")
	fill("password", "wrong horse")
	// The page already shows an error summary, the empty password's with its
	// link to the field: wait for the answer's, which names no field.
	p.click("login-form-submit", "the log-in button")
	p.waitVisibleCSS(`[data-testid=login-form-error]:not(:has(a[href="#password"]))`, "the log-in failure message on the answer's page")
	shot("login-error")
	fill("password", "correct horse")
	p.click("login-form-submit", "the log-in button")
	p.waitVisible("edit-password-page", "the page asked for, after logging in")
	// An invalid form answers 422, which the browser logs as a failed load.
	p.assertCleanConsole("422 (Unprocessable Entity)")
}
