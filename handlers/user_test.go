package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/mail"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

var mailedCode = regexp.MustCompile(`\b(\d{6})\b`)

// mailedCodeTo reads the code in the newest mail to an address.
func mailedCodeTo(t *testing.T, s *store.Store, to string) string {
	t.Helper()
	mails, err := s.ListMail(context.Background(), s.DB, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mails {
		if m.To == to && m.Kind == "account_code" {
			if c := mailedCode.FindStringSubmatch(m.Body); c != nil {
				return c[1]
			}
		}
	}
	t.Fatalf("no code mailed to %s", to)
	return ""
}

// register signs a new address up with the password "correct horse" and
// enters the code mailed to it, which signs in: registering alone signs
// nobody in.
func (b *browser) register(email string) {
	b.T.Helper()
	rec := b.Submit("/user/register", "/user/register", url.Values{"name": {"Ada Lovelace"}, "email": {email},
		"password": {"correct horse"}, "confirm": {"correct horse"}, "agree": {"1"}})
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/verify" {
		b.T.Fatalf("register: %d %s %.400s", rec.Code, rec.Header().Get("Location"), rec.Body.String())
	}
	b.verifyWithMailedCode(strings.ToLower(email), "/user/info")
}

// verifyWithMailedCode enters, on the code's screen, the code mailed to an
// address, and expects to be sent to next.
func (b *browser) verifyWithMailedCode(email, next string) {
	b.T.Helper()
	rec := b.Submit("/user/verify", "/user/verify", url.Values{"code": {b.outboxCode(email)}})
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != next {
		b.T.Fatalf("the mailed code: %d %s, want %s %.400s", rec.Code, rec.Header().Get("Location"), next, rec.Body.String())
	}
}

// outboxCode reads the code of the newest account e-mail to an address
// from the development outbox (/dev/mail, newest first), as a developer
// would; another browser opens it, so this one's session is untouched.
func (b *browser) outboxCode(email string) string {
	b.T.Helper()
	page := newBrowser(b.T, b.Handler).Get("/dev/mail")
	to := regexp.MustCompile(`<strong>To:</strong>\s*` + regexp.QuoteMeta(email) + `\s*</p>`)
	text := regexp.MustCompile(`(?s)data-testid="dev-mail-text">(.*?)</pre>`)
	for _, m := range strings.Split(page.Body.String(), `data-testid="dev-mail"`)[1:] {
		if !strings.Contains(m, mail.KindAccountCode) || !to.MatchString(m) {
			continue
		}
		if body := text.FindStringSubmatch(m); body != nil {
			if c := mailedCode.FindStringSubmatch(body[1]); c != nil {
				return c[1]
			}
		}
	}
	b.T.Fatalf("no code to %s in the outbox: %d %.300s", email, page.Code, page.Body.String())
	return ""
}

func (b *browser) signedIn() bool {
	rec := b.Get("/user/info")
	return rec.Code == http.StatusOK && strings.Contains(rec.Body.String(), `data-testid="info-page"`)
}

// Register, verify with the mailed code, log out, log in: every form keeps
// what was typed on error (never a password) and says what is wrong per
// field in the visitor's language.
func TestAccountLifecycle(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)

		rec := b.Submit("/fr/user/register", "/fr/user/register", url.Values{"name": {"Ada"}, "email": {"ada@example.com"},
			"password": {"correct horse"}, "confirm": {"other horse"}})
		body := rec.Body.String()
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, "Les mots de passe ne correspondent pas") ||
			!strings.Contains(body, "Veuillez d’abord accepter") || !strings.Contains(body, `value="ada@example.com"`) ||
			strings.Contains(body, "correct horse") {
			t.Fatalf("invalid registration: %d %.2000s", rec.Code, body)
		}
		rec = b.Submit("/user/register", "/user/register", url.Values{"name": {"Ada"}, "email": {"ada@example.com"},
			"password": {"correct horse"}, "confirm": {"correct horse"}})
		if !strings.Contains(rec.Body.String(), "Please agree to the Terms of Service and Privacy Policy first") {
			t.Errorf("the agreement's message is missing: %.1500s", rec.Body.String())
		}

		if rec := b.registerAs("Ada", "Ada@Example.com", "correct horse"); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/verify" {
			t.Fatalf("register: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		if b.signedIn() {
			t.Fatal("signed in before the mailed code")
		}
		if page := b.Get("/user/verify").Body.String(); !strings.Contains(page, "ada@example.com") {
			t.Fatalf("verify page: %.800s", page)
		}
		if rec := b.Submit("/user/verify", "/user/verify", url.Values{"code": {"12345"}}); rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("bad code: %d", rec.Code)
		}
		rec = b.Submit("/user/verify", "/user/verify", url.Values{"code": {mailedCodeTo(t, s, "ada@example.com")}})
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/info" {
			t.Fatalf("verify: %d %.500s", rec.Code, rec.Body.String())
		}
		if u, _ := s.GetUserByEmail(context.Background(), s.DB, "ada@example.com"); !u.Verified() {
			t.Fatal("not verified")
		}
		// The navigation of cached public pages follows the session: the
		// user centre when signed in, the log-in page otherwise.
		navLeadsTo := func(want, not string) {
			t.Helper()
			if home := b.Get("/").Body.String(); !strings.Contains(home, `href="`+want+`"`) || strings.Contains(home, `href="`+not+`"`) {
				t.Fatalf("the home page's navigation should lead to %s, not %s", want, not)
			}
		}
		navLeadsTo("/userCenter/home", "/user/login")
		if home := newBrowser(t, e).Get("/").Body.String(); !strings.Contains(home, `href="/user/login"`) {
			t.Fatal("a visitor without a session is offered the user centre")
		}

		// Log out is a POST with the token; without it nothing happens.
		if rec := b.PostForm("/user/logout", url.Values{}); rec.Code != http.StatusForbidden || !b.signedIn() {
			t.Fatalf("logout without a token: %d", rec.Code)
		}
		if rec := b.Submit("/user/info", "/user/logout", url.Values{}); rec.Code != http.StatusSeeOther || b.signedIn() {
			t.Fatalf("logout: %d", rec.Code)
		}
		navLeadsTo("/user/login", "/userCenter/home")
		if rec := b.Get("/user/info"); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/login?next=%2Fuser%2Finfo" {
			t.Fatalf("profile after logout: %d %s", rec.Code, rec.Header().Get("Location"))
		}

		// One message for a wrong password and for an unknown address.
		wrong := b.Login("ada@example.com", "wrong horse")
		nobody := b.Login("nobody@example.com", "wrong horse")
		for _, r := range []*httptest.ResponseRecorder{wrong, nobody} {
			if r.Code != http.StatusUnprocessableEntity || !strings.Contains(r.Body.String(), "The e-mail address or the password is not correct.") ||
				strings.Contains(r.Body.String(), "wrong horse") {
				t.Errorf("failed log-in: %d %.1500s", r.Code, r.Body.String())
			}
		}
		if rec := b.Login("ADA@example.com", "correct horse"); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/userCenter" {
			t.Fatalf("login: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		if !b.signedIn() {
			t.Fatal("not signed in after login")
		}
		// Signed in, the log-in and register pages lead to the profile.
		if rec := b.Get("/user/login"); rec.Code != http.StatusSeeOther {
			t.Errorf("login page when signed in: %d", rec.Code)
		}
	})
}

// After five failed log-ins an address is refused, even with the right
// password, on every instance (the count is in the database).
func TestLoginRateLimit(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		newBrowser(t, e).register("bo@example.com")
		b := newBrowser(t, e)
		for range 5 {
			b.Login("bo@example.com", "wrong horse")
		}
		other := newBrowser(t, apptest.New(t, s).Handler)
		if rec := other.Login("bo@example.com", "correct horse"); rec.Code != http.StatusTooManyRequests ||
			!strings.Contains(rec.Body.String(), "Too many failed attempts") {
			t.Fatalf("sixth try: %d %.500s", rec.Code, rec.Body.String())
		}
	})
}

// Log-in starts a new session: the cookie from before does not act as the
// user, and its CSRF token no longer works.
func TestSessionRotatesAtLogin(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		newBrowser(t, e).register("cy@example.com")
		b := newBrowser(t, e)
		oldToken := b.CSRFToken("/user/login")
		oldCookie := *b.Cookies["sm_session"]
		if rec := b.PostForm("/user/login", url.Values{"_csrf": {oldToken}, "email": {"cy@example.com"}, "password": {"correct horse"}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("login: %d", rec.Code)
		}
		if b.Cookies["sm_session"].Value == oldCookie.Value {
			t.Fatal("the session cookie did not change at login")
		}
		if rec := b.PostForm("/user/info", url.Values{"_csrf": {oldToken}, "nickname": {"x"}}); rec.Code != http.StatusForbidden {
			t.Errorf("the token from before log-in still works: %d", rec.Code)
		}
		stale := newBrowser(t, e)
		stale.Cookies["sm_session"] = &oldCookie
		if stale.signedIn() {
			t.Error("the cookie from before log-in is signed in")
		}
	})
}

// Changing the password ends the user's other sessions and keeps this one;
// a password reset ends them all.
func TestEditPasswordEndsOtherSessions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		a := newBrowser(t, e)
		a.register("di@example.com")
		other := newBrowser(t, e)
		other.Login("di@example.com", "correct horse")
		if !other.signedIn() {
			t.Fatal("second device not signed in")
		}
		rec := a.Submit("/user/edit-password", "/user/edit-password", url.Values{"current": {"wrong"}, "password": {"new password"}, "confirm": {"new password"}})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "This password is not correct.") {
			t.Fatalf("wrong current password: %d", rec.Code)
		}
		rec = a.Submit("/user/edit-password", "/user/edit-password", url.Values{"current": {"correct horse"}, "password": {"new password"}, "confirm": {"new password"}})
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("edit password: %d %.500s", rec.Code, rec.Body.String())
		}
		if !a.signedIn() {
			t.Error("the session that changed the password was ended")
		}
		if other.signedIn() {
			t.Error("the other session still works after a password change")
		}

		// A minute later, forgot password: a code by mail (the newest to
		// the address), then a new password; every session ends.
		k.Clock.Add(time.Minute)
		f := newBrowser(t, e)
		if rec := f.Submit("/user/forgot-password", "/user/forgot-password", url.Values{"email": {"di@example.com"}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("forgot: %d", rec.Code)
		}
		code := mailedCodeTo(t, s, "di@example.com")
		if rec := f.Submit("/user/forgot-password?email=di%40example.com", "/user/reset-password", url.Values{"email": {"di@example.com"},
			"code": {code}, "password": {"third password"}, "confirm": {"third password"}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("reset: %d %.800s", rec.Code, rec.Body.String())
		}
		if a.signedIn() {
			t.Error("a session survived the password reset")
		}
		if rec := f.Login("di@example.com", "third password"); rec.Code != http.StatusSeeOther {
			t.Errorf("login with the reset password: %d", rec.Code)
		}
	})
}

func pngBytes(t *testing.T, w, h int) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func (b *browser) uploadAvatar(data []byte) *httptest.ResponseRecorder {
	b.T.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("_csrf", b.CSRFToken("/user/info")) //nolint:errcheck // in memory
	fw, _ := w.CreateFormFile("avatar", "me.png")
	fw.Write(data) //nolint:errcheck // in memory
	w.Close()
	req := httptest.NewRequest("POST", "/user/avatar", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return b.Do(req)
}

// The profile: the birthday's message in every locale's words, values kept,
// the picture checked and re-encoded, and only ever one's own.
func TestProfile(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		b := newBrowser(t, e)
		b.register("ed@example.com")
		rec := b.Submit("/ja/user/info", "/ja/user/info", url.Values{"nickname": {"Eddie"}, "birthday": {"2020-13-01"}, "sex": {"female"}})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "日付が正しくありません（例：2020-01-01）") ||
			!strings.Contains(rec.Body.String(), `value="Eddie"`) {
			t.Fatalf("bad birthday: %d %.1500s", rec.Code, rec.Body.String())
		}
		rec = b.Submit("/user/info", "/user/info", url.Values{"nickname": {"Eddie"}, "birthday": {"2020-01-01"}, "sex": {"confidential"}, "phone": {"+1 555 010 9999"}})
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("profile: %d %.800s", rec.Code, rec.Body.String())
		}
		if page := b.Get("/userCenter/setting/userInfo").Body.String(); !strings.Contains(page, `value="2020-01-01"`) {
			t.Error("the profile does not show the saved birthday")
		}

		if rec := b.uploadAvatar([]byte("<svg onload=alert(1)>")); rec.Code != http.StatusUnprocessableEntity ||
			!strings.Contains(rec.Body.String(), "Please choose a PNG, JPEG, WebP or GIF picture.") {
			t.Fatalf("svg upload: %d", rec.Code)
		}
		if rec := b.uploadAvatar(pngBytes(t, 4097, 1)); rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("too wide: %d", rec.Code)
		}
		if rec := b.uploadAvatar(append(pngBytes(t, 4, 4), make([]byte, 2<<20)...)); rec.Code != http.StatusUnprocessableEntity ||
			!strings.Contains(rec.Body.String(), "larger than 2 MB") {
			t.Fatalf("too large: %d %.300s", rec.Code, rec.Body.String())
		}
		if rec := b.uploadAvatar(pngBytes(t, 40, 40)); rec.Code != http.StatusSeeOther {
			t.Fatalf("avatar: %d %.500s", rec.Code, rec.Body.String())
		}
		img := b.Get("/user/avatar")
		if img.Code != 200 || img.Header().Get("Content-Type") != "image/png" {
			t.Fatalf("avatar: %d %s", img.Code, img.Header().Get("Content-Type"))
		}

		// Someone else sees their own (none), never Ed's.
		other := newBrowser(t, e)
		other.register("fay@example.com")
		if rec := other.Get("/user/avatar"); rec.Code != http.StatusNotFound {
			t.Errorf("another user's avatar: %d", rec.Code)
		}
		if ex := other.Get("/user/setting/export").Body.String(); strings.Contains(ex, "ed@example.com") || strings.Contains(ex, "Eddie") {
			t.Error("another user's export shows Ed's data")
		}
		if rec := newBrowser(t, e).Get("/user/setting/export"); rec.Code != http.StatusSeeOther {
			t.Errorf("export without a session: %d", rec.Code)
		}
	})
}

// The JSON API: the spec's calls with the envelope, the token in a header,
// and a new token after log-in.
func TestUserAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		b := newBrowser(t, e)
		token := b.CSRFToken("/")
		if rec := b.Get("/api/user/get"); rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "Please login first") {
			t.Fatalf("get without a session: %d %s", rec.Code, rec.Body.String())
		}
		if rec := b.PostJSON("/api/user/register", "", map[string]any{"name": "Gil", "email": "gil@example.com"}); rec.Code != http.StatusForbidden {
			t.Fatalf("register without a token: %d", rec.Code)
		}
		rec := b.PostJSON("/api/user/register", token, map[string]any{"name": "Gil", "email": "gil@example.com", "password": "long enough", "confirmPassword": "long enough"})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "Please agree") {
			t.Fatalf("register without agreement: %d %s", rec.Code, rec.Body.String())
		}
		rec = b.PostJSON("/api/user/register", token, map[string]any{"name": "Gil", "email": "gil@example.com", "password": "long enough",
			"confirmPassword": "long enough", "agree": true})
		var reg struct {
			Result int
			Data   struct{ CSRF, Email string }
		}
		if json.Unmarshal(rec.Body.Bytes(), &reg); rec.Code != 200 || reg.Result != 200 || reg.Data.CSRF == "" || reg.Data.Email != "gil@example.com" ||
			strings.Contains(rec.Body.String(), `"id"`) {
			t.Fatalf("register: %d %s", rec.Code, rec.Body.String())
		}
		if rec := b.PostJSON("/api/user/update", token, map[string]any{"nickName": "G"}); rec.Code != http.StatusForbidden {
			t.Errorf("the token from before registration still works: %d", rec.Code)
		}
		// Registering signs nobody in; the mailed code does, on a new
		// session again.
		if rec := b.PostJSON("/api/user/update", reg.Data.CSRF, map[string]any{"nickName": "G"}); rec.Code != http.StatusUnauthorized {
			t.Fatalf("update before the mailed code: %d %s", rec.Code, rec.Body.String())
		}
		b.verifyWithMailedCode("gil@example.com", "/user/info")
		csrf := b.CSRFToken("/")
		rec = b.PostJSON("/api/user/update", csrf, map[string]any{"nickName": "G", "birthday": "2020/01/01", "sex": "male"})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"birthday":"Invalid date (e.g., 2020-01-01)"`) {
			t.Fatalf("update with a bad birthday: %d %s", rec.Code, rec.Body.String())
		}
		rec = b.PostJSON("/api/user/update", csrf, map[string]any{"nickName": "G", "birthday": "2001-02-03", "sex": "male"})
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"birthday":"2001-02-03"`) {
			t.Fatalf("update: %d %s", rec.Code, rec.Body.String())
		}
		if rec := b.Get("/api/user/get"); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"nickName":"G"`) || strings.Contains(rec.Body.String(), "argon2") {
			t.Fatalf("get: %d %s", rec.Code, rec.Body.String())
		}
		rec = b.PostJSON("/api/user/logout", csrf, map[string]any{})
		if rec.Code != 200 {
			t.Fatalf("logout: %d", rec.Code)
		}
		if rec := b.PostJSON("/api/user/login", token, map[string]any{"email": "gil@example.com", "password": "nope"}); rec.Code != http.StatusForbidden {
			t.Errorf("an old token logs in: %d", rec.Code)
		}
		var out struct{ Data struct{ CSRF string } }
		json.Unmarshal(rec.Body.Bytes(), &out) //nolint:errcheck // checked below
		rec = b.PostJSON("/api/user/login", out.Data.CSRF, map[string]any{"email": "gil@example.com", "password": "nope"})
		if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "The e-mail address or the password is not correct.") {
			t.Fatalf("API login failure: %d %s", rec.Code, rec.Body.String())
		}
		rec = b.PostJSON("/api/user/login", out.Data.CSRF, map[string]any{"email": "gil@example.com", "password": "long enough"})
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"email":"gil@example.com"`) {
			t.Fatalf("API login: %d %s", rec.Code, rec.Body.String())
		}
	})
}

// Results this browser made and results made with the same address join
// the account once the mailed code verifies it and signs in, not at
// registration; deleting the account removes them but keeps the paid
// order, anonymised.
func TestResultsJoinAndDeletion(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)
		token := b.CSRFToken("/")
		resultID, _ := b.PaidReport(token)
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r-mail", Code: "INFJ", ResultEmail: "hal@example.com"})

		b.registerAs("Hal", "hal@example.com", "correct horse")
		u, _ := s.GetUserByEmail(ctx, s.DB, "hal@example.com")
		if rs, _ := s.UserResults(ctx, s.DB, u.ID); len(rs) != 0 {
			t.Fatalf("after registration: %d results, want none before the code", len(rs))
		}
		b.verifyWithMailedCode("hal@example.com", "/user/info")
		if rs, _ := s.UserResults(ctx, s.DB, u.ID); len(rs) != 2 {
			t.Fatalf("after verification: %d results, want this browser's and the address's", len(rs))
		}
		ex := b.Get("/user/setting/export")
		if ex.Code != 200 || !strings.Contains(ex.Header().Get("Content-Disposition"), "attachment") ||
			!strings.Contains(ex.Body.String(), resultID) || !strings.Contains(ex.Body.String(), `"status": "paid"`) || !strings.Contains(ex.Body.String(), `"answers": [`) {
			t.Fatalf("export: %d %.1500s", ex.Code, ex.Body.String())
		}
		if rec := b.Submit("/user/setting", "/user/setting/delete", url.Values{"password": {"wrong"}}); rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("delete with a wrong password: %d", rec.Code)
		}
		if rec := b.Submit("/user/setting", "/user/setting/delete", url.Values{"password": {"correct horse"}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("delete: %d", rec.Code)
		}
		if b.signedIn() {
			t.Error("still signed in after deletion")
		}
		if _, err := s.GetResult(ctx, s.DB, "r-mail"); err != store.ErrNotFound {
			t.Errorf("unpaid result kept: %v", err)
		}
		var paid int
		s.DB.Get(&paid, s.DB.Rebind(`SELECT COUNT(*) FROM orders WHERE result_id = ? AND status = 'paid' AND email IS NULL AND user_id IS NULL`), resultID) //nolint:errcheck // checked by the count
		if paid != 1 {
			t.Errorf("paid order not kept anonymised: %d", paid)
		}
	})
}
