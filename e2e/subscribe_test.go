package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSubscribeTrialThenUpgrade walks the subscription at 360 px: a guest
// is sent to log in, registers, enters the mailed code and comes back to
// the landing; the terms
// box must be ticked; a declined card keeps the form with the bank's
// reason; 4242 starts the trial, the user centre shows Basic; the upgrade
// makes it Premium. Screenshots of the scheme, landing and check pages land
// in the screenshot folder.
func TestSubscribeTrialThenUpgrade(t *testing.T) {
	dir := screenshotDir(t)
	p := newPageWithin(t, 90*time.Second)
	p.setViewport(360, 800, true)
	shot := func(name string) {
		t.Helper()
		sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`)
		if sizes[0] > sizes[1] {
			t.Errorf("%s at 360 px is %d px wide, so it scrolls sideways", name, sizes[0])
		}
		p.save(filepath.Join(dir, "subscribe-"+name+"-360.png"), p.fullScreenshot())
	}

	p.open("/paying/scheme/BMBTI-1807")
	p.click("consent-reject", "the banner's reject button")
	p.waitGone("consent-banner", "the cookie banner after reject")
	p.waitVisible("plan-basic-weekly", "the basic plan")
	if got := evaluate[string](p, `document.querySelector('[data-testid=plan-basic-weekly]').textContent`); !strings.Contains(got, "$1.49") ||
		!strings.Contains(got, "$0.71 a day") {
		t.Errorf("the basic plan reads %q", got)
	}
	shot("scheme")
	p.desktopShot(filepath.Join(dir, "subscribe-scheme-1280.png"))

	p.click("choose-basic-weekly", "the basic plan's start button")
	p.waitVisible("login-form", "the log-in form for a guest")
	if got := evaluate[string](p, `document.querySelector('[data-testid=flash]').textContent`); got != "Please login first" {
		t.Errorf("the log-in page says %q", got)
	}
	p.click("link-register", "the link to register")
	p.waitVisible("register-form", "the registration form")
	email := "e2e-sub-" + time.Now().Format("150405.000000") + "@example.com"
	for id, v := range map[string]string{"name": "Ada Lovelace", "email": email,
		"password": "correct horse", "confirm": "correct horse"} {
		if err := p.run(chromedp.SendKeys(testID(id), v)); err != nil {
			t.Fatalf("type into %s: %v", id, err)
		}
	}
	p.click("agree", "the agreement box")
	p.click("register-form-submit", "the register button")
	p.waitVisible("verify-form", "the code's screen after registering")
	enterMailedCode(t, p, email, "subscribe-landing", "the landing again after the mailed code")
	if !signedInMenu(p) {
		t.Errorf("a signed-in user's menu offers to log in instead of their account")
	}
	if !evaluate[bool](p, `document.querySelector('[data-testid=option-basic-weekly]').getAttribute('aria-current') === 'true'`) {
		t.Errorf("the basic plan chosen on the scheme page is not selected")
	}
	shot("landing")
	p.save(filepath.Join(dir, "subscribe-landing-top-360.png"), p.viewportScreenshot())
	p.desktopShot(filepath.Join(dir, "subscribe-landing-1280.png"))

	card := func(number string) {
		t.Helper()
		p.fill("#sub-number", number)
		p.fill("#sub-expiry", "12/"+time.Now().AddDate(3, 0, 0).Format("06"))
		p.fill("#sub-cvc", "123")
		p.fill("#sub-name", "Ada Lovelace")
		p.fill("#sub-postal", "10115")
	}
	// Without the terms box: refused, with the spec's words.
	card("4242 4242 4242 4242")
	p.click("start-trial", "Start trial")
	p.waitVisible("error-terms", "the terms message")
	if got := evaluate[string](p, `document.querySelector('[data-testid=error-terms]').textContent`); got != `please check "I have read and agree to the terms" to proceed` {
		t.Errorf("terms message %q", got)
	}
	// A declined card: the form again with the reason and what was typed.
	p.click("terms", "the terms box")
	card("4000 0000 0000 0002")
	p.click("start-trial", "Start trial")
	p.waitVisible("error-card", "the decline reason")
	if got := evaluate[string](p, `document.querySelector('[data-testid=error-card]').textContent`); !strings.Contains(got, "declined") {
		t.Errorf("decline reason %q", got)
	}
	if !evaluate[bool](p, `document.querySelector('#sub-name').value === 'Ada Lovelace' && document.querySelector('[data-testid=terms]').checked`) {
		t.Errorf("the declined form lost what was typed")
	}
	shot("declined")
	evaluate[bool](p, `(document.querySelector('[data-testid=error-card]').scrollIntoView({block: 'center'}), true)`)
	p.save(filepath.Join(dir, "subscribe-declined-form-360.png"), p.viewportScreenshot())

	card("4242 4242 4242 4242")
	p.click("start-trial", "Start trial")
	p.waitVisible("sub-success", "the started subscription")
	if got := evaluate[string](p, `document.querySelector('[data-testid=sub-charged]').textContent`); !strings.HasPrefix(got, "Charged $1.49") {
		t.Errorf("charged line %q", got)
	}
	if got := evaluate[string](p, `document.querySelector('[data-testid=sub-next]').textContent`); !strings.Contains(got, "then $19.99 every 4 weeks") {
		t.Errorf("next charge line %q", got)
	}
	shot("check")

	p.click("to-user-center", "the link to the user centre")
	p.waitVisible("uc-tier", "the user centre's tier")
	if got := evaluate[string](p, `document.querySelector('[data-testid=uc-status]').dataset.tier`); got != "basic" {
		t.Fatalf("the user centre shows tier %q after the trial, want basic", got)
	}

	p.open("/paying/upgrade/BMBTI-1807")
	p.waitVisible("upgrade-submit", "the upgrade button")
	shot("upgrade")
	p.click("upgrade-submit", "the upgrade button")
	p.waitVisible("sub-success", "the upgraded subscription")
	if got := evaluate[string](p, `document.querySelector('[data-testid=sub-plan]').textContent`); !strings.Contains(got, "Premium") {
		t.Errorf("after the upgrade the plan reads %q", got)
	}
	p.open("/userCenter")
	p.waitVisible("uc-tier", "the user centre's tier")
	if got := evaluate[string](p, `document.querySelector('[data-testid=uc-status]').dataset.tier`); got != "premium" {
		t.Fatalf("the user centre shows tier %q after the upgrade, want premium", got)
	}

	// Cancel by e-mail: an unknown address is refused with the spec's
	// words; the subscriber's own gets a one-time link, which cancels at
	// the period's end after one click, and a second use of it does not.
	p.open("/cancel/subscription/BMBTI-1807")
	p.fill("#email", "nobody-"+email)
	p.click("cancel-submit", "the cancel form's button")
	p.waitVisible("cancel-error", "the unknown address message")
	if got := evaluate[string](p, `document.querySelector('[data-testid=cancel-error]').textContent`); got != "E-mail address not found. Please enter it again." {
		t.Errorf("unknown address message %q", got)
	}
	p.fill("#email", email)
	p.click("cancel-submit", "the cancel form's button")
	p.waitVisible("cancel-sent", "the link-sent message")
	p.open("/dev/mail")
	link := cancelLink.FindString(evaluate[string](p, `document.body.innerText`))
	if link == "" {
		t.Fatal("no cancel link in the development outbox")
	}
	p.open(link[strings.Index(link, "/cancel/confirm/"):])
	p.waitVisible("cancel-until", "what the link will cancel")
	p.click("cancel-confirm", "the confirm button")
	p.waitVisible("cancel-success", "the cancel success page")
	shot("cancel-success")
	p.open("/userCenter")
	p.waitVisible("uc-tier", "the user centre's tier")
	if got := evaluate[string](p, `document.querySelector('[data-testid=uc-status]').dataset.tier`); got != "premium" {
		t.Errorf("after cancelling, access lasts to the period's end: tier %q, want premium", got)
	}
	p.openExpecting(link[strings.Index(link, "/cancel/confirm/"):], 410)
	p.waitVisible("cancel-link-error", "the used link's message")

	// The refused and declined forms answer 422 and 402, as they should;
	// the unknown address 404 and the used link 410.
	p.assertCleanConsole("status of 422", "status of 402", "status of 404", "status of 410")
}

// cancelLink finds a cancel link in the development outbox's text.
var cancelLink = regexp.MustCompile(`\S*/cancel/confirm/BMBTI-1807\?t=[A-Za-z0-9_-]+`)
