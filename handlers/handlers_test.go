package handlers_test

import (
	"bufio"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"selfmap/app/apptest"
	"selfmap/internal/i18n"
	"selfmap/internal/store/storetest"
)

// browser is the kit's test browser with the steps of this package's
// screens (register, the cancel and retrieve forms, ...).
type browser struct{ *apptest.Browser }

// newBrowser is a browser with no cookies on a handler.
func newBrowser(t testing.TB, h http.Handler) *browser { return &browser{apptest.NewBrowser(t, h)} }

type scenario struct {
	name       string
	method     string
	url        string
	body       string
	headers    map[string]string
	status     int
	location   string
	contains   []string
	notContain []string
	// chunked sends the body without a Content-Length.
	chunked bool
}

func (sc scenario) run(t *testing.T, e http.Handler) *httptest.ResponseRecorder {
	t.Helper()
	method := sc.method
	if method == "" {
		method = http.MethodGet
	}
	req := httptest.NewRequest(method, sc.url, strings.NewReader(sc.body))
	if sc.chunked {
		req.ContentLength = -1
	}
	for k, v := range sc.headers {
		req.Header.Set(k, v)
	}
	if h := sc.headers["Host"]; h != "" {
		req.Host = h
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != sc.status {
		t.Fatalf("%s %s: status %d, want %d; body: %.300s", method, sc.url, rec.Code, sc.status, rec.Body.String())
	}
	if sc.location != "" && rec.Header().Get("Location") != sc.location {
		t.Errorf("%s %s: Location %q, want %q", method, sc.url, rec.Header().Get("Location"), sc.location)
	}
	for _, want := range sc.contains {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s %s: body lacks %q", method, sc.url, want)
		}
	}
	for _, unwanted := range sc.notContain {
		if strings.Contains(rec.Body.String(), unwanted) {
			t.Errorf("%s %s: body has %q", method, sc.url, unwanted)
		}
	}
	return rec
}

func TestScenarios(t *testing.T) {
	scenarios := []scenario{
		{name: "home in English", url: "/", status: 200, contains: []string{`<html lang="en">`, "Discover your personality type",
			`<link rel="canonical" href="http://selfmap.test/">`, `hreflang="ja" href="http://selfmap.test/ja/"`, `hreflang="x-default"`}},
		{name: "home in Japanese", url: "/ja/", status: 200, contains: []string{`<html lang="ja">`, `<link rel="canonical" href="http://selfmap.test/ja/">`}},
		{name: "prefix without slash", url: "/ja?gclid=1", status: 301, location: "/ja/?gclid=1"},
		{name: "hl redirects and keeps the query", url: "/?hl=FR&gclid=x", status: 302, location: "/fr/?hl=FR&gclid=x"},
		{name: "hl in lower case", url: "/landing/relax/BMBTI-1807?hl=kr", status: 302, location: "/ko/landing/relax/BMBTI-1807?hl=kr"},
		{name: "hl already matching the path", url: "/fr/?hl=FR", status: 200, contains: []string{`<html lang="fr">`}},
		{name: "bad hl", url: "/?hl=XX", status: 400, contains: []string{"“XX”", `hreflang="de"`}},
		{name: "cookie picks the locale", url: "/?a=1", headers: map[string]string{"Cookie": "i18n_redirected=de"}, status: 302, location: "/de/?a=1"},
		{name: "Accept-Language picks the locale", url: "/", headers: map[string]string{"Accept-Language": "zh-TW,zh;q=0.9"}, status: 302, location: "/zh-hk/"},
		{name: "Accept-Language we do not speak", url: "/", headers: map[string]string{"Accept-Language": "sv-SE"}, status: 200},
		{name: "cookie beats Accept-Language", url: "/", headers: map[string]string{"Cookie": "i18n_redirected=en", "Accept-Language": "ja"}, status: 200},
		{name: "a prefixed path wins over the cookie", url: "/fr/", headers: map[string]string{"Cookie": "i18n_redirected=de"}, status: 200, contains: []string{`<html lang="fr">`}},
		{name: "unknown path", url: "/no/such", status: 404, contains: []string{"Page Not Found: /no/such", `data-testid="go-home"`, `href="/"`, "noindex"}},
		{name: "unknown path in a locale", url: "/de/no/such?x=1&gclid=g", status: 404, contains: []string{"Seite nicht gefunden: /de/no/such", `href="/de/?gclid=g"`},
			notContain: []string{"x=1"}},
		{name: "unknown code", url: "/landing/relax/NOPE-1", status: 404, contains: []string{"Page Not Found: /landing/relax/NOPE-1"}},
		{name: "unknown exam", url: "/homepage/BMBTI-1", status: 404},
		{name: "malformed pair", url: "/homepage/BMBTI1807", status: 404},
		{name: "unknown landing", url: "/landing/nope/BMBTI-1807", status: 404},
		{name: "landing theme", url: "/landing/relax/BMBTI-1807", status: 200, contains: []string{`data-theme="relax"`, "/assets/themes/relax/theme."}},
		{name: "error page keeps the landing theme's home", url: "/landing/relax/BMBTI-1807x", status: 404, contains: []string{`data-theme="home"`}},
		{name: "host picks the theme", url: "/", headers: map[string]string{"Host": "www.relax.example"}, status: 200,
			contains: []string{`data-theme="relax"`, `<link rel="canonical" href="http://www.relax.example/">`}},
		{name: "host beats the landing name", url: "/landing/young/BMBTI-1807", headers: map[string]string{"Host": "relax.example"}, status: 200, contains: []string{`data-theme="relax"`}},
		{name: "404 on a site goes back to its theme home", url: "/nope", headers: map[string]string{"Host": "relax.example"}, status: 404,
			contains: []string{`href="/landing/relax/BMBTI-1807"`}},
		{name: "legacy alias keeps locale and query", url: "/fr/relaxPage/BMBTI-1807?gclid=x", status: 301, location: "/fr/landing/relax/BMBTI-1807?gclid=x"},
		{name: "legacy alias with a bad pair", url: "/relaxPage/NOPE-1807", status: 404},
		{name: "consent without a token", method: "POST", url: "/consent", body: "choice=all",
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 403, contains: []string{"security token"}},
		{name: "consent token refused in French", method: "POST", url: "/fr/consent", body: "choice=all&_csrf=forged",
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 403, contains: []string{`<html lang="fr">`}},
		{name: "API without a token", method: "POST", url: "/api/consent", body: `{"analytics":true,"marketing":false}`,
			headers: map[string]string{"Content-Type": "application/json"}, status: 403, contains: []string{`"result":403`}},
		{name: "body too large", method: "POST", url: "/ja/consent", body: strings.Repeat("x", 2<<20),
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 413, contains: []string{`<html lang="ja">`}},
		{name: "body too large without a length", method: "POST", url: "/ja/consent", body: strings.Repeat("x", 2<<20), chunked: true,
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 413},
		{name: "method not allowed", method: "DELETE", url: "/", status: 403},
		{name: "HEAD of a page", method: "HEAD", url: "/", status: 200},
		{name: "healthz", url: "/healthz", status: 200, contains: []string{"ok"}},
		{name: "metrics", url: "/metrics", status: 200, contains: []string{"selfmap_http_requests_total", "go_goroutines"}},
		{name: "robots", url: "/robots.txt", status: 200, contains: []string{"Sitemap: http://selfmap.test/sitemap.xml"}},
		{name: "sitemap", url: "/sitemap.xml", status: 200, contains: []string{"<loc>http://selfmap.test/ko/landing/young/BMBTI-1807</loc>",
			`hreflang="zh-HK" href="http://selfmap.test/zh-hk/"`}},
		{name: "favicon", url: "/favicon.ico", status: 301},
		{name: "missing asset", url: "/assets/themes/home/logo.0000000000.svg", status: 404},
		{name: "API language list", url: "/api/app/language/list/1807", status: 200,
			contains: []string{`"result":200`, `"code":"KR","locale":"ko"`}},
		{name: "API language list of an unknown exam", url: "/api/app/language/list/42", status: 404, contains: []string{`"result":404`, "Unknown test."}},
		{name: "API language list with a bad id", url: "/api/app/language/list/abc", status: 400, contains: []string{"examId"}},
		{name: "API view", url: "/api/app/v2/view?dl=relax.example&hl=JA&eid=1807", status: 200,
			contains: []string{`"hl":"JA"`, `"name":"relax"`, `"examId":1807`, `"code":"BMBTI"`}},
		{name: "API view in the hl header", url: "/api/app/v2/view", headers: map[string]string{"hl": "DE"}, status: 200, contains: []string{`"locale":"de"`}},
		{name: "API view with a bad domain", url: "/api/app/v2/view?dl=%3Cscript%3E", status: 400, contains: []string{"dl"}},
		{name: "API view with an unknown exam", url: "/api/app/v2/view?eid=99", status: 404},
		{name: "API with a bad hl", url: "/api/app/v2/view?hl=ZZ", status: 400, contains: []string{`"result":400`}},
		{name: "API unknown call", url: "/api/nope", status: 404, contains: []string{`"result":404`, `"message":"Not found."`}},
		{name: "API wrong method", url: "/api/exam/order/info", status: 405, contains: []string{`"result":405`}},
		{name: "API bad hl says so plainly", url: "/api/app/v2/view?hl=ZZ", status: 400, contains: []string{"Unknown language code"}},
		{name: "no redirect to another host through hl", url: "/fr//evil.example?hl=EN", status: 404, notContain: []string{"evil.example?"}},
		{name: "no redirect through a backslash", url: "/fr/%5Cevil.example?hl=EN", status: 404},
		{name: "no redirect through a cookie", url: "//evil.example", headers: map[string]string{"Cookie": "i18n_redirected=fr"}, status: 404},
	}
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
		}
	})
}

func TestSecurityHeaders(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
	a := scenario{url: "/", status: 200}.run(t, e)
	b := scenario{url: "/", status: 200}.run(t, e)
	csp := a.Header().Get("Content-Security-Policy")
	for _, want := range []string{"object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "'nonce-"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP allows unsafe-inline: %q", csp)
	}
	if csp == b.Header().Get("Content-Security-Policy") {
		t.Error("two responses share a CSP nonce")
	}
	nonce := regexp.MustCompile(`'nonce-([^']+)'`).FindStringSubmatch(csp)[1]
	for _, tag := range regexp.MustCompile(`<script[^>]*>`).FindAllString(a.Body.String(), -1) {
		if !strings.Contains(tag, `type="application/json"`) && !strings.Contains(tag, `nonce="`+nonce+`"`) {
			t.Errorf("script without the response's nonce: %s", tag)
		}
	}
	for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "strict-origin-when-cross-origin"} {
		if got := a.Header().Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if a.Header().Get("X-Request-Id") == "" {
		t.Error("no X-Request-Id")
	}
	forged := scenario{url: "/nope", status: 404, headers: map[string]string{"X-Request-Id": "forged-ref"}, notContain: []string{"forged-ref"}}.run(t, e)
	if forged.Header().Get("X-Request-Id") == "forged-ref" {
		t.Error("a request id sent by the client is echoed back")
	}
	for _, ck := range a.Result().Cookies() {
		if ck.Name == "sm_session" && (!ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode) {
			t.Errorf("session cookie not HttpOnly/SameSite=Lax: %+v", ck)
		}
	}
}

func TestHLStoresTheLocaleCookie(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
	rec := scenario{url: "/?hl=FR", status: 302}.run(t, e)
	var found bool
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "i18n_redirected" {
			found = ck.Value == "fr" && ck.Path == "/" && ck.MaxAge == 365*24*3600 && ck.SameSite == http.SameSiteLaxMode
		}
	}
	if !found {
		t.Fatalf("no i18n_redirected=fr cookie for a year: %v", rec.Result().Cookies())
	}
}

var csrfField = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

func TestConsentFormFlow(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		page := b.Get("/es/?utm=1")
		m := csrfField.FindStringSubmatch(page.Body.String())
		if m == nil || !strings.Contains(page.Body.String(), `data-testid="consent-banner"`) {
			t.Fatalf("first visit shows no banner with a token: %.500s", page.Body.String())
		}
		form := url.Values{"_csrf": {m[1]}, "choice": {"none"}, "next": {"/es/?utm=1"}}
		req := httptest.NewRequest("POST", "/es/consent", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := b.Do(req)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/es/?utm=1" {
			t.Fatalf("reject: %d %q", rec.Code, rec.Header().Get("Location"))
		}
		if b.Cookies["consent"] == nil || b.Cookies["consent"].Value != "v1.a0.m0" {
			t.Fatalf("consent cookie after reject = %v", b.Cookies["consent"])
		}
		after := b.Get("/es/?utm=1").Body.String()
		if strings.Contains(after, `data-testid="consent-banner"`) {
			t.Error("banner still shown after a choice")
		}
		if !strings.Contains(after, `data-testid="flash"`) {
			t.Error("no confirmation after the redirect")
		}
		if strings.Contains(b.Get("/es/").Body.String(), `data-testid="flash"`) {
			t.Error("the confirmation shows twice")
		}

		// The preferences dialog posts JSON with the token in a header.
		token := csrfField.FindStringSubmatch(after)
		if token == nil {
			token = regexp.MustCompile(`"csrf":"([^"]+)"`).FindStringSubmatch(after)
		}
		req = httptest.NewRequest("POST", "/api/consent?hl=ES", strings.NewReader(`{"analytics":true,"marketing":false}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", token[1])
		rec = b.Do(req)
		if rec.Code != 200 || b.Cookies["consent"].Value != "v1.a1.m0" {
			t.Fatalf("API consent: %d %s, cookie %v", rec.Code, rec.Body.String(), b.Cookies["consent"])
		}

		// A valid token from another site's page is still refused.
		req = httptest.NewRequest("POST", "/api/consent", strings.NewReader(`{"analytics":true,"marketing":true}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", token[1])
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if rec := b.Do(req); rec.Code != http.StatusForbidden {
			t.Fatalf("cross-site POST: %d", rec.Code)
		}
		// An open redirect through next is refused.
		for _, next := range []string{"//evil.example/", "/\t/evil.example", "/\\evil.example", "https://evil.example/", "/\r\nSet-Cookie:x"} {
			form = url.Values{"_csrf": {token[1]}, "choice": {"all"}, "next": {next}}
			req = httptest.NewRequest("POST", "/consent", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if rec := b.Do(req); rec.Header().Get("Location") != "/" {
				t.Errorf("next=%q redirected to %q", next, rec.Header().Get("Location"))
			}
		}
	})
}

func TestPanicAnswers500AndLogsTheCause(t *testing.T) {
	var logs strings.Builder
	e := apptest.New(t, storetest.SQLite(t), apptest.WithLogger(slog.New(slog.NewTextHandler(&logs, nil)))).Handler
	e.GET("/test/panic", func(echo.Context) error { panic("boom in handler") })
	rec := scenario{url: "/ko/test/panic", status: 500, contains: []string{`<html lang="ko">`, `data-testid="go-home"`}, notContain: []string{"boom"}}.run(t, e)
	id := rec.Header().Get("X-Request-Id")
	if !strings.Contains(rec.Body.String(), id) {
		t.Error("the error page does not show the request id")
	}
	if !strings.Contains(logs.String(), "boom in handler") || !strings.Contains(logs.String(), id) {
		t.Errorf("log lacks the cause with the request id:\n%s", logs.String())
	}
}

// Every path of the spec's route table: aliases answer 301 to their target
// with the query kept, in every locale; the pages built so far answer 200.
func TestRouteTable(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
	f, err := os.Open("testdata/routes.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	built := map[string]bool{"/": true, "/homepage/{p}": true, "/answer/question/{p}": true, "/quiz/standard/{p}": true,
		"/types/{p}": true, "/tests/{p}": true, "/help/{p}": true, "/support/{p}": true}
	// Flow screens that need a result send a browser without one to the start.
	needsResult := map[string]bool{"/answer/submit/{p}": true, "/quiz/submit/{p}": true, "/answer/email/{p}": true, "/report/result-free-test/{p}": true}
	sc := bufio.NewScanner(f)
	aliases := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		path, kind := cols[0], cols[1]
		for _, l := range i18n.Locales {
			from := l.Path(strings.ReplaceAll(path, "{p}", "BMBTI-1807"))
			switch {
			case kind == "alias":
				aliases++
				to := l.Path(strings.ReplaceAll(cols[2], "{p}", "BMBTI-1807")) + "?gclid=x&hl=" + l.Spec
				scenario{url: from + "?gclid=x&hl=" + l.Spec, status: 301, location: to}.run(t, e)
			case needsResult[path]:
				scenario{url: from, status: 303, location: l.Path("/answer/question/BMBTI-1807")}.run(t, e)
			case path == "/helpDetail/{p}":
				// An article page names its article; without one, the help centre.
				scenario{url: from, status: 303, location: l.Path("/help/BMBTI-1807")}.run(t, e)
			case built[path] || strings.HasPrefix(path, "/landing/"):
				if from == l.Prefix {
					from += "/"
				}
				scenario{url: from, status: 200, contains: []string{`<html lang="` + l.Tag + `">`}}.run(t, e)
			}
		}
	}
	if aliases != 27*len(i18n.Locales) {
		t.Errorf("checked %d aliases, want %d", aliases, 27*len(i18n.Locales))
	}
}

// Assets and island bundles live at content-addressed URLs and are cached
// for a year; their HTML references resolve.
func TestAssetsAreFingerprintedAndImmutable(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
	page := scenario{url: "/landing/girl/BMBTI-1807", status: 200}.run(t, e).Body.String()
	refs := regexp.MustCompile(`(?:href|src|data-src)="(/(?:assets|static/dist)/[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(refs) < 5 {
		t.Fatalf("found only %d asset references", len(refs))
	}
	for _, ref := range refs {
		if !regexp.MustCompile(`[.-][0-9A-Za-z]{8,10}\.(css|svg|js)$`).MatchString(ref[1]) {
			t.Errorf("asset URL without a content hash: %s", ref[1])
		}
		rec := scenario{url: ref[1], status: 200}.run(t, e)
		if cc := rec.Header().Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", ref[1], cc)
		}
	}
	if !strings.Contains(page, "/assets/themes/girl/logo.") || !strings.Contains(page, "/assets/themes/girl/footer-logo.") {
		t.Error("the girl landing does not use its own logos")
	}
}
