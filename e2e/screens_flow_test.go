package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestDepressionScreenFlow takes the depression screen (PHQ-9) on a 360 px
// phone in English and Japanese, answering item 9 "Several days" by a tap
// and the other eight "Not at all" by keys: the note that it is a screen
// and private, nine items of four answers on one page, a calculating screen
// without the Big Five meters, then the e-mail, a details step without year
// of birth or sex, and the free result, whose crisis block comes before the
// score. Screenshots of each screen land in the screenshot folder.
func TestDepressionScreenFlow(t *testing.T) {
	dir := screenshotDir(t)
	for _, tc := range []struct{ lang, prefix, several, country string }{
		{"en", "", "Several days", "GB"},
		{"ja", "/ja", "数日", "JP"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			p := newPageWithin(t, 90*time.Second)
			p.setViewport(360, 800, true)
			shot := func(name string) {
				p.save(filepath.Join(dir, fmt.Sprintf("screen-deps-%s-%s.png", tc.lang, name)), p.viewportScreenshot())
			}
			p.open(tc.prefix + "/answer/question/BDEPS-2001")
			if got := evaluate[string](p, `document.documentElement.lang`); got != tc.lang {
				t.Fatalf("question page lang %q, want %q", got, tc.lang)
			}
			p.waitVisible("quiz-statement", "the items, rendered by the server")
			p.click("consent-reject", "Reject optional cookies")
			p.waitGone("consent-banner", "the cookie banner")
			p.waitTrue(`Object.keys(document.getElementById("quiz-island")).some(k => k.startsWith("__reactContainer"))`, "the question island to mount")
			p.waitVisible("quiz-screen-note", "the note that this is a screen, not a diagnosis")
			if ok := evaluate[bool](p, `(() => {
  const note = document.querySelector('[data-testid=quiz-screen-note]');
  const first = document.querySelector('[data-testid=quiz-statement]');
  return !!(note.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING);
})()`); !ok {
				t.Error("the screen note is not before the first item")
			}
			if n := evaluate[[]int](p, `[...document.querySelectorAll('[data-testid=quiz-statement]')].map(f => f.querySelectorAll('label input[type=radio]').length)`); len(n) != 9 {
				t.Fatalf("%d items on the page, want 9", len(n))
			} else {
				for i, c := range n {
					if c != 4 {
						t.Errorf("item %d has %d labelled answers, want 4", i+1, c)
					}
				}
			}
			if sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`); sizes[0] > sizes[1] {
				t.Errorf("the question page is %d px wide on a %d px phone", sizes[0], sizes[1])
			}
			shot("quiz")
			p.desktopShot(filepath.Join(dir, fmt.Sprintf("screen-deps-%s-quiz-1280.png", tc.lang)))

			// Item 9, "Several days", by a tap; the focus then moves to item 1.
			item9 := `[data-testid=quiz-statement]:nth-of-type(9) .quiz-option:nth-child(2)`
			if got := evaluate[string](p, fmt.Sprintf(`document.querySelector(%q).textContent`, item9)); got != tc.several {
				t.Fatalf("the second answer of item 9 reads %q, want %q", got, tc.several)
			}
			p.clickCSS(item9, "Several days on item 9")
			for i := 0; i < 8; i++ {
				if err := p.run(chromedp.KeyEvent("0")); err != nil {
					t.Fatalf("press 0: %v", err)
				}
			}
			p.waitTrue(`!document.querySelector('[data-testid=quiz-next]').disabled`, "See my result once all nine are answered")
			if v := evaluate[string](p, `document.querySelector('fieldset:nth-of-type(9) input:checked')?.value ?? ""`); v != "1" {
				t.Errorf("item 9 holds %q, want 1 (Several days)", v)
			}
			shot("answered")
			if err := p.run(chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatalf("press Enter: %v", err)
			}
			// The calculating screen shows for a moment: no trait meters on a screen.
			if screen := evaluate[string](p, quizScreenJS); screen == "calculating" {
				if evaluate[bool](p, `!!document.querySelector('.quiz-meters')`) {
					t.Error("the screen's calculating screen shows the Big Five meters")
				}
				shot("calculating")
			}
			p.waitVisible("get-report", "the answers-submitted screen")
			shot("submitted")
			p.click("get-report", "Get my report")

			p.waitVisible("email-form", "the e-mail form")
			p.fill("#email", "screen-"+tc.lang+"@example.com")
			p.click("email-submit", "Continue")

			p.waitVisible("details-form", "the details form")
			p.assertAbsent("details-errors", "errors before the form was sent")
			if n := evaluate[int](p, `document.querySelectorAll('#birthYear, input[name=gender]').length`); n != 0 {
				t.Errorf("the screen's details step asks year of birth or sex (%d fields)", n)
			}
			p.fill("#firstName", "Sam")
			p.fill("#lastName", "Lee")
			evaluate[bool](p, fmt.Sprintf(`(s => (s.value = %q, true))(document.querySelector("#country"))`, tc.country))
			shot("details")
			p.desktopShot(filepath.Join(dir, fmt.Sprintf("screen-deps-%s-details-1280.png", tc.lang)))
			p.click("details-submit", "See my result")

			p.waitVisible("crisis", "the crisis block on the free result (item 9 above 0)")
			p.waitVisible("screen-score", "the score on the free result")
			if ok := evaluate[bool](p, `(() => {
  const crisis = document.querySelector('[data-testid=crisis]');
  const score = document.querySelector('[data-testid=screen-score]');
  return !!(crisis.compareDocumentPosition(score) & Node.DOCUMENT_POSITION_FOLLOWING);
})()`); !ok {
				t.Error("the score comes before the crisis block")
			}
			if sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`); sizes[0] > sizes[1] {
				t.Errorf("the free result is %d px wide on a %d px phone", sizes[0], sizes[1])
			}
			shot("result")
			p.save(filepath.Join(dir, fmt.Sprintf("screen-deps-%s-result-full.png", tc.lang)), p.fullScreenshot())
			p.assertCleanConsole()
		})
	}
}
