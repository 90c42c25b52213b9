package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gorilla/sessions"

	"selfmap/app/apptest"
	"selfmap/internal/account"
	"selfmap/internal/mail"
	"selfmap/internal/store"
)

// mailsOfKind lists the outbox's messages of a kind to an address.
func mailsOfKind(t *testing.T, s *store.Store, kind, to string) []store.Mail {
	t.Helper()
	all, err := s.ListMail(context.Background(), s.DB, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Mail
	for _, m := range all {
		if m.Kind == kind && m.To == to {
			out = append(out, m)
		}
	}
	return out
}

// otherCode is a six-digit code that is not code.
func otherCode(code string) string {
	if code == "000000" {
		return "111111"
	}
	return "000000"
}

// registerAs posts the registration form with a name, address and password.
func (b *browser) registerAs(name, email, password string) *httptest.ResponseRecorder {
	b.T.Helper()
	return b.Submit("/user/register", "/user/register", url.Values{"name": {name}, "email": {email}, "password": {password},
		"confirm": {password}, "agree": {"1"}})
}

// Registering with an address that has an account is no password oracle:
// with the owner's password or another, the answer is the one a new
// address gets (the code's screen), nobody is signed in, nothing says the
// account exists, the owner is mailed a notice in the visitor's language,
// and wrong passwords count against the address's log-in lock.
func TestRegisterWithTakenAddressAnswersAsNew(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		newBrowser(t, e).register("ada@example.com")
		fresh := newBrowser(t, e).registerAs("Eve", "new@example.com", "correct horse")

		for _, password := range []string{"correct horse", "wrong horse"} {
			x := newBrowser(t, e)
			rec := x.registerAs("Eve", "Ada@Example.com", password)
			if rec.Code != fresh.Code || rec.Header().Get("Location") != fresh.Header().Get("Location") || rec.Result().Cookies() == nil {
				t.Fatalf("with %q: %d %q, want %d %q as for a new address", password, rec.Code, rec.Header().Get("Location"),
					fresh.Code, fresh.Header().Get("Location"))
			}
			if x.signedIn() {
				t.Fatalf("registering a taken address with %q signed in", password)
			}
			// The code's screen promises no code (TestRegisterNewAndTakenAddressesLookAlike
			// compares it with a new address's).
			page := x.Get("/user/verify")
			if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), `data-testid="verify-form"`) ||
				!strings.Contains(page.Body.String(), "If ada@example.com can be used for an account, a 6-digit code is on its way to it.") {
				t.Fatalf("the code's screen: %d %.1500s", page.Code, page.Body.String())
			}
			if fr := x.Get("/fr/user/verify"); fr.Code != http.StatusOK || !strings.Contains(fr.Body.String(), `data-testid="verify-form"`) ||
				!strings.Contains(fr.Body.String(), "Si l’adresse ada@example.com peut servir à un compte") {
				t.Fatalf("the code's screen in French: %d", fr.Code)
			}
			if rec := x.Submit("/user/verify", "/user/verify", url.Values{"code": {otherCode(mailedCodeTo(t, s, "ada@example.com"))}}); rec.Code != http.StatusUnprocessableEntity ||
				!strings.Contains(rec.Body.String(), "This code is not correct, has expired or was tried too often.") {
				t.Errorf("a code on the taken address: %d", rec.Code)
			}
			if rec := x.Submit("/user/verify", "/user/verify/resend", url.Values{}); rec.Code != http.StatusSeeOther {
				t.Errorf("resend on the taken address: %d", rec.Code)
			}
		}
		if codes := mailsOfKind(t, s, "account_code", "ada@example.com"); len(codes) != 1 {
			t.Errorf("%d codes mailed to the owner, want only the registration's", len(codes))
		}
		notices := mailsOfKind(t, s, mail.KindRegisterNotice, "ada@example.com")
		if len(notices) != 1 || !strings.Contains(notices[0].Body, "http://selfmap.test/user/login") ||
			!strings.Contains(notices[0].Body, "http://selfmap.test/user/forgot-password") || mailedCode.MatchString(notices[0].Body) {
			t.Fatalf("notices to the owner: %+v", notices)
		}

		// Wrong passwords given here count as failed log-ins: four more
		// make five.
		for range 4 {
			newBrowser(t, e).registerAs("Eve", "ada@example.com", "wrong horse")
		}
		if rec := newBrowser(t, e).Login("ada@example.com", "correct horse"); rec.Code != http.StatusTooManyRequests {
			t.Errorf("log-in after five wrong registrations: %d, want 429", rec.Code)
		}
		if rec := newBrowser(t, e).registerAs("Eve", "ada@example.com", "correct horse"); rec.Code != http.StatusTooManyRequests ||
			!strings.Contains(rec.Body.String(), "Too many failed attempts") {
			t.Errorf("registration on a locked address: %d", rec.Code)
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}

// The notice of a registration with a taken address is in the language of
// the page it was sent from.
func TestRegisterNoticeSpeaksTheVisitorsLanguage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		newBrowser(t, e).register("ana@example.com")
		newBrowser(t, e).Submit("/fr/user/register", "/fr/user/register", url.Values{"name": {"Eve"}, "email": {"ana@example.com"},
			"password": {"wrong horse"}, "confirm": {"wrong horse"}, "agree": {"1"}})
		notices := mailsOfKind(t, s, mail.KindRegisterNotice, "ana@example.com")
		if len(notices) != 1 || notices[0].Locale != "fr" || !strings.Contains(notices[0].Subject, "Quelqu’un a essayé de s’inscrire") ||
			!strings.Contains(notices[0].Body, "http://selfmap.test/fr/user/login") {
			t.Fatalf("notice: %+v", notices)
		}
	})
}

// The API's registration with a taken address signs nobody in either.
func TestRegisterAPIWithTakenAddressSignsNobodyIn(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		newBrowser(t, e).register("gus@example.com")
		b := newBrowser(t, e)
		rec := b.PostJSON("/api/user/register", b.CSRFToken("/"), map[string]any{"name": "Eve", "email": "gus@example.com",
			"password": "correct horse", "confirmPassword": "correct horse", "agree": true})
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "already") {
			t.Fatalf("API registration with a taken address: %d %s", rec.Code, rec.Body.String())
		}
		if rec := b.Get("/api/user/get"); rec.Code != http.StatusUnauthorized {
			t.Errorf("signed in after registering a taken address: %d %s", rec.Code, rec.Body.String())
		}
	})
}

// A registration form sent twice (a double click: both requests carry the
// cookie from before, and the browser keeps the second answer) ends on the
// code's screen of the taken address; the code mailed for the account the
// first request made verifies it and signs in.
func TestRegisterFormSentTwice(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)
		token := b.CSRFToken("/user/register")
		before := *b.Cookies["sm_session"]
		form := url.Values{"_csrf": {token}, "name": {"Ada"}, "email": {"dot@example.com"}, "password": {"correct horse"},
			"confirm": {"correct horse"}, "agree": {"1"}}
		if rec := b.PostForm("/user/register", form); rec.Code != http.StatusSeeOther {
			t.Fatalf("first: %d", rec.Code)
		}
		b.Cookies["sm_session"] = &before
		if rec := b.PostForm("/user/register", form); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/verify" {
			t.Fatalf("second: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		if b.signedIn() {
			t.Fatal("the second answer signed in without the code")
		}
		code := mailedCodeTo(t, s, "dot@example.com")
		if rec := b.Submit("/user/verify", "/user/verify", url.Values{"code": {otherCode(code)}}); rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("a wrong code: %d", rec.Code)
		}
		if rec := b.Submit("/user/verify", "/user/verify", url.Values{"code": {code}}); rec.Code != http.StatusSeeOther ||
			rec.Header().Get("Location") != "/user/info" {
			t.Fatalf("the mailed code: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		if !b.signedIn() {
			t.Fatal("not signed in after the mailed code")
		}
		if u, _ := s.GetUserByEmail(context.Background(), s.DB, "dot@example.com"); !u.Verified() {
			t.Error("the account is not verified")
		}
	})
}

// perRequest matches what differs on every answer whoever asks: the CSP
// nonce and the masked CSRF tokens.
var perRequest = regexp.MustCompile(`nonce-[A-Za-z0-9+/=]+|nonce="[^"]*"|[A-Za-z0-9_-]{40,}`)

// seen is what a visitor can tell of an answer: its status, its headers
// (each cookie by its name and attributes) and its body, with the address
// typed and what differs on every request blanked out.
func seen(t *testing.T, rec *httptest.ResponseRecorder, address string) string {
	t.Helper()
	var lines []string
	for name, values := range rec.Header() {
		for _, v := range values {
			switch name {
			case "X-Request-Id":
				v = "…" // a new one for every request
			case "Set-Cookie":
				c, err := http.ParseSetCookie(v)
				if err != nil {
					t.Fatal(err)
				}
				// Its length is left out: the gob encoding of a session's
				// values varies by a few bytes from one answer to the next
				// (sessionKeys compares what it holds).
				v = fmt.Sprintf("%s, path %s, max-age %d, secure %t, http-only %t, same-site %d",
					c.Name, c.Path, c.MaxAge, c.Secure, c.HttpOnly, c.SameSite)
			}
			lines = append(lines, name+": "+v)
		}
	}
	slices.Sort(lines)
	out := fmt.Sprintf("%d\n%s\n\n%s", rec.Code, strings.Join(lines, "\n"), rec.Body.String())
	return perRequest.ReplaceAllString(strings.ReplaceAll(out, address, "ADDRESS"), "…")
}

// sessionKeys lists what a browser's session cookie holds, by name.
func sessionKeys(t *testing.T, cs *sessions.CookieStore, b *browser) []string {
	t.Helper()
	req := httptest.NewRequest("GET", "/", nil)
	req.AddCookie(b.Cookies["sm_session"])
	sess, err := cs.Get(req, "sm_session")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range sess.Values {
		keys = append(keys, fmt.Sprint(k))
	}
	slices.Sort(keys)
	return keys
}

// Nothing a visitor sees after registering tells a new address from one
// that has an account: the answer to the form and its cookie, the code's
// screen, the profile and the home page's navigation (nobody is signed
// in), wrong codes up to and past the tries a code allows, new codes asked
// for up to and past the hourly limit, and the API's answer; and the
// session holds the same values.
func TestRegisterNewAndTakenAddressesLookAlike(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		owner, cs := newBrowser(t, e), sessionCookies()
		owner.register("taken@example.com")

		// visit is one visitor's whole story with an address on the form
		// and, on the API, another one as new or as taken, answer by
		// answer.
		visit := func(address, apiAddress string) (answers []string, keys []string) {
			see := func(typed string) func(*httptest.ResponseRecorder) {
				return func(rec *httptest.ResponseRecorder) { answers = append(answers, seen(t, rec, typed)) }
			}
			form, api := see(address), see(apiAddress)
			x := newBrowser(t, e)
			form(x.registerAs("Eve", address, "correct horse"))
			keys = sessionKeys(t, cs, x)
			form(x.Get("/user/verify"))
			form(x.Get("/user/info"))
			form(x.Get("/"))
			form(x.Get("/api/user/get"))
			wrong := otherCode(mailedCodeTo(t, s, address))
			for range account.CodeTries + 1 {
				form(x.Submit("/user/verify", "/user/verify", url.Values{"code": {wrong}}))
			}
			// Five new codes: the last one past the hourly limit of five
			// (the registration's and four), which only a new address
			// reaches.
			for range 5 {
				form(x.Submit("/user/verify", "/user/verify/resend", url.Values{}))
				form(x.Get("/user/verify"))
			}
			form(x.Get("/user/info"))

			y := newBrowser(t, e)
			api(y.PostJSON("/api/user/register", y.CSRFToken("/"), map[string]any{"name": "Eve", "email": apiAddress,
				"password": "correct horse", "confirmPassword": "correct horse", "agree": true}))
			api(y.Get("/api/user/get"))
			api(y.Get("/"))
			return answers, keys
		}
		fresh, freshKeys := visit("fresh@example.com", "other@example.com")
		taken, takenKeys := visit("taken@example.com", "taken@example.com")
		if !slices.Equal(freshKeys, takenKeys) {
			t.Errorf("the session holds %v for a new address, %v for a taken one", freshKeys, takenKeys)
		}
		for i := range fresh {
			if fresh[i] != taken[i] {
				at := 0
				for at < min(len(fresh[i]), len(taken[i])) && fresh[i][at] == taken[i][at] {
					at++
				}
				t.Errorf("answer %d differs from byte %d:\nnew address: %.300s\ntaken address: %.300s\nthe answer to the new address:\n%.1500s",
					i+1, at, fresh[i][at:], taken[i][at:], fresh[i])
			}
		}
		if !strings.Contains(fresh[3], `href="/user/login"`) || strings.Contains(fresh[3], `href="/userCenter/home"`) {
			t.Errorf("the home page's navigation after registering offers the user centre: %.2000s", fresh[3])
		}
		for _, address := range []string{"fresh@example.com", "other@example.com"} {
			if u, err := s.GetUserByEmail(context.Background(), s.DB, address); err != nil || u.Verified() {
				t.Errorf("the account of %s: %+v %v, want one waiting for its code", address, u, err)
			}
		}
		if n := len(mailsOfKind(t, s, "account_code", "fresh@example.com")); n != 5 {
			t.Errorf("%d codes mailed to the new address, want the hourly limit's 5", n)
		}
		if n := len(mailsOfKind(t, s, "account_code", "taken@example.com")); n != 1 {
			t.Errorf("%d codes mailed to the taken address, want only its own registration's", n)
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}), withSessionSecret)
}
