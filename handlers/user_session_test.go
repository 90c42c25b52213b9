package handlers_test

import (
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/sessions"

	"selfmap/app/apptest"
)

// Log-out ends the session on the server: a copy of the cookie taken while
// signed in no longer works, from the page or the API, and neither do the
// user's other devices.
func TestLogoutEndsCopiedSessions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		b := newBrowser(t, e)
		b.register("lou@example.com")
		copied := *b.Cookies["sm_session"]
		other := newBrowser(t, e)
		if rec := other.Login("lou@example.com", "correct horse"); rec.Code != http.StatusSeeOther || !other.signedIn() {
			t.Fatalf("second device: %d", rec.Code)
		}
		if rec := b.Submit("/user/info", "/user/logout", url.Values{}); rec.Code != http.StatusSeeOther || b.signedIn() {
			t.Fatalf("logout: %d", rec.Code)
		}
		thief := newBrowser(t, e)
		thief.Cookies["sm_session"] = &copied
		if thief.signedIn() {
			t.Error("a copy of the cookie still works after log-out")
		}
		if other.signedIn() {
			t.Error("another device is still signed in after log-out")
		}

		// The API's log-out too.
		if rec := b.Login("lou@example.com", "correct horse"); rec.Code != http.StatusSeeOther {
			t.Fatalf("login: %d", rec.Code)
		}
		copied = *b.Cookies["sm_session"]
		if rec := b.PostJSON("/api/user/logout", b.CSRFToken("/"), map[string]any{}); rec.Code != http.StatusOK {
			t.Fatalf("API logout: %d", rec.Code)
		}
		thief.Cookies["sm_session"] = &copied
		if rec := thief.Get("/api/user/get"); rec.Code != http.StatusUnauthorized {
			t.Errorf("a copy of the cookie works after the API's log-out: %d", rec.Code)
		}
	})
}

// testSessionSecret signs and encrypts the sessions of a kit built
// withSessionSecret, so a test can write a session as the server would
// (sessionCookies).
const testSessionSecret = "test session secret, 32 characters or more"

// withSessionSecret builds the kit's app with testSessionSecret.
var withSessionSecret = apptest.WithEnv(map[string]string{"SESSION_SECRET": testSessionSecret})

// sessionCookies is the cookie store of an app built withSessionSecret,
// with the keys as app's newSessionStore derives them.
func sessionCookies() *sessions.CookieStore {
	hashKey := sha256.Sum256([]byte("selfmap session signing\x00" + testSessionSecret))
	blockKey := sha256.Sum256([]byte("selfmap session encryption\x00" + testSessionSecret))
	return sessions.NewCookieStore(hashKey[:], blockKey[:])
}

// lastUsed rewrites a session cookie as if it was last used at a time.
func lastUsed(t *testing.T, cs *sessions.CookieStore, cookie *http.Cookie, at time.Time) *http.Cookie {
	t.Helper()
	req := httptest.NewRequest("GET", "/", nil)
	req.AddCookie(cookie)
	sess, err := cs.Get(req, "sm_session")
	if err != nil || sess.Values["uid"] == nil {
		t.Fatalf("the session cookie does not decode as a signed-in session: %v %v", err, sess.Values)
	}
	sess.Values["seen"] = at.Unix()
	rec := httptest.NewRecorder()
	if err := cs.Save(req, rec, sess); err != nil {
		t.Fatal(err)
	}
	return rec.Result().Cookies()[0]
}

// A session unused for 30 days signs nobody in, wherever its cookie was
// copied to; one used within them does, and is written back as used now.
func TestSessionEndsAfter30DaysIdle(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b, cs := newBrowser(t, k.Handler), sessionCookies()
		b.register("ida@example.com")
		cookie := b.Cookies["sm_session"]

		idle := newBrowser(t, b.Handler)
		idle.Cookies["sm_session"] = lastUsed(t, cs, cookie, k.Clock.Now().Add(-30*24*time.Hour-time.Minute))
		if idle.signedIn() {
			t.Error("a session unused for 30 days still signs in")
		}

		recent := newBrowser(t, b.Handler)
		recent.Cookies["sm_session"] = lastUsed(t, cs, cookie, k.Clock.Now().Add(-29*24*time.Hour))
		if !recent.signedIn() {
			t.Fatal("a session used 29 days ago was signed out")
		}
		req := httptest.NewRequest("GET", "/", nil)
		req.AddCookie(recent.Cookies["sm_session"])
		sess, err := cs.Get(req, "sm_session")
		if seen, _ := sess.Values["seen"].(int64); err != nil || k.Clock.Now().Sub(time.Unix(seen, 0)) > time.Minute {
			t.Errorf("the session's last use was not written back: %v %v", sess.Values["seen"], err)
		}
	}, withSessionSecret)
}

// Names and nicknames with bidirectional controls are refused, and an
// e-mail address whose bytes are not UTF-8 is refused rather than stored
// with U+FFFD in their place (a JSON body's decoder makes that swap).
func TestNamesAndAddressesRefuseHiddenCharacters(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)
		rec := b.registerAs("Eve\u202Egpj.exe", "eve@example.com", "correct horse")
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "Please use letters only.") {
			t.Fatalf("a name with an override: %d %.500s", rec.Code, rec.Body.String())
		}
		b.register("eve@example.com")
		rec = b.Submit("/user/info", "/user/info", url.Values{"nickname": {"\u2067Eve\u2069"}})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "Please use letters only.") {
			t.Fatalf("a nickname with an isolate: %d %.500s", rec.Code, rec.Body.String())
		}

		api := newBrowser(t, e)
		req := httptest.NewRequest("POST", "/api/user/register", strings.NewReader(
			"{\"name\":\"Mo\",\"email\":\"m\xffo@example.com\",\"password\":\"correct horse\",\"confirmPassword\":\"correct horse\",\"agree\":true}"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", api.CSRFToken("/"))
		if rec := api.Do(req); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "Invalid e-mail format.") {
			t.Errorf("an address with broken UTF-8: %d %s", rec.Code, rec.Body.String())
		}
		var n int
		if err := s.DB.Get(&n, `SELECT COUNT(*) FROM users WHERE email LIKE 'm%o@example.com'`); err != nil || n != 0 {
			t.Errorf("%d accounts stored for the broken address (%v)", n, err)
		}
	})
}
