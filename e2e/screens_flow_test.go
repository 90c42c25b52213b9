package e2e

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
	for _, tc := range []struct{ lang, prefix, several, country string }{
		{"en", "", "Several days", "GB"},
		{"ja", "/ja", "数日", "JP"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			p := newPageWithin(t, 90*time.Second)
			takeScreen(t, p, depressionCase(tc.lang, tc.prefix, tc.several, tc.country))
			p.assertCleanConsole()
		})
	}
}

// TestDistressScreenFlow takes the general psychological test (K10) on a
// 360 px phone: ten items of five answers, two pages of five, the first
// item by a tap and the rest by keys. In English and German the answers
// sum to 32, the top band, so the free result opens with the crisis block
// of the visitor's country before the score; a low sum (12) in English
// shows the score without it.
func TestDistressScreenFlow(t *testing.T) {
	high := []int{5, 3, 3, 3, 3, 3, 3, 3, 3, 3}
	low := []int{1, 1, 2, 1, 1, 1, 2, 1, 1, 1}
	for _, tc := range []struct {
		name, lang, prefix, label, country, band string
		answers                                  []int
		crisis                                   bool
	}{
		{"en", "en", "", "All of the time", "GB", "k10.band.very_high", high, true},
		{"de", "de", "/de", "Immer", "DE", "k10.band.very_high", high, true},
		{"en-low", "en", "", "None of the time", "GB", "k10.band.low", low, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPageWithin(t, 90*time.Second)
			takeScreen(t, p, screenCase{
				exam: "BYDGX-2002", shots: "ydgx-" + tc.name, lang: tc.lang, prefix: tc.prefix, country: tc.country,
				email: "distress-" + tc.name + "@example.com", options: 5, pageSize: 5, max: 50,
				answers: tc.answers, tap: 0, tapLabel: tc.label, band: tc.band, crisis: tc.crisis,
			})
			p.assertCleanConsole()
		})
	}
}

// TestScreenReportAndPDF buys the depression screen's report with the
// sandbox card after a result with item 9 above 0: the report opens with
// the crisis block before the score, and its PDF, made by the job queue
// while a page waits for it, is a PDF whose text has the crisis heading
// before the score too.
func TestScreenReportAndPDF(t *testing.T) {
	dir := screenshotDir(t)
	p := newPageWithin(t, 120*time.Second)
	c := depressionCase("en", "", "Several days", "GB")
	c.shots, c.email = "deps-en-paid", "screen-paid@example.com"
	takeScreen(t, p, c)
	shot := func(name string) {
		p.save(filepath.Join(dir, "screen-deps-en-paid-"+name+".png"), p.viewportScreenshot())
	}

	p.click("unlock", "Get the full report")
	p.waitVisible("buy", "the product page")
	shot("buy")
	p.click("unlock-report", "Unlock my report")
	p.waitVisible("payment", "the payment page")
	p.waitTrue(`!document.querySelector('[data-testid=pay-button]').disabled`, "the card form to be ready")
	for _, f := range [][2]string{{"card-number", "4242 4242 4242 4242"}, {"card-expiry", "12 / 30"},
		{"card-cvc", "123"}, {"card-name", "Sam Lee"}, {"card-postal", "SW1A 1AA"}} {
		p.fill(`[data-testid=`+f[0]+`]`, f[1])
	}
	shot("card")
	p.click("pay-button", "Pay with the sandbox card")
	p.waitVisible("pay-success", "the success screen")
	// The success screen opens the report by itself after 3 seconds.
	p.waitVisibleCSS(`[data-testid=report][data-screen]`, "the screen's report after the countdown")
	p.waitVisible("screen-score", "the score on the report")
	if !p.crisisFirst() {
		t.Error("the report shows the score before the crisis block")
	}
	p.assertFitsPhone("the screen's report")
	shot("report")
	p.save(filepath.Join(dir, "screen-deps-en-paid-report-full.png"), p.fullScreenshot())

	// The PDF is made by a job: the button leads to a page that looks again
	// every 3 seconds, then says it is ready and offers the file.
	p.click("download-pdf", "Download the PDF")
	ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitVisible(testID("pdf-ready"))); err != nil {
		t.Fatalf("the PDF was not ready within a minute: %v", err)
	}
	shot("pdf-ready")
	href := evaluate[string](p, `document.querySelector('[data-testid=pdf-link]').href`)
	type file struct {
		Status int    `json:"status"`
		Type   string `json:"type"`
		Body   string `json:"body"`
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[file](fmt.Sprintf(`fetch(%q).then(async r => {
  const b = new Uint8Array(await r.arrayBuffer());
  let s = "";
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return {status: r.status, type: r.headers.get("content-type") || "", body: btoa(s)};
})`, href), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fetch the PDF: %v", err)
	}
	if got.Status != 200 || got.Type != "application/pdf" {
		t.Fatalf("the PDF link answers %d %q, want 200 application/pdf", got.Status, got.Type)
	}
	pdf, err := base64.StdEncoding.DecodeString(got.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(pdf), "%PDF-") || len(pdf) < 10_000 || len(pdf) > 20_000_000 {
		t.Fatalf("the download is not a sane PDF: %d bytes starting %q", len(pdf), pdf[:min(len(pdf), 8)])
	}
	name := filepath.Join(dir, "screen-deps-en-paid-report.pdf")
	if err := os.WriteFile(name, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("PDF: %s (%d bytes)", name, len(pdf))
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Logf("pdftotext is not installed: checked only that the download is a PDF of %d bytes", len(pdf))
		return
	}
	out, err := exec.Command(pdftotext, "-enc", "UTF-8", name, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	heading, score := localeMessage(t, "en", "crisis.title"), localeMessage(t, "en", "screen.score_title")
	crisisAt, scoreAt := strings.Index(text, heading), strings.Index(text, score)
	switch {
	case crisisAt < 0:
		t.Errorf("the PDF has no crisis heading %q:\n%s", heading, text)
	case scoreAt < 0:
		t.Errorf("the PDF has no score heading %q:\n%s", score, text)
	case scoreAt < crisisAt:
		t.Errorf("the PDF has the score (at %d) before the crisis heading (at %d)", scoreAt, crisisAt)
	}
}

// screenCase is one visitor taking a screen on a 360 px phone.
type screenCase struct {
	exam                         string // the question page's pair, as BDEPS-2001
	shots                        string // the screenshots' names start screen-<shots>-
	lang, prefix, country, email string
	options, pageSize, max       int   // answers per statement, statements per page, the top score
	answers                      []int // a value per statement, in order
	tap                          int   // the statement (from 0) answered by a tap; keys answer the rest
	tapLabel                     string
	band                         string // the band's message id under screen., as k10.band.low
	crisis                       bool   // whether the free result opens with the crisis block
}

// depressionCase is the depression screen with item 9 "Several days" (the
// crisis signal) and every other item "Not at all": 1 of 27, minimal.
func depressionCase(lang, prefix, several, country string) screenCase {
	return screenCase{
		exam: "BDEPS-2001", shots: "deps-" + lang, lang: lang, prefix: prefix, country: country,
		email: "screen-" + lang + "@example.com", options: 4, pageSize: 9, max: 27,
		answers: []int{0, 0, 0, 0, 0, 0, 0, 0, 1}, tap: 8, tapLabel: several, band: "phq9.band.minimal", crisis: true,
	}
}

// takeScreen goes from a screen's question page to its free result: the
// note that it is a screen before the first item, each page's statements
// and labelled answers, one answer by a tap and the others by keys (the
// focus moves on by itself), the calculating screen without the Big Five
// meters, the e-mail, a details step without year of birth or sex, and
// the free result with the test's name, its score, band and, when
// c.crisis, the crisis block before the score. A screenshot of each screen.
func takeScreen(t *testing.T, p *browserPage, c screenCase) {
	t.Helper()
	dir := screenshotDir(t)
	p.setViewport(360, 800, true)
	shot := func(name string) {
		p.save(filepath.Join(dir, fmt.Sprintf("screen-%s-%s.png", c.shots, name)), p.viewportScreenshot())
	}
	p.open(c.prefix + "/answer/question/" + c.exam)
	if got := evaluate[string](p, `document.documentElement.lang`); got != c.lang {
		t.Fatalf("question page lang %q, want %q", got, c.lang)
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
	name := evaluate[string](p, `document.querySelector('.quiz-title').textContent`)

	sum := 0
	for from := 0; from < len(c.answers); from += c.pageSize {
		to := min(from+c.pageSize, len(c.answers))
		p.waitTrue(fmt.Sprintf(`document.querySelector('[data-testid=quiz-statement] .quiz-num')?.textContent === "%d"`, from+1),
			fmt.Sprintf("the page that starts at statement %d", from+1))
		if n := evaluate[[]int](p, `[...document.querySelectorAll('[data-testid=quiz-statement]')].map(f => f.querySelectorAll('label input[type=radio]').length)`); len(n) != to-from {
			t.Fatalf("%d items on the page of statements %d-%d, want %d", len(n), from+1, to, to-from)
		} else {
			for i, o := range n {
				if o != c.options {
					t.Errorf("item %d has %d labelled answers, want %d", from+i+1, o, c.options)
				}
			}
		}
		p.assertFitsPhone("the question page")
		if from == 0 {
			shot("quiz")
			p.desktopShot(filepath.Join(dir, fmt.Sprintf("screen-%s-quiz-1280.png", c.shots)))
		}

		// After a tap the focus moves to the next open statement, wrapping
		// to the page's first; each key answers the focused one.
		keys := make([]int, 0, to-from)
		if c.tap >= from && c.tap < to {
			opt := fmt.Sprintf(`[data-testid=quiz-statement]:nth-of-type(%d) .quiz-option:has(input[value="%d"])`, c.tap-from+1, c.answers[c.tap])
			if got := evaluate[string](p, fmt.Sprintf(`document.querySelector(%q).textContent`, opt)); got != c.tapLabel {
				t.Fatalf("the answer %d of item %d reads %q, want %q", c.answers[c.tap], c.tap+1, got, c.tapLabel)
			}
			p.clickCSS(opt, fmt.Sprintf("%q on item %d", c.tapLabel, c.tap+1))
			for i := c.tap + 1; i < to; i++ {
				keys = append(keys, i)
			}
			for i := from; i < c.tap; i++ {
				keys = append(keys, i)
			}
		} else {
			for i := from; i < to; i++ {
				keys = append(keys, i)
			}
		}
		for _, i := range keys {
			if err := p.run(chromedp.KeyEvent(strconv.Itoa(c.answers[i]))); err != nil {
				t.Fatalf("press %d: %v", c.answers[i], err)
			}
		}
		p.waitTrue(`!document.querySelector('[data-testid=quiz-next]').disabled`, "Next once the page is answered")
		want := make([]string, 0, to-from)
		for _, v := range c.answers[from:to] {
			want = append(want, strconv.Itoa(v))
			sum += v
		}
		if got := evaluate[[]string](p, `[...document.querySelectorAll('[data-testid=quiz-statement]')].map(f => f.querySelector('input:checked')?.value ?? "")`); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("statements %d-%d hold %v, want %v", from+1, to, got, want)
		}
		p.waitTrue(`document.getAnimations().every(a => a.playState !== "running")`, "the chosen answers to finish filling in")
		if from == 0 {
			shot("answered")
		} else {
			shot(fmt.Sprintf("answered-%d", from+1))
		}
		if err := p.run(chromedp.KeyEvent(kb.Enter)); err != nil {
			t.Fatalf("press Enter: %v", err)
		}
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
	p.fill("#email", c.email)
	p.click("email-submit", "Continue")

	p.waitVisible("details-form", "the details form")
	p.assertAbsent("details-errors", "errors before the form was sent")
	if n := evaluate[int](p, `document.querySelectorAll('#birthYear, input[name=gender]').length`); n != 0 {
		t.Errorf("the screen's details step asks year of birth or sex (%d fields)", n)
	}
	p.fill("#firstName", "Sam")
	p.fill("#lastName", "Lee")
	evaluate[bool](p, fmt.Sprintf(`(s => (s.value = %q, true))(document.querySelector("#country"))`, c.country))
	shot("details")
	p.desktopShot(filepath.Join(dir, fmt.Sprintf("screen-%s-details-1280.png", c.shots)))
	p.click("details-submit", "See my result")

	p.waitVisible("screen-score", "the score on the free result")
	score := strings.NewReplacer("{{.Sum}}", strconv.Itoa(sum), "{{.Max}}", strconv.Itoa(c.max)).Replace(localeMessage(t, c.lang, "screen.score_of"))
	if got := evaluate[string](p, `document.querySelector('[data-testid=screen-score]').textContent`); got != score {
		t.Errorf("the free result's score reads %q, want %q", got, score)
	}
	// A non-breaking hyphen (PHQ‑9 kept on one line) reads as a hyphen.
	if got := evaluate[string](p, `document.querySelector('[data-testid=free-result] .eyebrow').textContent`); strings.ReplaceAll(got, "\u2011", "-") != strings.ReplaceAll(name, "\u2011", "-") {
		t.Errorf("the free result calls the test %q, the question page %q", got, name)
	}
	if got, want := evaluate[string](p, `document.querySelector('[data-testid=screen-band]').textContent`), localeMessage(t, c.lang, "screen."+c.band); got != want {
		t.Errorf("the free result's band reads %q, want %q", got, want)
	}
	if c.crisis {
		p.waitVisible("crisis", "the crisis block on the free result")
		if !p.crisisFirst() {
			t.Error("the score comes before the crisis block")
		}
	} else {
		p.assertAbsent("crisis", "a crisis block on a result without the crisis signal")
	}
	p.assertFitsPhone("the free result")
	shot("result")
	p.save(filepath.Join(dir, fmt.Sprintf("screen-%s-result-full.png", c.shots)), p.fullScreenshot())
}

// crisisFirst tells whether the page's crisis block comes before its
// score.
func (p *browserPage) crisisFirst() bool {
	p.t.Helper()
	return evaluate[bool](p, `(() => {
  const crisis = document.querySelector('[data-testid=crisis]');
  const score = document.querySelector('[data-testid=screen-score]');
  return !!crisis && !!score && !!(crisis.compareDocumentPosition(score) & Node.DOCUMENT_POSITION_FOLLOWING);
})()`)
}
