package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
)

// linkAttr finds every URL a page leads to or sends to: links, form
// actions, refreshes and hidden return paths.
var linkAttr = regexp.MustCompile(`(?:href|action|src|content|value)="([^"]*)"`)

// noToken fails when a page holds a report link's token anywhere, and
// returns the page's URLs.
func noToken(t *testing.T, what string, rec *httptest.ResponseRecorder, token string) []string {
	t.Helper()
	body := rec.Body.String()
	if strings.Contains(body, token) || strings.Contains(body, url.QueryEscape(token)) {
		t.Errorf("%s holds the report link's token", what)
	}
	var urls []string
	for _, m := range linkAttr.FindAllStringSubmatch(body, -1) {
		u := strings.ReplaceAll(m[1], "&amp;", "&")
		if strings.Contains(u, "?t=") || strings.Contains(u, "&t=") || strings.Contains(u, "email=") {
			t.Errorf("%s links to %s", what, u)
		}
		urls = append(urls, u)
	}
	return urls
}

// sensitiveHeaders fails when a response that carries a token, a report or
// an address may be kept by a cache or name its URL to the next site.
func sensitiveHeaders(t *testing.T, what string, rec *httptest.ResponseRecorder) {
	t.Helper()
	if got := rec.Header().Get("Referrer-Policy"); got != "no-referrer" {
		t.Errorf("%s: Referrer-Policy %q", what, got)
	}
	if got := rec.Header().Get("Cache-Control"); !strings.Contains(got, "no-store") {
		t.Errorf("%s: Cache-Control %q", what, got)
	}
	if strings.Contains(rec.Body.String(), "tracking-props") || strings.Contains(rec.Body.String(), "googletagmanager") {
		t.Errorf("%s loads a third-party script", what)
	}
}

// A report link (?t=) never appears in any link of the page it opens: not
// in the navigation, the footer, the language links, the cookie banner's
// return path, the report's own tabs, PDF and rating, nor on the 404 page
// of a wrong one. Those links keep the tracking parameters only, and still
// lead to the same report: the session remembers the link. The pages send
// no Referer, are not cached and load no third-party script, although the
// visitor consented to them.
func TestReportLinkNeverLeaksIntoAPage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		owner := newBrowser(t, e)
		result, _ := owner.PaidReport(owner.CSRFToken("/"))
		const token = "Leak-Check-Token-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3"
		if err := s.AddReportLink(context.Background(), s.DB, result, token, k.Clock.Now()); err != nil {
			t.Fatal(err)
		}

		reader := newBrowser(t, e)
		reader.Cookies["consent"] = &http.Cookie{Name: "consent", Value: "v1.a1.m1"}
		if page := reader.Get("/landing/home/BMBTI-1807?fbclid=f"); !strings.Contains(page.Body.String(), "googletagmanager") {
			t.Fatal("the test's tracking is not planned on an ordinary page")
		}
		page := reader.Get("/report/result/BMBTI-1807?t=" + token + "&gclid=g1&email=ana%40example.com&fbclid=f")
		if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), `data-testid="type-code"`) {
			t.Fatalf("report link: %d %.300s", page.Code, page.Body.String())
		}
		sensitiveHeaders(t, "the report", page)
		urls := noToken(t, "the report", page, token)
		var dimensions, download, french string
		starts := 0
		for _, u := range urls {
			switch {
			case strings.HasPrefix(u, "/report/result/BMBTI-1807?tab=dimensions"):
				dimensions = u
			case strings.HasPrefix(u, "/report/result-download/BMBTI-1807"):
				download = u
			case strings.HasPrefix(u, "/fr/report/result/BMBTI-1807?"):
				french = u
			case strings.HasPrefix(u, "/answer/question/BMBTI-1807?"):
				starts++
				if u != "/answer/question/BMBTI-1807?gclid=g1&fbclid=f" {
					t.Errorf("the navigation's start link is %q; want the tracking parameters only", u)
				}
			}
		}
		if starts == 0 {
			t.Error("the navigation's start link lost the tracking parameters")
		}
		if french != "/fr/report/result/BMBTI-1807?gclid=g1&fbclid=f&hl=FR" {
			t.Errorf("the French link is %q", french)
		}
		if dimensions == "" || download == "" {
			t.Fatalf("the report's own links: tab %q, PDF %q", dimensions, download)
		}

		// The page's own links reach the same report without the token (the
		// French one last: it stores the language choice).
		for _, u := range []string{dimensions, download, french} {
			rec := reader.Get(u)
			if rec.Code >= 400 || (u != download && !strings.Contains(rec.Body.String(), `data-testid="type-code"`)) {
				t.Fatalf("%s: %d", u, rec.Code)
			}
			sensitiveHeaders(t, u, rec)
			noToken(t, u, rec, token)
		}
		if rec := reader.PostForm("/fr/report/rating/BMBTI-1807", url.Values{"_csrf": {csrfField.FindStringSubmatch(page.Body.String())[1]}, "score": {"5"}}); rec.Code != http.StatusSeeOther {
			t.Errorf("rating through the remembered link: %d", rec.Code)
		}

		// A wrong token, and any missing page, shows a 404 that keeps it out
		// of every link, "Go back home" included.
		const wrong = "Wrong-Token-0123456789abcdefghijklmnopqrstuvwxyzAB"
		for _, path := range []string{"/report/result/BMBTI-1807?t=" + wrong + "&gclid=g1", "/de/no/such/page?t=" + wrong + "&gclid=g1"} {
			rec := newBrowser(t, e).Get(path)
			if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `data-testid="go-home"`) {
				t.Fatalf("%s: %d", path, rec.Code)
			}
			noToken(t, path, rec, wrong)
			if !strings.Contains(rec.Body.String(), `data-testid="go-home"`) || !regexp.MustCompile(`href="(/de)?/\?gclid=g1" data-testid="go-home"`).MatchString(rec.Body.String()) {
				t.Errorf("%s: Go back home does not keep the tracking parameters", path)
			}
		}

		// A stranger's browser, without the link, still opens nothing.
		stranger := newBrowser(t, e)
		for _, path := range []string{"/report/result/BMBTI-1807", "/report/result/BMBTI-1807?r=" + result, "/report/result-download/BMBTI-1807"} {
			if rec := stranger.Get(path); rec.Code == http.StatusOK {
				t.Errorf("a stranger opened %s", path)
			}
		}
	}, apptest.WithEnv(map[string]string{"TRACKING": `{"pixels":{"meta":"123"},"tagManager":"GTM-X1"}`}))
}

// The retrieval page and the e-mail steps carry an address: no Referer,
// no cache, no third-party script.
func TestSensitivePagesSendNoReferrerAndNoStore(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		b := newBrowser(t, e)
		b.Cookies["consent"] = &http.Cookie{Name: "consent", Value: "v1.a1.m1"}
		token := b.CSRFToken("/")
		rec := b.PostJSON("/api/exam/order/info", token, apptest.Submission(t, func(i int) int { return 2 }))
		id := regexp.MustCompile(`"resultId":"([a-z2-7]{26})"`).FindStringSubmatch(rec.Body.String())
		if id == nil {
			t.Fatalf("submission: %s", rec.Body.String())
		}
		emailURL := "/answer/email/BMBTI-1807?r=" + id[1]
		sensitiveHeaders(t, "the e-mail step", b.Get(emailURL))
		sensitiveHeaders(t, "the e-mail step's answer", b.PostForm(emailURL, url.Values{"_csrf": {token}, "step": {"email"}, "email": {"bad"}}))
		sensitiveHeaders(t, "the retrieval page", b.Get("/report/retrieve/BMBTI-1807"))
		sensitiveHeaders(t, "the retrieval form's answer", b.PostForm("/report/retrieve/BMBTI-1807", url.Values{"_csrf": {token}, "email": {"nobody@example.com"}}))
	}, apptest.WithEnv(map[string]string{"TRACKING": `{"tagManager":"GTM-X1"}`}))
}

// A report link opens its report for retrieve.LinkLifetime (30 days), then
// says it expired and leads to retrieval. The signed-in owner withdraws all
// of a report's links with one button (POST, CSRF, their own report only):
// the links stop at once, also for a browser that opened one before, and
// the report still opens in the account.
func TestReportLinksExpireAndTheOwnerRevokesThem(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		s, e := k.Store, k.Handler
		r := k.PaidReport(t)
		owner, result := &browser{r.Owner}, r.ResultID
		owner.register("lee@example.com")
		if err := s.AddReportLink(ctx, s.DB, result, "old-link", k.Clock.Now().Add(-31*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.AddReportLink(ctx, s.DB, result, "new-link", k.Clock.Now().Add(-29*24*time.Hour)); err != nil {
			t.Fatal(err)
		}

		reader := newBrowser(t, e)
		old := reader.Get("/ja/report/result/BMBTI-1807?t=old-link")
		if old.Code != http.StatusGone || !strings.Contains(old.Body.String(), `data-testid="link-closed"`) ||
			!strings.Contains(old.Body.String(), `href="/ja/report/retrieve/BMBTI-1807"`) || !strings.Contains(old.Body.String(), "30日間") {
			t.Fatalf("an expired link: %d %.500s", old.Code, old.Body.String())
		}
		sensitiveHeaders(t, "the expired link", old)
		if rec := reader.Get("/report/result/BMBTI-1807?t=new-link"); rec.Code != http.StatusOK {
			t.Fatalf("a link of 29 days: %d", rec.Code)
		}

		// The owner's card: two open links (the one mailed on payment, and
		// the 29-day-old one), and the button.
		card := owner.Get("/userCenter/resultReport?r=" + result)
		body := card.Body.String()
		if card.Code != http.StatusOK || !strings.Contains(body, `data-testid="report-links"`) ||
			!strings.Contains(body, "Links that still open it: 2") || !strings.Contains(body, `data-testid="report-links-revoke"`) {
			t.Fatalf("the links card: %d %.3000s", card.Code, body)
		}
		revoke := url.Values{"r": {result}}
		if rec := owner.PostForm("/userCenter/reportLinks/revoke", revoke); rec.Code != http.StatusForbidden {
			t.Errorf("withdrawing without the CSRF token: %d", rec.Code)
		}
		other := newBrowser(t, e)
		other.register("kai@example.com")
		if rec := other.Submit("/userCenter", "/userCenter/reportLinks/revoke", url.Values{"r": {result}}); rec.Code != http.StatusNotFound {
			t.Errorf("another user withdrawing the links: %d", rec.Code)
		}
		anon := newBrowser(t, e)
		if rec := anon.Submit("/", "/userCenter/reportLinks/revoke", url.Values{"r": {result}}); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/login" {
			t.Errorf("withdrawing signed out: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		if rec := reader.Get("/report/result/BMBTI-1807?tab=dimensions"); rec.Code != http.StatusOK {
			t.Fatalf("the links were withdrawn by a refused request: %d", rec.Code)
		}

		rec := owner.Submit("/userCenter/resultReport?r="+result, "/userCenter/reportLinks/revoke", revoke)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/userCenter/resultReport?r="+result {
			t.Fatalf("withdraw: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		after := owner.Get(rec.Header().Get("Location")).Body.String()
		if !strings.Contains(after, "All links to this report are withdrawn.") || !strings.Contains(after, "Links that still open it: 0") ||
			strings.Contains(after, `data-testid="report-links-revoke"`) {
			t.Errorf("after withdrawing: %.3000s", after)
		}
		for _, path := range []string{"/report/result/BMBTI-1807?tab=dimensions", "/report/result/BMBTI-1807?t=new-link"} {
			if rec := reader.Get(path); rec.Code != http.StatusGone || !strings.Contains(rec.Body.String(), `data-testid="link-closed"`) {
				t.Errorf("%s after withdrawing: %d", path, rec.Code)
			}
		}
		var revoked int
		if err := s.DB.Get(&revoked, `SELECT COUNT(*) FROM report_links WHERE revoked_at IS NOT NULL`); err != nil || revoked != 3 {
			t.Errorf("%d links marked withdrawn (%v), want all three", revoked, err)
		}
		if rec := owner.Get("/report/result/BMBTI-1807?r=" + result); rec.Code != http.StatusOK {
			t.Errorf("the owner's report after withdrawing its links: %d", rec.Code)
		}
		// Retrieval mails a new link that opens it again.
		if rec := owner.retrieveForm("/report/retrieve/BMBTI-1807", "kim@example.com"); rec.Code != http.StatusSeeOther {
			t.Fatalf("retrieval: %d", rec.Code)
		}
		var body2 string
		if err := s.DB.Get(&body2, `SELECT body FROM mail_outbox WHERE kind = 'retrieval'`); err != nil {
			t.Fatal(err)
		}
		link := regexp.MustCompile(`/report/result/BMBTI-1807\?t=[A-Za-z0-9_-]+`).FindString(body2)
		if rec := newBrowser(t, e).Get(link); link == "" || rec.Code != http.StatusOK {
			t.Errorf("the retrieved link %q: %d", link, rec.Code)
		}
	})
}
