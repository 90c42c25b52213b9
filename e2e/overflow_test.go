package e2e

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"selfmap/app/apptest"
	"selfmap/internal/account"
	"selfmap/internal/ids"
	"selfmap/internal/store"
	"selfmap/internal/subscription"
)

// overflowPages are the pages TestNoOverflow opens in every language of
// overflowLangs, signed in as a member with a Basic subscription. A new
// page is one line. In a path, {p} is the default pair, {s} the member's
// subscription, {n} a notice the member may read and {t} a one-time cancel
// link's token. Aliases of a listed screen (/userCenter, /user/setting,
// /userCenter/user-info, /payinsider) are left out.
var overflowPages = []struct {
	path   string
	status int64
}{
	// The user centre and the account screens it links to.
	{"/userCenter/home", 200},
	{"/userCenter/reportList", 200},
	{"/userCenter/reportList?tab=pending", 200},
	{"/userCenter/rightsInterests", 200},
	{"/userCenter/resultReport", 200},
	{"/userCenter/notification", 200},
	{"/userCenter/notification/detail?id={n}", 200},
	{"/userCenter/setting", 200},
	{"/userCenter/setting/userInfo", 200},
	{"/userCenter/setting/billing", 200},
	{"/userCenter/cancel", 200},
	{"/user/edit-password", 200},
	// The subscription screens.
	{"/paying/scheme/{p}", 200},
	{"/paying/premiumSubscriptions/{p}", 200},
	{"/paying/subscribe/check/{p}?s={s}", 200},
	{"/paying/upgrade/{p}", 200},
	{"/cancel/subscription/{p}", 200},
	{"/cancel/confirm/{p}?t={t}", 200},
	{"/cancel/success/{p}", 200},
	// The legal documents (content.Documents).
	{"/legal/privacy/{p}", 200},
	{"/legal/terms/{p}", 200},
	{"/legal/subscription-terms/{p}", 200},
	{"/legal/cookies/{p}", 200},
}

// overflowLangs are the locales whose text is the hardest to fit: German's
// long compounds, and Japanese and Korean, which must not break inside a
// word. wordBreak and lineBreak are what <body> must compute to.
var overflowLangs = []struct{ prefix, tag, wordBreak, lineBreak string }{
	{"/de", "de", "normal", ""},
	{"/ja", "ja", "normal", "strict"},
	{"/ko", "ko", "keep-all", ""},
}

// TestNoOverflow opens every page of overflowPages at 360 px in German,
// Japanese and Korean and fails on anything that does not fit the screen:
// a document wider than the screen, an element or a run of text whose right
// edge passes it, or a box whose content spills out of it sideways. Each
// failure names the page, the element (a short selector) and its text, and
// saves the page's screenshot (every page's with OVERFLOW_SCREENSHOTS=1).
func TestNoOverflow(t *testing.T) {
	start := time.Now()
	dir := screenshotDir(t)
	p := newPageWithin(t, 55*time.Second)
	p.setViewport(360, 800, true)
	vars := overflowMember(t, p)

	for _, lang := range overflowLangs {
		for _, pg := range overflowPages {
			path := lang.prefix + pg.path
			for k, v := range vars {
				path = strings.ReplaceAll(path, k, v)
			}
			p.openExpecting(path, pg.status)
			if got := evaluate[string](p, `document.documentElement.lang`); got != lang.tag {
				t.Errorf("%s: <html lang> is %q, want %q (the browser picks line breaks and hyphens by it)", path, got, lang.tag)
			}
			style := evaluate[[2]string](p, `(s => [s.wordBreak, s.lineBreak])(getComputedStyle(document.body))`)
			if style[0] != lang.wordBreak || (lang.lineBreak != "" && style[1] != lang.lineBreak) {
				t.Errorf("%s: the text has word-break %q and line-break %q, want %q and %q", path, style[0], style[1], lang.wordBreak, lang.lineBreak)
			}
			problems := evaluate[[]string](p, overflowScript)
			for _, problem := range problems {
				t.Errorf("%s at 360 px: %s", path, problem)
			}
			if len(problems) > 0 || os.Getenv("OVERFLOW_SCREENSHOTS") != "" {
				p.save(filepath.Join(dir, "overflow"+shotName.Replace(lang.prefix+pg.path)+"-360.png"), p.fullScreenshot())
			}
		}
	}
	t.Logf("%d pages in %d languages in %s", len(overflowPages), len(overflowLangs), time.Since(start).Round(time.Millisecond))
}

// shotName turns a line of overflowPages into a screenshot's name:
// /de/paying/subscribe/check/{p}?s={s} is -de-paying-subscribe-check-p-ss.
var shotName = strings.NewReplacer("/", "-", "?", "-", "=", "", "&", "-", "{", "", "}", "")

// overflowMember signs a new member in, with a Basic subscription paid for
// a week, and returns the values of the placeholders of overflowPages.
func overflowMember(t *testing.T, p *browserPage) map[string]string {
	t.Helper()
	ctx := context.Background()
	st := openDatabase(t)
	email := "e2e-fit-" + time.Now().Format("150405.000000") + "@example.com"
	now := time.Now().UTC()
	u := store.User{ID: ids.New(), Email: email, Name: apptest.UserName, PasswordHash: account.HashPassword(apptest.Password),
		SessionGen: 1, CreatedAt: now, UpdatedAt: now}
	if err := st.CreateUser(ctx, st.DB, u); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkUserVerified(ctx, st.DB, u.ID, now); err != nil {
		t.Fatal(err)
	}
	sub := apptest.Subscribe(t, apptest.Subscriptions(st, time.Now),
		subscription.StartInput{CustomerID: u.ID, Email: email, PlanID: "basic-weekly"}, false)

	p.open("/user/login")
	p.click("consent-reject", "the banner's reject button")
	p.waitGone("consent-banner", "the cookie banner after reject")
	p.fill("[data-testid=email]", email)
	p.fill("[data-testid=password]", apptest.Password)
	p.click("login-form-submit", "the log-in button")
	// The form navigates: poll across the page change.
	for i := 0; ; i++ {
		left, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`location.pathname !== '/user/login' && document.readyState === 'complete'`))
		if err == nil && left {
			break
		}
		if i == 100 {
			t.Fatal("the log-in form did not lead anywhere within 10 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.open("/userCenter/home")
	p.waitVisible("uc-home", "the user centre, signed in")

	p.open("/userCenter/notification")
	notice := evaluate[string](p, `(a => a ? new URL(a.href).searchParams.get('id') : '')(document.querySelector('[data-testid=notice-list] h3 a'))`)
	if notice == "" {
		t.Fatal("the member's notice list links to no notice")
	}

	p.open("/cancel/subscription/BMBTI-1807")
	p.fill("#email", email)
	p.click("cancel-submit", "the cancel form's button")
	p.waitVisible("cancel-sent", "the link-sent message")
	p.open("/dev/mail")
	link := cancelLink.FindString(evaluate[string](p, `document.body.innerText`))
	if link == "" {
		t.Fatal("no cancel link in the development outbox")
	}
	u2, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"{p}": "BMBTI-1807", "{s}": sub.ID, "{n}": notice, "{t}": u2.Query().Get("t")}
}

// overflowScript lists, as sentences, what passes the right edge of the
// screen or spills out of its box: at most eight, the innermost first.
// Content clipped by an ancestor (overflow hidden or clip, as in
// .visually-hidden) is not seen, so it does not count.
const overflowScript = `(() => {
	const root = document.documentElement, vw = root.clientWidth, out = [];
	if (root.scrollWidth > vw) out.push('the document is ' + root.scrollWidth + ' px wide on a ' + vw + ' px screen');
	const clipped = e => {
		for (let a = e; a && a !== document.body; a = a.parentElement) {
			const x = getComputedStyle(a).overflowX;
			if (x === 'hidden' || x === 'clip') return true;
		}
		return false;
	};
	const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
		(e.dataset && e.dataset.testid ? '[data-testid=' + e.dataset.testid + ']' : '') +
		(typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\s+/).join('.') : '');
	const selector = e => {
		const parts = [];
		for (let a = e; a && a !== document.body && parts.length < 3; a = a.parentElement) parts.unshift(name(a));
		return parts.join(' > ');
	};
	const text = e => '"' + (e.innerText || e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60) + '"';
	const bad = [];
	for (const e of document.body.querySelectorAll('*')) {
		if (!e.checkVisibility({visibilityProperty: true}) || clipped(e)) continue;
		const r = e.getBoundingClientRect();
		let why = '';
		if (r.width > 0 && r.height > 0 && r.right > vw + 0.5) {
			why = 'ends at ' + Math.round(r.right) + ' px';
		} else if ([...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) {
			const range = document.createRange();
			range.selectNodeContents(e);
			const right = Math.max(0, ...[...range.getClientRects()].map(q => q.right));
			if (right > vw + 0.5) why = 'has text that ends at ' + Math.round(right) + ' px';
		}
		const s = getComputedStyle(e);
		if (!why && s.display !== 'inline' && s.overflowX === 'visible' && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) {
			why = 'holds content ' + (e.scrollWidth - e.clientWidth) + ' px wider than its box';
		}
		if (why) bad.push([e, why]);
	}
	const inner = bad.filter(([e]) => !bad.some(([o]) => o !== e && e.contains(o)));
	for (const [e, why] of inner.slice(0, 8)) out.push(selector(e) + ' ' + text(e) + ' ' + why);
	return out;
})()`
