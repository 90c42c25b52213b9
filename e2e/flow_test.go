package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestTestFlow takes the whole 16-type test as a visitor on a phone would,
// in English and in Korean: 120 statements with the keyboard (and one tap),
// the tips, a reload half-way that must keep the answers, the calculating
// screen, the submitted screen, a wrong and then a right e-mail, the
// personal details, and the free result. Screenshots of each screen land in
// the screenshot folder.
func TestTestFlow(t *testing.T) {
	dir := screenshotDir(t)
	for _, tc := range []struct{ lang, prefix string }{{"en", ""}, {"ko", "/ko"}, {"zh-HK", "/zh-hk"}, {"de", "/de"}} {
		t.Run(tc.lang, func(t *testing.T) {
			p := newPageWithin(t, 120*time.Second)
			p.setViewport(360, 800, true)
			shot := func(name string) {
				p.save(filepath.Join(dir, fmt.Sprintf("flow-%s-%s.png", tc.lang, name)), p.viewportScreenshot())
			}
			takeTest(t, p, tc.lang, tc.prefix, shot)
			p.desktopShot(filepath.Join(dir, fmt.Sprintf("flow-%s-result-1280.png", tc.lang)))
			sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`)
			if sizes[0] > sizes[1] {
				t.Errorf("the free result is %d px wide on a %d px phone", sizes[0], sizes[1])
			}
			shot("result")
			p.save(filepath.Join(dir, fmt.Sprintf("flow-%s-result-full.png", tc.lang)), p.fullScreenshot())
			// The wrong e-mail and the empty details form answer 422 on purpose.
			p.assertCleanConsole("status of 422")
		})
	}
}

// takeTest goes from the question page to the free result as a visitor on a
// phone: the cookie banner, 120 statements (keyboard and one tap), the tips,
// a reload half-way, the calculating and submitted screens, a wrong and a
// right e-mail, and the personal details.
func takeTest(t *testing.T, p *browserPage, lang, prefix string, shot func(string)) {
	t.Helper()
	p.open(prefix + "/answer/question/BMBTI-1807")
	if got := evaluate[string](p, `document.documentElement.lang`); got != lang {
		t.Fatalf("question page lang %q, want %q", got, lang)
	}
	p.waitVisible("quiz-statement", "the first statements, rendered by the server")
	// The banner stays under a quarter of a 640 px phone screen.
	if h := evaluate[float64](p, `document.getElementById("consent-banner").getBoundingClientRect().height`); h > 160 {
		t.Errorf("the cookie banner is %.0f px high on a 360 px phone, over a quarter of a 640 px screen", h)
	}
	// The visitor answers the cookie banner first; it would cover the
	// bottom of the forms.
	p.click("consent-reject", "Reject optional cookies")
	p.waitGone("consent-banner", "the cookie banner")
	p.waitTrue(`Object.keys(document.getElementById("quiz-island")).some(k => k.startsWith("__reactContainer"))`, "the question island to mount")
	shot("quiz")
	p.desktopShot(filepath.Join(screenshotDir(t), fmt.Sprintf("flow-%s-quiz-1280.png", lang)))

	// One answer by tapping, to cover the pointer path.
	p.clickCSS(`[data-testid=quiz-statement] .quiz-option:nth-child(4)`, "the fourth answer of the first statement")
	answered := 0
	reloaded := false
	sawTip := false
	for step := 0; step < 200; step++ {
		switch screen := evaluate[string](p, quizScreenJS); screen {
		case "tip":
			if !sawTip {
				shot("tip")
				sawTip = true
			}
			p.click("quiz-tip-continue", "Continue on the tip")
		case "questions":
			n := evaluate[int](p, `document.querySelectorAll('[data-testid=quiz-statement]:not([data-answered])').length`)
			for i := 0; i < n; i++ {
				// A varied pattern, so the result is not a tie.
				key := string(rune('1' + (answered+i)%5))
				if (answered+i)%3 == 0 {
					key = "4"
				}
				if err := p.run(chromedp.KeyEvent(key)); err != nil {
					t.Fatalf("press %s: %v", key, err)
				}
			}
			answered += n
			p.waitTrue(`!document.querySelector('[data-testid=quiz-next]').disabled`, "Next to be enabled once the page is answered")
			if !reloaded && answered >= 50 {
				before := evaluate[string](p, `document.querySelector('[role=progressbar]').getAttribute('aria-valuenow')`)
				p.reload()
				p.waitTrue(`Object.keys(document.getElementById("quiz-island")).some(k => k.startsWith("__reactContainer"))`, "the island after a reload")
				after := evaluate[string](p, `document.querySelector('[role=progressbar]').getAttribute('aria-valuenow')`)
				if after != before {
					t.Fatalf("a reload lost answers: %s answered before, %s after", before, after)
				}
				reloaded = true
				p.waitTrue(`!document.querySelector('[data-testid=quiz-next]').disabled`, "the answered page after the reload")
			}
			if err := p.run(chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatalf("press Enter: %v", err)
			}
		case "calculating":
			shot("calculating")
			p.waitVisible("get-report", "the answers-submitted screen after calculating")
			step = 1000
		case "submitted":
			step = 1000
		default:
			t.Fatalf("unexpected screen %q after %d answers", screen, answered)
		}
	}
	if !sawTip {
		t.Error("no tip between the parts")
	}
	p.waitVisible("get-report", "Get my report")
	shot("submitted")
	p.click("get-report", "Get my report")

	p.waitVisible("email-form", "the e-mail form")
	p.fill("#email", "not-an-email")
	p.click("email-submit", "Continue with a wrong e-mail")
	p.waitVisible("email-error", "the e-mail error")
	if id := evaluate[string](p, `document.activeElement.dataset.testid || document.activeElement.id`); id != "email-errors" {
		t.Errorf("after a wrong e-mail the focus is on %q, not the error summary that links the field", id)
	}
	shot("email-error")
	p.fill("#email", "visitor@example.com")
	p.click("email-submit", "Continue")

	p.waitVisible("details-form", "the personal-details form")
	p.click("details-submit", "See my result with an empty form")
	p.waitVisible("details-errors", "the details errors")
	p.fill("#firstName", "Min")
	p.fill("#lastName", "Park")
	p.fill("#birthYear", "1994")
	p.clickCSS(`input[name=gender][value=female]`, "Female")
	evaluate[bool](p, `(s => (s.value = "KR", true))(document.querySelector("#country"))`)
	shot("details")
	p.desktopShot(filepath.Join(screenshotDir(t), fmt.Sprintf("flow-%s-details-1280.png", lang)))
	p.click("details-submit", "See my result")

	p.waitVisible("type-code", "the type on the free result")
	code := evaluate[string](p, `document.querySelector('[data-testid=type-code]').textContent`)
	if len(code) != 6 || code[4] != '-' {
		t.Errorf("type code %q", code)
	}
	// The browser answered 120 statements in seconds: the result says it
	// may be less reliable.
	p.waitVisible("fast-note", "the note on a test answered in under two minutes")
	if n := evaluate[int](p, `document.querySelectorAll('[data-testid=dimension-bars] li').length`); n != 5 {
		t.Errorf("%d dimension bars, want 5", n)
	}
	if body := evaluate[string](p, `document.body.innerText`); strings.Contains(body, "type.") || strings.Contains(body, "domain.") {
		t.Error("the free result shows a message id")
	}
}

// quizScreenJS tells which screen of the flow the page shows.
const quizScreenJS = `(() => {
  if (location.pathname.includes("/answer/submit/")) return "submitted";
  if (document.querySelector('[data-testid=quiz-calculating]')) return "calculating";
  if (document.querySelector('[data-testid=quiz-tip]')) return "tip";
  if (document.querySelector('[data-testid=quiz-statement]')) return "questions";
  return "unknown";
})()`

// desktopShot saves a full-page screenshot at 1280 px and goes back to the
// phone width the flow tests use.
func (p *browserPage) desktopShot(file string) {
	p.t.Helper()
	p.setViewport(1280, 900, false)
	// A sticky header would be drawn where the phone run left the page.
	evaluate[bool](p, `(window.scrollTo(0, 0), true)`)
	p.save(file, p.fullScreenshot())
	p.setViewport(360, 800, true)
}

// fill replaces an input's value by typing, as a visitor would.
func (p *browserPage) fill(sel, text string) {
	p.t.Helper()
	evaluate[bool](p, fmt.Sprintf(`(e => (e.value = "", true))(document.querySelector(%q))`, sel))
	if err := p.run(chromedp.SendKeys(chromedp.CSS(sel), text)); err != nil {
		p.t.Fatalf("type into %s: %v", sel, err)
	}
}
