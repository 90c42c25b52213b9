package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// journeyLocale is one language of the member journey: the path prefix,
// the browser's Accept-Language (whose region prices the plans until a
// result names a country), the country the member picks with the test,
// and the amounts the plans cost there, as the pages write them. Chromium
// adds the q-values to acceptLanguage itself.
type journeyLocale struct {
	tag, prefix, acceptLanguage, country string
	// name is the given and the family name; fullName the account's
	// name, in the order the language writes a name.
	name                  [2]string
	fullName              string
	trial, basic, premium string
}

// journeyLocales are Japanese in Japan (yen, no decimals) and German in
// Germany (euros, a decimal comma): the plans are priced per country
// (sql/migrations/0011 and 0024).
var journeyLocales = []journeyLocale{
	{tag: "ja", prefix: "/ja", acceptLanguage: "ja-JP,ja", country: "JP", name: [2]string{"花子", "山田"}, fullName: "山田 花子",
		trial: "¥200", basic: "¥2,980", premium: "¥5,980"},
	{tag: "de", prefix: "/de", acceptLanguage: "de-DE,de", country: "DE", name: [2]string{"Erika", "Mustermann"}, fullName: "Erika Mustermann",
		trial: "€1,49", basic: "€19,99", premium: "€39,99"},
}

// TestMemberJourney walks a new member through the product in Japanese and
// German, each at 360 and 1280 px: register, verify by the mailed code,
// take the 16-type test signed in (the result is in My Page at once), start
// the paid trial with the sandbox card, upgrade to Premium, open the full
// report without paying, read the billing page and a receipt, replace the
// card, cancel from the user centre, and resume. Each step asserts test ids,
// amounts in the country's currency and states (never dates, whose format
// is the locale's), and saves a full-page screenshot named
// journey-<lang>-<width>-<step>.png in the screenshot folder.
//
// It runs on a server of its own, so its four registrations and codes stay
// within the log-in rate limit whatever the rest of the suite spent.
func TestMemberJourney(t *testing.T) {
	chromiumPath(t) // skip (or fail under CI) before starting a server
	srv := startJourneyServer(t)
	for _, loc := range journeyLocales {
		for _, width := range []int64{360, 1280} {
			t.Run(fmt.Sprintf("%s-%d", loc.tag, width), func(t *testing.T) {
				start := time.Now()
				memberJourney(t, newPageAt(t, srv.url, 60*time.Second), loc, width)
				t.Logf("journey in %s at %d px: %s", loc.tag, width, time.Since(start).Round(time.Millisecond))
			})
		}
	}
}

// startJourneyServer starts a server of the test's own over a fresh SQLite
// database with the demo data, stopped (cleanly) when the test ends.
func startJourneyServer(t *testing.T) *server {
	t.Helper()
	dir := t.TempDir()
	srv, err := startServer(dir, filepath.Join(dir, "journey.db"), nil)
	if err != nil {
		if srv != nil {
			srv.kill()
			t.Logf("--- server output ---\n%s", srv.output())
		}
		t.Fatalf("the journey's server did not start: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.stop(); err != nil {
			t.Errorf("the journey's server: graceful shutdown failed: %v\n--- server output ---\n%s", err, srv.output())
		}
	})
	return srv
}

// memberJourney is one run of TestMemberJourney.
func memberJourney(t *testing.T, p *browserPage, loc journeyLocale, width int64) {
	dir := screenshotDir(t)
	mobile := width < 600
	p.setViewport(width, 900, mobile)
	ua := evaluate[string](p, `navigator.userAgent`)
	if _, err := chromedp.Call(p.ctx, emulation.SetUserAgentOverride,
		emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: loc.acceptLanguage}); err != nil {
		t.Fatalf("set the browser's language: %v", err)
	}
	step := 0
	// capture checks the page and saves it: the whole page in one screen
	// as tall as the page (so what is fixed, like the user centre's bar,
	// is drawn where a person sees it, not where the first screen ended),
	// or only the first screen (a dialog, centred on it).
	capture := func(name string, whole bool) {
		t.Helper()
		step++
		if mobile {
			sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`)
			if sizes[0] > sizes[1] {
				t.Errorf("%s at %d px is %d px wide, so it scrolls sideways", name, width, sizes[0])
			}
		}
		if lang := evaluate[string](p, `document.documentElement.lang`); lang != loc.tag {
			t.Errorf("%s: <html lang> is %q, want %q", name, lang, loc.tag)
		}
		file := filepath.Join(dir, fmt.Sprintf("journey-%s-%d-%02d-%s.png", loc.tag, width, step, name))
		if !whole {
			p.save(file, p.viewportScreenshot())
			return
		}
		evaluate[bool](p, `(window.scrollTo(0, 0), true)`)
		p.setViewport(width, evaluate[int64](p, `Math.ceil(document.documentElement.scrollHeight)`), mobile)
		p.save(file, p.viewportScreenshot())
		p.setViewport(width, 900, mobile)
	}
	shot := func(name string) { t.Helper(); capture(name, true) }
	text := func(id string) string {
		t.Helper()
		return evaluate[string](p, fmt.Sprintf(`(e => e ? e.textContent.replace(/\s+/g, ' ').trim() : '')(document.querySelector('[data-testid=%q]'))`, id))
	}
	expectIn := func(what, id, want string) {
		t.Helper()
		if got := text(id); !strings.Contains(got, want) {
			t.Errorf("%s ([data-testid=%s]) reads %q, want it to contain %q", what, id, got, want)
		}
	}
	email := fmt.Sprintf("e2e-journey-%s-%d-%s@example.com", loc.tag, width, time.Now().Format("150405.000000"))

	// The browser's language alone leads to the member's locale.
	p.open("/user/register")
	p.waitVisible("register-form", "the registration form")
	if got := evaluate[string](p, `location.pathname`); got != loc.prefix+"/user/register" {
		t.Errorf("a browser in %s opened /user/register at %s", loc.acceptLanguage, got)
	}
	p.click("consent-reject", "the banner's reject button")
	p.waitGone("consent-banner", "the cookie banner after reject")
	shot("register")
	for _, f := range [][2]string{{"name", loc.fullName}, {"email", email}, {"password", "correct horse"}, {"confirm", "correct horse"}} {
		p.fill(fmt.Sprintf("[data-testid=%q]", f[0]), f[1])
	}
	p.click("agree", "the agreement box")
	p.click("register-form-submit", "the register button")
	p.waitVisible("verify-form", "the code's screen after registering")
	shot("verify")
	enterMailedCode(t, p, email, "info-form", "the profile after the mailed code")
	if !evaluate[bool](p, `!!document.querySelector('[data-testid=nav-menu] a[href$="/userCenter/home"]') && !document.querySelector('[data-testid=nav-menu] a[href$="/user/login"]')`) {
		t.Fatal("the menu offers to log in after the mailed code")
	}

	// The 16-type test, signed in.
	p.open(loc.prefix + "/answer/question/BMBTI-1807")
	journeyQuiz(t, p)
	p.waitVisible("get-report", "the answers-submitted screen")
	shot("submitted")
	submitted := evaluate[string](p, `location.pathname + location.search`)

	// My Page lists the result at once, among the reports still to pay for.
	p.open(loc.prefix + "/userCenter/reportList?tab=pending")
	p.waitVisible("list-pending", "My Page's reports still to pay for")
	resultID := evaluate[string](p, `[...document.querySelectorAll('[data-testid=list-pending] .uc-report')].map(e => e.dataset.testid.replace(/^report-/, '')).join(' ')`)
	if resultID == "" || strings.Contains(resultID, " ") {
		t.Fatalf("My Page lists the results %q, want the one just taken", resultID)
	}
	if !evaluate[bool](p, `!!document.querySelector('.uc-report [data-testid=report-pay]') && !document.querySelector('[data-testid=report-view]')`) {
		t.Error("the new result is not offered as an unpaid report in My Page")
	}
	shot("mypage-result")

	// The free result: the address is the account's; the member picks their
	// country, which prices the plans from now on.
	p.open(submitted)
	p.click("get-report", "Get my report")
	p.waitVisible("email-form", "the e-mail step")
	p.waitVisible("email-prefilled", "the note that the account's address is filled in")
	if got := evaluate[string](p, `document.querySelector('#email').value`); got != email {
		t.Errorf("the e-mail step offers %q, not the account's %s", got, email)
	}
	p.click("email-submit", "Continue with the account's address")
	p.waitVisible("details-form", "the personal-details step")
	// What the account's name gave the name fields, for the report (the
	// test fills them in either way).
	t.Logf("the details step offers given name %q and family name %q from the account's %q",
		evaluate[string](p, `document.querySelector('#firstName').value`), evaluate[string](p, `document.querySelector('#lastName').value`), loc.fullName)
	p.fill("#firstName", loc.name[0])
	p.fill("#lastName", loc.name[1])
	p.fill("#birthYear", "1992")
	p.clickCSS(`input[name=gender][value=female]`, "Female")
	evaluate[bool](p, fmt.Sprintf(`(s => (s.value = %q, s.value === %q))(document.querySelector("#country"))`, loc.country, loc.country))
	shot("details")
	p.click("details-submit", "See my result")
	p.waitVisible("type-code", "the type on the free result")
	letters, _, _ := strings.Cut(text("type-code"), "-")
	shot("free-result")

	// The paid trial of Basic, with the sandbox's good card.
	p.open(loc.prefix + "/paying/premiumSubscriptions/BMBTI-1807?plan=basic-weekly")
	p.waitVisible("subscribe-form", "the subscription form")
	if !evaluate[bool](p, `document.querySelector('[data-testid=option-basic-weekly]').getAttribute('aria-current') === 'true'`) {
		t.Error("the Basic plan asked for is not the one selected")
	}
	expectIn("the Basic option", "option-basic-weekly", loc.trial)
	expectIn("the Basic option", "option-basic-weekly", loc.basic)
	expectIn("the first charge", "sub-first", loc.trial)
	p.fill("#sub-number", "4242 4242 4242 4242")
	p.fill("#sub-expiry", "12/"+time.Now().AddDate(3, 0, 0).Format("06"))
	p.fill("#sub-cvc", "123")
	p.fill("#sub-name", loc.name[0]+" "+loc.name[1])
	if evaluate[bool](p, `!!document.querySelector('#sub-postal')`) {
		p.fill("#sub-postal", map[string]string{"JP": "100-0001", "DE": "10115"}[loc.country])
	}
	p.click("terms", "the terms box")
	shot("trial-form")
	p.click("start-trial", "Start trial")
	p.waitVisible("sub-success", "the started trial")
	p.waitVisible("sub-outcome-trial", "the trial's title")
	expectIn("the trial's charge", "sub-charged", loc.trial)
	expectIn("the trial's next charge", "sub-next", loc.basic)
	shot("trial-started")

	// Premium: the page says the amount, the card and what becomes of the
	// trial before anything is charged.
	p.open(loc.prefix + "/paying/upgrade/BMBTI-1807")
	p.waitVisible("upgrade-submit", "the upgrade button")
	expectIn("the upgrade's price", "premium-price", loc.premium)
	expectIn("the upgrade's amount today", "upgrade-today", loc.premium)
	expectIn("the upgrade's card", "upgrade-card", "4242")
	expectIn("the upgrade's button", "upgrade-submit", loc.premium)
	if text("upgrade-ends") == "" || text("upgrade-renews") == "" {
		t.Error("the upgrade page does not say what becomes of the trial and when Premium renews")
	}
	expectIn("the upgrade's renewal", "upgrade-renews", loc.premium)
	shot("upgrade")
	p.click("upgrade-submit", "the upgrade button")
	p.waitVisible("sub-success", "the upgraded subscription")
	p.waitVisible("sub-outcome-upgrade", "the upgrade's title")
	expectIn("the upgrade's charge", "sub-charged", loc.premium)
	shot("upgraded")

	// The full report opens without paying: no product page, no price.
	p.open(loc.prefix + "/userCenter/reportList")
	p.waitVisible("report-"+resultID, "the result in My Page")
	p.assertAbsent("report-pay", "a Premium member is asked to pay for their report")
	p.clickCSS(fmt.Sprintf(`[data-testid="report-%s"] [data-testid=report-view]`, resultID), "View the report")
	p.waitVisible("report", "the full report")
	if got := evaluate[string](p, `location.pathname`); got != loc.prefix+"/report/result/BMBTI-1807" {
		t.Errorf("the report opened at %s", got)
	}
	expectIn("the report's type", "type-code", letters)
	if body := evaluate[string](p, `document.querySelector('main') ? document.querySelector('main').innerText : document.body.innerText`); strings.ContainsAny(body, "¥€$") {
		t.Errorf("the Premium member's report shows a price")
	}
	p.assertAbsent("unlock", "the Premium member's report offers to unlock it")
	shot("report")

	// Billing: Premium, active, the next charge in the country's currency,
	// the card, and a receipt for each charge.
	p.open(loc.prefix + "/userCenter/setting/billing")
	p.waitVisible("billing-plan", "the billing page")
	if got, want := text("billing-plan-name"), localeMessage(t, loc.tag, "mail.sub.plan.premium-monthly"); got != want {
		t.Errorf("billing names the plan %q, want %q", got, want)
	}
	if got := evaluate[string](p, `document.querySelector('[data-testid=billing-status]').dataset.status`); got != "active" {
		t.Errorf("billing shows the status %q, want active", got)
	}
	expectIn("the next charge", "billing-next-charge", loc.premium)
	expectIn("the card", "billing-card", "Visa •••• 4242")
	p.assertAbsent("billing-ends", "an active plan is shown as ending")
	p.assertAbsent("billing-resume", "an active plan is offered a resume")
	amounts := evaluate[[]string](p, `[...document.querySelectorAll('[data-testid=billing-receipt] strong')].map(e => e.textContent.trim())`)
	if strings.Join(amounts, " ") != loc.premium+" "+loc.trial {
		t.Errorf("the receipts are %q, want %s (Premium) then %s (the trial)", amounts, loc.premium, loc.trial)
	}
	shot("billing")
	p.clickCSS(`[data-testid=billing-receipt] .billing-receipt-main a`, "the newest receipt")
	p.waitVisible("receipt", "the receipt")
	expectIn("the receipt's amount", "receipt-amount", loc.premium)
	expectIn("the receipt's card", "receipt-card", "4242")
	if text("receipt-number") == "" {
		t.Error("the receipt has no number")
	}
	shot("receipt")

	// A new card, through the sandbox's form on the billing page.
	p.open(loc.prefix + "/userCenter/setting/billing")
	p.waitVisible("billing-card-form", "the form that replaces the card")
	p.fill("[data-testid=billing-card-form] #number", "4000 0027 6000 3184")
	p.fill("[data-testid=billing-card-form] #expiry", "11/"+time.Now().AddDate(4, 0, 0).Format("06"))
	p.fill("[data-testid=billing-card-form] #cvc", "321")
	p.click("billing-card-form-submit", "Replace the card")
	p.waitVisible("flash", "the card's confirmation")
	expectIn("the new card", "billing-card", "•••• 3184")
	if strings.Contains(text("billing-card"), "4242") {
		t.Error("billing still names the old card")
	}
	shot("card-replaced")

	// Cancel from the user centre: Premium lasts to the period's end.
	p.open(loc.prefix + "/userCenter/home")
	p.waitVisible("uc-cancel", "the cancel button")
	p.click("uc-cancel", "the cancel button")
	p.waitVisible("cancel-dialog", "the cancel dialog")
	capture("cancel-dialog", false)
	p.click("cancel-confirm", "the dialog's confirm button")
	p.waitVisible("uc-cancelled", "the cancel's confirmation")
	if got := evaluate[string](p, `document.querySelector('[data-testid=uc-status]').dataset.tier`); got != "premium" {
		t.Errorf("after cancelling, the home shows tier %q; Premium lasts to the period's end", got)
	}
	p.assertAbsent("uc-cancel", "a cancelled plan is still offered a cancel")
	shot("cancelled")

	p.open(loc.prefix + "/userCenter/setting/billing")
	p.waitVisible("billing-ends", "the end of the cancelled plan")
	p.waitVisible("billing-resume-submit", "the resume button")
	p.assertAbsent("billing-next-charge", "a cancelled plan still announces a charge")
	shot("billing-ending")

	p.click("billing-resume-submit", "Resume")
	p.waitVisible("flash", "the resume's confirmation")
	p.waitVisible("billing-next-charge", "the next charge after resuming")
	expectIn("the next charge after resuming", "billing-next-charge", loc.premium)
	p.assertAbsent("billing-ends", "a resumed plan is still shown as ending")
	p.assertAbsent("billing-resume", "a resumed plan is still offered a resume")
	if got := evaluate[string](p, `document.querySelector('[data-testid=billing-status]').dataset.status`); got != "active" {
		t.Errorf("after resuming billing shows the status %q, want active", got)
	}
	shot("resumed")

	p.open(loc.prefix + "/userCenter/home")
	p.waitVisible("uc-cancel", "the cancel button of a plan that renews again")
	p.assertAbsent("uc-cancelled", "the home still says the plan was cancelled")

	if body := evaluate[string](p, `document.body.innerText`); strings.Contains(body, "billing.") || strings.Contains(body, "usercenter.") {
		t.Error("the user centre shows a message id")
	}
	p.assertCleanConsole()
}

// localeMessage reads a message of a locale, by its id, from the locale's
// file of its prefix (locales/README.md).
func localeMessage(t *testing.T, tag, id string) string {
	t.Helper()
	file := filepath.Join(moduleRoot, "locales", strings.SplitN(id, ".", 2)[0]+"."+tag+".toml")
	var v any = map[string]any{}
	if _, err := toml.DecodeFile(file, &v); err != nil {
		t.Fatalf("read %s: %v", file, err)
	}
	for _, k := range strings.Split(id, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s has no message %s", file, id)
		}
		v = m[k]
	}
	msg, ok := v.(string)
	if !ok || msg == "" {
		t.Fatalf("%s has no message %s", file, id)
	}
	return msg
}

// journeyQuiz answers every statement of the test from its first page to
// the answers-submitted screen, with the keyboard, a varied pattern so the
// type is not a tie.
func journeyQuiz(t *testing.T, p *browserPage) {
	t.Helper()
	p.waitVisible("quiz-statement", "the first statements")
	p.waitTrue(`Object.keys(document.getElementById("quiz-island")).some(k => k.startsWith("__reactContainer"))`, "the question island to mount")
	answered := 0
	for i := 0; i < 200; i++ {
		switch screen := evaluate[string](p, quizScreenJS); screen {
		case "tip":
			p.click("quiz-tip-continue", "Continue on the tip")
		case "questions":
			n := evaluate[int](p, `document.querySelectorAll('[data-testid=quiz-statement]:not([data-answered])').length`)
			for j := 0; j < n; j++ {
				key := string(rune('1' + (answered+j)%5))
				if (answered+j)%3 == 0 {
					key = "4"
				}
				if err := p.run(chromedp.KeyEvent(key)); err != nil {
					t.Fatalf("press %s: %v", key, err)
				}
			}
			answered += n
			p.waitTrue(`!document.querySelector('[data-testid=quiz-next]').disabled`, "Next once the page is answered")
			if err := p.run(chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatalf("press Enter: %v", err)
			}
		case "calculating", "submitted":
			return
		default:
			t.Fatalf("unexpected screen %q after %d answers", screen, answered)
		}
	}
	t.Fatalf("the test did not end after %d answers", answered)
}
