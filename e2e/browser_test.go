package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"selfmap/internal/pdf"
)

const (
	// scenarioTimeout bounds one scenario: browser start, pages and checks.
	scenarioTimeout = 30 * time.Second
	// waitTimeout bounds one wait for a condition on the page.
	waitTimeout = 10 * time.Second
)

func TestHome(t *testing.T) {
	for _, tc := range []struct {
		name, path, lang string
	}{
		{"en", "/", "en"},
		{"ja", "/ja/", "ja"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPage(t)
			p.open(tc.path)

			if got := evaluate[string](p, `document.documentElement.lang`); got != tc.lang {
				t.Errorf("GET %s: <html lang> is %q, want %q (screen readers and search engines see the wrong language)", tc.path, got, tc.lang)
			}
			want := localeTitle(t, tc.lang)
			if got := p.title(); got != want {
				t.Errorf("GET %s: the browser tab says %q, want %q (meta.title of locales/meta.%s.toml)", tc.path, got, want, tc.lang)
			}
			p.waitVisible("hero-title", "the page heading")
			p.assertCleanConsole()
		})
	}
}

func TestConsentBanner(t *testing.T) {
	for _, tc := range []struct {
		name, button, cookie string
	}{
		{"accept", "consent-accept", "v1.a1.m1"},
		{"reject", "consent-reject", "v1.a0.m0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPage(t)
			p.open("/")
			p.waitVisible("consent-banner", "the cookie banner on a first visit")
			p.markDocument()

			p.click(tc.button, "the banner's "+tc.name+" button")
			p.waitGone("consent-banner", "the cookie banner after "+tc.name)
			p.assertSameDocument("the banner should be sent with fetch, not by reloading the page")

			if got, ok := p.cookie("consent"); !ok || got != tc.cookie {
				t.Errorf("after %s, the consent cookie is %q (set: %t), want %q", tc.name, got, ok, tc.cookie)
			}

			p.reload()
			p.waitVisible("hero-title", "the page heading after a reload")
			p.assertAbsent("consent-banner", "the cookie banner came back after a reload, although the visitor chose")
			p.assertCleanConsole()
		})
	}
}

func TestConsentManagePreferences(t *testing.T) {
	p := newPage(t)
	p.open("/")
	p.waitVisible("consent-banner", "the cookie banner on a first visit")
	p.markDocument()

	p.click("consent-manage", "Manage preferences")
	p.waitVisible("consent-dialog", "the cookie preferences dialog (the React island)")

	p.clickCSS(`[data-testid=consent-dialog] input[name=analytics]`, "the Analytics checkbox")
	p.waitTrue(`document.querySelector('[data-testid=consent-dialog] input[name=analytics]').checked`,
		"the Analytics checkbox to be ticked")
	if evaluate[bool](p, `document.querySelector('[data-testid=consent-dialog] input[name=marketing]').checked`) {
		t.Error("the Advertising checkbox is ticked, but nobody ticked it")
	}

	p.click("consent-save", "Save preferences")
	p.waitGone("consent-dialog", "the preferences dialog after Save")
	p.waitGone("consent-banner", "the cookie banner after Save")
	p.assertSameDocument("saving the preferences should not reload the page")

	const want = "v1.a1.m0" // analytics on, marketing off
	if got, ok := p.cookie("consent"); !ok || got != want {
		t.Errorf("after saving Analytics only, the consent cookie is %q (set: %t), want %q", got, ok, want)
	}
	p.assertCleanConsole()
}

func TestScreenshots(t *testing.T) {
	dir := screenshotDir(t)
	for _, pg := range []struct{ name, path string }{
		{"home-en", "/"},
		{"home-ja", "/ja/"},
	} {
		for _, width := range []int64{360, 1280} {
			name := fmt.Sprintf("%s-%d", pg.name, width)
			t.Run(name, func(t *testing.T) {
				p := newPage(t)
				mobile := width < 600
				p.setViewport(width, 800, mobile)
				p.open(pg.path)
				p.waitVisible("hero-title", "the page heading")
				p.waitTrue(`document.fonts.status === "loaded"`, "the web fonts to load")

				if mobile {
					sizes := evaluate[[2]int64](p, `[document.documentElement.scrollWidth, window.innerWidth]`)
					if sizes[0] > sizes[1] {
						t.Errorf("GET %s at %d px: the page is %d px wide, wider than the %d px screen, so it scrolls sideways on a phone",
							pg.path, width, sizes[0], sizes[1])
					}
				}
				// The first screen, as a visitor sees it on arrival.
				p.save(filepath.Join(dir, name+"-first.png"), p.viewportScreenshot())
				p.save(filepath.Join(dir, name+".png"), p.fullScreenshot())

				if mobile {
					// The navigation hides behind Menu; the keyboard opens it.
					p.assertHidden("nav", "the wide navigation row shows on a phone")
					if err := p.run(chromedp.Focus(chromedp.CSS(".nav-menu > summary")), chromedp.KeyEvent(kb.Enter)); err != nil {
						t.Fatalf("press Enter on Menu: %v", err)
					}
					p.waitVisible("nav-menu", "the navigation after pressing Enter on Menu")
					p.save(filepath.Join(dir, name+"-menu.png"), p.viewportScreenshot())
				} else {
					p.waitVisible("nav", "the navigation row on a wide screen")
				}
				p.assertCleanConsole()
			})
		}
	}
}

// chromiumPath finds Debian's Chromium. Without it the browser tests skip,
// except under CI, where nothing may skip.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (looked for /usr/bin/chromium and chromium on PATH); under CI the browser tests must run")
	}
	t.Skip("chromium is not installed (looked for /usr/bin/chromium and chromium on PATH)")
	return ""
}

// localeTitle reads meta.title from locales/meta.<lang>.toml.
func localeTitle(t *testing.T, lang string) string {
	t.Helper()
	var locale struct {
		Meta struct {
			Title string `toml:"title"`
		} `toml:"meta"`
	}
	file := filepath.Join(moduleRoot, "locales", "meta."+lang+".toml")
	if _, err := toml.DecodeFile(file, &locale); err != nil {
		t.Fatalf("read %s: %v", file, err)
	}
	if locale.Meta.Title == "" {
		t.Fatalf("%s has no meta.title", file)
	}
	return locale.Meta.Title
}

// screenshotDir is $SCREENSHOT_DIR, or test-artifacts/screenshots in the
// module root (git-ignored), created if needed.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir == "" {
		dir = filepath.Join(moduleRoot, "test-artifacts", "screenshots")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browserPage is one tab of a fresh Chromium with its own profile, so no
// cookie leaks from one scenario into the next. It records what the page
// writes to the console and the JavaScript dialogs it opens.
type browserPage struct {
	t   *testing.T
	ctx context.Context
	// base is the server the page opens paths on: TestMain's (baseURL)
	// unless the test started its own.
	base string

	mu       sync.Mutex
	console  []consoleEntry
	requests []string
	dialogs  chan string
}

type consoleEntry struct {
	bad  bool // an error, an uncaught exception or a CSP violation
	text string
}

// newPage starts Chromium for one scenario; everything it does is bounded by
// scenarioTimeout, and the browser stops when the test ends.
func newPage(t *testing.T) *browserPage {
	t.Helper()
	return newPageWithin(t, scenarioTimeout)
}

// newPageWithin is newPage for a scenario that needs longer than usual.
func newPageWithin(t *testing.T, limit time.Duration) *browserPage {
	t.Helper()
	return newPageAt(t, baseURL, limit)
}

// newPageAt is newPageWithin on another server than TestMain's.
func newPageAt(t *testing.T, base string, limit time.Duration) *browserPage {
	t.Helper()
	execPath := chromiumPath(t)

	ctx, cancel := context.WithTimeout(context.Background(), limit)
	t.Cleanup(cancel)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, pdf.Options(execPath, t.TempDir())...)
	t.Cleanup(cancelAlloc) // waits for the browser, before TempDir is removed

	p := &browserPage{t: t, base: base, dialogs: make(chan string, 8)}
	tabCtx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(p.record))
	t.Cleanup(cancelTab)
	p.ctx = tabCtx
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("start Chromium (%s): %v", execPath, err)
	}
	go p.dismissDialogs()
	return p
}

// record runs in the loop that reads the tab's messages: it must be fast
// and send no command.
func (p *browserPage) record(ev any) {
	var e consoleEntry
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		p.mu.Lock()
		p.requests = append(p.requests, ev.Request.URL)
		p.mu.Unlock()
		return
	case *runtime.EventConsoleAPICalled:
		args := make([]string, len(ev.Args))
		for i, a := range ev.Args {
			args[i] = remoteText(a)
		}
		e = consoleEntry{
			bad:  ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert,
			text: fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")),
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		e = consoleEntry{bad: true, text: fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, text)}
	case *log.EventEntryAdded:
		l := ev.Entry
		e = consoleEntry{
			bad:  l.Level == log.EntryLevelError,
			text: fmt.Sprintf("browser log (%s %s) %s: %s", l.Source, l.Level, l.URL, l.Text),
		}
	case *page.EventJavascriptDialogOpening:
		e = consoleEntry{bad: true, text: fmt.Sprintf("the page opened a %s dialog: %q", ev.Type, ev.Message)}
		select {
		case p.dialogs <- ev.Message:
		default:
		}
	default:
		return
	}
	if strings.Contains(e.text, "Content Security Policy") {
		e.bad = true
	}
	p.mu.Lock()
	p.console = append(p.console, e)
	p.mu.Unlock()
}

// dismissDialogs closes every alert the page opens, so that a failure shows
// as a message and not as a page that hangs until the timeout.
func (p *browserPage) dismissDialogs() {
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-p.dialogs:
			_, _ = chromedp.Call(p.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}
}

// remoteText is a console argument as the DevTools console shows it, roughly.
func remoteText(o *runtime.RemoteObject) string {
	if len(o.Value) > 0 {
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
		return string(o.Value)
	}
	if o.UnserializableValue != "" {
		return string(o.UnserializableValue)
	}
	return o.Description
}

// assertCleanConsole fails on console errors, uncaught exceptions, alerts
// and Content Security Policy violations seen so far, and logs the rest.
// assertCleanConsole fails on any problem the browser reported, except the
// expected ones (substrings of the report, such as the 422 status of a form
// sent back with its errors on purpose).
func (p *browserPage) assertCleanConsole(expected ...string) {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.console {
		if e.bad && !containsAny(e.text, expected) {
			p.t.Errorf("the browser reported a problem: %s", e.text)
		} else {
			p.t.Logf("browser console: %s", e.text)
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// run runs the actions with a shorter bound than the scenario's, so that a
// wait that never ends fails with its own message.
func (p *browserPage) run(actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

// open loads a path of the server and expects 200.
func (p *browserPage) open(path string) {
	p.t.Helper()
	p.openExpecting(path, 200)
}

// openExpecting loads a path of the server and expects the status.
func (p *browserPage) openExpecting(path string, status int64) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(p.base+path))
	if err != nil {
		p.t.Fatalf("open %s: %v", path, err)
	}
	if resp.Status != status {
		p.t.Fatalf("open %s: the visitor gets HTTP %d %s, want %d", path, resp.Status, resp.StatusText, status)
	}
}

func (p *browserPage) reload() {
	p.t.Helper()
	if err := p.run(chromedp.Reload()); err != nil {
		p.t.Fatalf("reload: %v", err)
	}
}

func (p *browserPage) title() string {
	p.t.Helper()
	title, err := chromedp.Run(p.ctx, chromedp.Title())
	if err != nil {
		p.t.Fatalf("read document.title: %v", err)
	}
	return title
}

// setViewport emulates a screen of width×height CSS pixels at device scale
// factor 1; mobile also turns on the phone layout viewport and touch.
func (p *browserPage) setViewport(width, height int64, mobile bool) {
	p.t.Helper()
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := p.run(chromedp.EmulateViewport(width, height, opts...)); err != nil {
		p.t.Fatalf("emulate a %dx%d screen: %v", width, height, err)
	}
}

func testID(id string) chromedp.CSS {
	return chromedp.CSS(fmt.Sprintf("[data-testid=%q]", id))
}

func (p *browserPage) waitVisible(id, what string) {
	p.t.Helper()
	if err := p.run(chromedp.WaitVisible(testID(id))); err != nil {
		p.t.Fatalf("%s ([data-testid=%s]) is not visible after %s: %v", what, id, waitTimeout, err)
	}
}

// waitVisibleCSS waits for an element by selector; like waitVisible, it
// survives navigations on the way (a meta refresh).
func (p *browserPage) waitVisibleCSS(sel, what string) {
	p.t.Helper()
	if err := p.run(chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("%s (%s) is not visible after %s: %v", what, sel, waitTimeout, err)
	}
}

func (p *browserPage) waitGone(id, what string) {
	p.t.Helper()
	if err := p.run(chromedp.WaitNotPresent(testID(id))); err != nil {
		p.t.Fatalf("%s ([data-testid=%s]) is still on the page after %s: %v", what, id, waitTimeout, err)
	}
}

func (p *browserPage) assertAbsent(id, problem string) {
	p.t.Helper()
	if evaluate[bool](p, fmt.Sprintf(`document.querySelector('[data-testid=%q]') !== null`, id)) {
		p.t.Errorf("%s ([data-testid=%s] is present)", problem, id)
	}
}

func (p *browserPage) click(id, what string) {
	p.t.Helper()
	if err := p.run(chromedp.Click(testID(id))); err != nil {
		p.t.Fatalf("click %s ([data-testid=%s]): %v", what, id, err)
	}
}

func (p *browserPage) clickCSS(sel, what string) {
	p.t.Helper()
	if err := p.run(chromedp.Click(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("click %s (%s): %v", what, sel, err)
	}
}

// waitTrue polls a JavaScript expression until it is true.
func (p *browserPage) waitTrue(expr, what string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(waitTimeout))); err != nil {
		p.t.Fatalf("waited %s for %s (%s): %v", waitTimeout, what, expr, err)
	}
}

// markDocument tags the current document, so that assertSameDocument can
// tell an in-page update from a navigation.
func (p *browserPage) markDocument() {
	p.t.Helper()
	evaluate[bool](p, `window.__e2eDocument = true`)
}

func (p *browserPage) assertSameDocument(why string) {
	p.t.Helper()
	if !evaluate[bool](p, `window.__e2eDocument === true`) {
		p.t.Errorf("the page was reloaded or left: %s", why)
	}
}

// cookie reads a cookie of the current page through the DevTools protocol,
// so HttpOnly cookies count too.
func (p *browserPage) cookie(name string) (string, bool) {
	p.t.Helper()
	res, err := chromedp.Call(p.ctx, network.GetCookies, network.GetCookiesParams{})
	if err != nil {
		p.t.Fatalf("read cookies: %v", err)
	}
	for _, c := range res.Cookies {
		if c.Name == name {
			return c.Value, true
		}
	}
	return "", false
}

func (p *browserPage) viewportScreenshot() []byte {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	return png
}

func (p *browserPage) save(file string, png []byte) {
	p.t.Helper()
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", file)
}

// assertHidden fails when an element with the test id is rendered visibly.
func (p *browserPage) assertHidden(id, problem string) {
	p.t.Helper()
	if evaluate[bool](p, fmt.Sprintf(`(e => e !== null && e.checkVisibility())(document.querySelector('[data-testid=%q]'))`, id)) {
		p.t.Errorf("%s ([data-testid=%s] is visible)", problem, id)
	}
}

func (p *browserPage) fullScreenshot() []byte {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	return png
}

// evaluate runs a JavaScript expression in the page and decodes its value.
func evaluate[T any](p *browserPage, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}
