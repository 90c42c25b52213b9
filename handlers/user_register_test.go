package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"selfmap/internal/mail"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// mailsOfKind lists the outbox's messages of a kind to an address.
func mailsOfKind(t *testing.T, s *store.Store, kind, to string) []store.Mail {
	t.Helper()
	all, err := s.ListMail(context.Background(), 100)
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
	b.t.Helper()
	return b.submit("/user/register", "/user/register", url.Values{"name": {name}, "email": {email}, "password": {password},
		"confirm": {password}, "agree": {"1"}})
}

// Registering with an address that has an account is no password oracle:
// with the owner's password or another, the answer is the one a new
// address gets (the code's screen), nobody is signed in, nothing says the
// account exists, the owner is mailed a notice in the visitor's language,
// and wrong passwords count against the address's log-in lock.
func TestRegisterWithTakenAddressAnswersAsNew(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		e := newServerWith(t, s, map[string]string{"RATE_LIMIT_SCALE": "100"})
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
			page := x.get("/user/verify")
			if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), `data-testid="verify-form"`) ||
				!strings.Contains(page.Body.String(), "We sent a 6-digit code to ada@example.com") {
				t.Fatalf("the code's screen: %d %.1500s", page.Code, page.Body.String())
			}
			if fr := x.get("/fr/user/verify"); fr.Code != http.StatusOK || !strings.Contains(fr.Body.String(), `data-testid="verify-form"`) {
				t.Fatalf("the code's screen in French: %d", fr.Code)
			}
			for _, body := range []string{rec.Body.String(), page.Body.String()} {
				if strings.Contains(body, "already") {
					t.Errorf("the answer says the account exists: %.800s", body)
				}
			}
			if rec := x.submit("/user/verify", "/user/verify", url.Values{"code": {otherCode(mailedCodeTo(t, s, "ada@example.com"))}}); rec.Code != http.StatusUnprocessableEntity ||
				!strings.Contains(rec.Body.String(), "This code is not correct or has expired.") {
				t.Errorf("a code on the taken address: %d", rec.Code)
			}
			if rec := x.submit("/user/verify", "/user/verify/resend", url.Values{}); rec.Code != http.StatusSeeOther {
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
		if rec := newBrowser(t, e).login("ada@example.com", "correct horse"); rec.Code != http.StatusTooManyRequests {
			t.Errorf("log-in after five wrong registrations: %d, want 429", rec.Code)
		}
		if rec := newBrowser(t, e).registerAs("Eve", "ada@example.com", "correct horse"); rec.Code != http.StatusTooManyRequests ||
			!strings.Contains(rec.Body.String(), "Too many failed attempts") {
			t.Errorf("registration on a locked address: %d", rec.Code)
		}
	})
}

// The notice of a registration with a taken address is in the language of
// the page it was sent from.
func TestRegisterNoticeSpeaksTheVisitorsLanguage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		e := newServer(t, s)
		newBrowser(t, e).register("ana@example.com")
		newBrowser(t, e).submit("/fr/user/register", "/fr/user/register", url.Values{"name": {"Eve"}, "email": {"ana@example.com"},
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
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		e := newServer(t, s)
		newBrowser(t, e).register("gus@example.com")
		b := newBrowser(t, e)
		rec := b.postJSON("/api/user/register", b.csrfToken("/"), map[string]any{"name": "Eve", "email": "gus@example.com",
			"password": "correct horse", "confirmPassword": "correct horse", "agree": true})
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "already") {
			t.Fatalf("API registration with a taken address: %d %s", rec.Code, rec.Body.String())
		}
		if rec := b.get("/api/user/get"); rec.Code != http.StatusUnauthorized {
			t.Errorf("signed in after registering a taken address: %d %s", rec.Code, rec.Body.String())
		}
	})
}

// A registration form sent twice (a double click: both requests carry the
// cookie from before, and the browser keeps the second answer) ends on the
// code's screen of the taken address; the code mailed for the account the
// first request made verifies it and signs in.
func TestRegisterFormSentTwice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		e := newServer(t, s)
		b := newBrowser(t, e)
		token := b.csrfToken("/user/register")
		before := *b.cookies["sm_session"]
		form := url.Values{"_csrf": {token}, "name": {"Ada"}, "email": {"dot@example.com"}, "password": {"correct horse"},
			"confirm": {"correct horse"}, "agree": {"1"}}
		if rec := b.postForm("/user/register", form); rec.Code != http.StatusSeeOther {
			t.Fatalf("first: %d", rec.Code)
		}
		b.cookies["sm_session"] = &before
		if rec := b.postForm("/user/register", form); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/verify" {
			t.Fatalf("second: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		if b.signedIn() {
			t.Fatal("the second answer signed in without the code")
		}
		code := mailedCodeTo(t, s, "dot@example.com")
		if rec := b.submit("/user/verify", "/user/verify", url.Values{"code": {otherCode(code)}}); rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("a wrong code: %d", rec.Code)
		}
		if rec := b.submit("/user/verify", "/user/verify", url.Values{"code": {code}}); rec.Code != http.StatusSeeOther ||
			rec.Header().Get("Location") != "/user/info" {
			t.Fatalf("the mailed code: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		if !b.signedIn() {
			t.Fatal("not signed in after the mailed code")
		}
		if u, _ := s.GetUserByEmail(context.Background(), "dot@example.com"); !u.Verified() {
			t.Error("the account is not verified")
		}
	})
}
