package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/account"
)

// submitTest answers the whole test in b and returns the e-mail step's URL
// under the locale prefix.
func (b *browser) submitTest(prefix string) string {
	b.T.Helper()
	rec := b.PostJSON("/api/exam/order/info", b.CSRFToken(prefix+"/"), apptest.Submission(b.T, func(int) int { return 4 }))
	var env struct{ Data struct{ ResultID string } }
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &env) != nil || env.Data.ResultID == "" {
		b.T.Fatalf("submission: %d %.300s", rec.Code, rec.Body.String())
	}
	return prefix + "/answer/email/BMBTI-1807?r=" + env.Data.ResultID
}

// index is where s first appears in body, failing when it does not.
func index(t *testing.T, body, s string) int {
	t.Helper()
	i := strings.Index(body, s)
	if i < 0 {
		t.Fatalf("page lacks %q", s)
	}
	return i
}

// A signed-in member finds the e-mail step and the details step filled in
// from the account, and may still change what is there.
func TestDetailsPrefilledForMember(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		u := k.VerifiedUser(t, "ada@example.com")
		if err := k.Store.UpdateProfile(context.Background(), k.Store.DB, u.ID, account.Profile{Sex: "female", Birthday: "1990-12-10"}, k.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		b := newBrowser(t, k.Handler)
		if rec := b.Login(u.Email, apptest.Password); rec.Code != http.StatusSeeOther {
			t.Fatalf("login: %d", rec.Code)
		}
		emailURL := b.submitTest("")
		page := b.Get(emailURL).Body.String()
		if !strings.Contains(page, `value="ada@example.com"`) || !strings.Contains(page, `data-testid="email-prefilled"`) {
			t.Fatalf("the e-mail step does not show the account's address: %.2000s", page)
		}
		// Editable: another address is taken.
		if rec := b.Submit(emailURL, emailURL, url.Values{"step": {"email"}, "email": {"reports@example.com"}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("another address: %d", rec.Code)
		}
		page = b.Get(emailURL).Body.String()
		for _, want := range []string{`value="Ada"`, `value="Lovelace"`, `value="1990"`, `value="female" checked`, `data-testid="details-prefilled"`} {
			if !strings.Contains(page, want) {
				t.Errorf("details step lacks %s", want)
			}
		}
		// The server still checks what is sent: the country was not known.
		rec := b.Submit(emailURL, emailURL, url.Values{"step": {"details"}, "firstName": {"Ada"}, "lastName": {"Lovelace"}, "birthYear": {"1990"}, "gender": {"female"}})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `href="#country"`) {
			t.Fatalf("details without a country: %d", rec.Code)
		}

		// A guest is asked with empty fields.
		guest := newBrowser(t, k.Handler)
		if page := guest.Get(guest.submitTest("")).Body.String(); strings.Contains(page, `data-testid="email-prefilled"`) || strings.Contains(page, "ada@example.com") {
			t.Error("a guest's e-mail step shows an account's address")
		}
	})
}

// The name fields follow the page's language: family name first in
// Japanese, given name first in English, with the matching autocomplete.
func TestDetailsNameOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		for _, tc := range []struct {
			prefix      string
			familyFirst bool
		}{{"/ja", true}, {"", false}, {"/ko", true}, {"/fr", false}} {
			b := newBrowser(t, k.Handler)
			emailURL := b.submitTest(tc.prefix)
			if rec := b.Submit(emailURL, emailURL, url.Values{"step": {"email"}, "email": {"kai@example.com"}}); rec.Code != http.StatusSeeOther {
				t.Fatalf("%s e-mail: %d", tc.prefix, rec.Code)
			}
			page := b.Get(emailURL).Body.String()
			family, given := index(t, page, `id="lastName"`), index(t, page, `id="firstName"`)
			if (family < given) != tc.familyFirst {
				t.Errorf("%s: family name at %d, given name at %d", tc.prefix, family, given)
			}
			if !regexp.MustCompile(`id="lastName"[^>]*autocomplete="family-name"`).MatchString(page) ||
				!regexp.MustCompile(`id="firstName"[^>]*autocomplete="given-name"`).MatchString(page) {
				t.Errorf("%s: autocomplete tokens wrong", tc.prefix)
			}
		}
	})
}

// The country list is in the order of the page's language: in German Ä
// sorts with A, in Japanese by the reading of the names.
func TestDetailsCountriesCollated(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		for _, tc := range []struct {
			prefix string
			order  []string
		}{
			{"/de", []string{">Afghanistan<", ">Ägypten<", ">Albanien<", ">Bahamas<", ">Österreich<", ">Panama<"}},
			{"/ja", []string{">アイスランド<", ">アメリカ合衆国<", ">イギリス<", ">ドイツ<", ">日本<"}},
		} {
			b := newBrowser(t, k.Handler)
			emailURL := b.submitTest(tc.prefix)
			b.Submit(emailURL, emailURL, url.Values{"step": {"email"}, "email": {"kai@example.com"}})
			page := b.Get(emailURL).Body.String()
			last := -1
			for _, name := range tc.order {
				at := index(t, page, name)
				if at < last {
					t.Errorf("%s: %s comes too early", tc.prefix, name)
				}
				last = at
			}
		}
	})
}

// After log-in a member lands where they were going: a page behind log-in
// sends the visitor to log in with it as next, which the form keeps. A next
// that is not a path of this site is refused, and My Page is where one
// lands without one.
func TestLoginNext(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		u := k.VerifiedUser(t, "ada@example.com")
		b := newBrowser(t, k.Handler)
		rec := b.Get("/fr/userCenter/notification?page=2")
		want := "/fr/user/login?next=" + url.QueryEscape("/fr/userCenter/notification?page=2")
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != want {
			t.Fatalf("guarded page: %d %q, want %q", rec.Code, rec.Header().Get("Location"), want)
		}
		login := b.Get(want).Body.String()
		if !strings.Contains(login, `name="next" value="/fr/userCenter/notification?page=2"`) {
			t.Fatalf("the log-in form drops next: %.2000s", login)
		}
		rec = b.Submit(want, "/fr/user/login", url.Values{"email": {u.Email}, "password": {apptest.Password}, "next": {"/fr/userCenter/notification?page=2"}})
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/fr/userCenter/notification?page=2" {
			t.Fatalf("login with next: %d %q", rec.Code, rec.Header().Get("Location"))
		}

		for _, next := range []string{"//evil.example/x", "https://evil.example/", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)", "evil.example"} {
			b := newBrowser(t, k.Handler)
			if page := b.Get("/user/login?next=" + url.QueryEscape(next)).Body.String(); strings.Contains(page, "evil.example") || strings.Contains(page, "alert(1)") {
				t.Errorf("next %q kept in the form", next)
			}
			rec := b.Submit("/user/login", "/user/login", url.Values{"email": {u.Email}, "password": {apptest.Password}, "next": {next}})
			if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/userCenter" {
				t.Errorf("next %q: %d %q", next, rec.Code, rec.Header().Get("Location"))
			}
		}
	})
}

// A failed log-in names the empty field in a summary at the top that takes
// the focus and links the field, which is marked invalid and described by
// its message.
func TestLoginErrorSummary(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		rec := b.Submit("/user/login", "/user/login", url.Values{"email": {"ada@example.com"}, "password": {""}})
		body := rec.Body.String()
		if rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("empty password: %d", rec.Code)
		}
		summary := regexp.MustCompile(`(?s)<div class="error-summary" role="alert" tabindex="-1" autofocus[^>]*data-testid="login-form-error">(.*?)</div>`).FindStringSubmatch(body)
		if summary == nil || !strings.Contains(summary[1], `href="#password"`) || !strings.Contains(summary[1], "Please enter your password.") ||
			strings.Contains(summary[1], `href="#email"`) {
			t.Fatalf("no summary linking the password: %.3000s", body)
		}
		if !regexp.MustCompile(`<input id="password"[^>]*aria-invalid="true"[^>]*aria-describedby="password-error"`).MatchString(body) ||
			!strings.Contains(body, `<p class="field-error" id="password-error"`) || !strings.Contains(body, `value="ada@example.com"`) {
			t.Errorf("the password field is not marked: %.3000s", body)
		}
		if strings.Count(body, "autofocus") != 1 {
			t.Errorf("%d autofocus attributes, want the summary's alone", strings.Count(body, "autofocus"))
		}

		rec = b.Submit("/ja/user/login", "/ja/user/login", url.Values{"email": {""}, "password": {""}})
		if body := rec.Body.String(); !strings.Contains(body, `href="#email"`) || !strings.Contains(body, `href="#password"`) ||
			!strings.Contains(body, "パスワードを入力してください。") {
			t.Errorf("both empty in Japanese: %.3000s", body)
		}

		// A wrong password is one message for the form, tied to no field.
		k.VerifiedUser(t, "ada@example.com")
		rec = b.Submit("/user/login", "/user/login", url.Values{"email": {"ada@example.com"}, "password": {"wrong horse"}})
		if body := rec.Body.String(); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="login-form-error"`) ||
			strings.Contains(body, `aria-invalid="true"`) {
			t.Errorf("wrong password: %d %.2000s", rec.Code, body)
		}
	})
}

// The profile's birthday is a date field; the picture and the fields are
// saved by one submit, or neither when either is refused.
func TestProfileOneSubmit(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		u := k.VerifiedUser(t, "ada@example.com")
		b := newBrowser(t, k.Handler)
		b.Login(u.Email, apptest.Password)
		page := b.Get("/user/info").Body.String()
		if !regexp.MustCompile(`<input id="birthday" name="birthday" type="date"`).MatchString(page) ||
			!strings.Contains(page, `data-testid="info-form" enctype="multipart/form-data"`) || strings.Contains(page, `action="/user/avatar"`) {
			t.Fatalf("profile form: %.3000s", page)
		}
		if rec := b.profileForm(url.Values{"nickname": {"Ada"}, "birthday": {"1990-12-10"}}, []byte("not a picture")); rec.Code != http.StatusUnprocessableEntity ||
			!strings.Contains(rec.Body.String(), `href="#avatar"`) {
			t.Fatalf("a bad picture: %d", rec.Code)
		}
		if got, _ := k.Store.GetUser(context.Background(), k.Store.DB, u.ID); got.Nickname != "" {
			t.Error("the fields were saved with a refused picture")
		}
		if rec := b.profileForm(url.Values{"nickname": {"Ada"}, "birthday": {"1990-12-10"}}, pngBytes(t, 8, 8)); rec.Code != http.StatusSeeOther {
			t.Fatalf("profile with a picture: %d %.500s", rec.Code, rec.Body.String())
		}
		got, _ := k.Store.GetUser(context.Background(), k.Store.DB, u.ID)
		if got.Nickname != "Ada" || got.Birthday != "1990-12-10" || got.AvatarType != "image/png" {
			t.Errorf("saved %+v", got.Profile())
		}
	})
}

// profileForm sends the profile form as the page does: multipart, with the
// picture among the fields.
func (b *browser) profileForm(fields url.Values, picture []byte) *httptest.ResponseRecorder {
	b.T.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("_csrf", b.CSRFToken("/user/info")) //nolint:errcheck // in memory
	for k, vs := range fields {
		for _, v := range vs {
			w.WriteField(k, v) //nolint:errcheck // in memory
		}
	}
	fw, _ := w.CreateFormFile("avatar", "me.png")
	fw.Write(picture) //nolint:errcheck // in memory
	w.Close()
	req := httptest.NewRequest("POST", "/user/info", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return b.Do(req)
}

// An account's one name is split as its locale writes names: on the
// Japanese details step "山田 花子" is family name 山田 and given name 花子,
// and a name run together is not guessed at.
func TestDetailsPrefilledNameInFamilyFirstLocale(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		u := k.VerifiedUser(t, "hanako@example.com")
		b := newBrowser(t, k.Handler)
		if rec := b.Login(u.Email, apptest.Password); rec.Code != http.StatusSeeOther {
			t.Fatalf("login: %d", rec.Code)
		}
		details := func(name string) string {
			if err := k.Store.SetUserName(ctx, k.Store.DB, u.ID, name, k.Clock.Now()); err != nil {
				t.Fatal(err)
			}
			emailURL := b.submitTest("/ja")
			if rec := b.Submit(emailURL, emailURL, url.Values{"step": {"email"}, "email": {u.Email}}); rec.Code != http.StatusSeeOther {
				t.Fatalf("e-mail step: %d", rec.Code)
			}
			return b.Get(emailURL).Body.String()
		}
		page := details("山田 花子")
		family, given := regexp.MustCompile(`name="lastName"[^>]*value="([^"]*)"`), regexp.MustCompile(`name="firstName"[^>]*value="([^"]*)"`)
		if f, g := family.FindStringSubmatch(page), given.FindStringSubmatch(page); f == nil || g == nil || f[1] != "山田" || g[1] != "花子" {
			t.Fatalf("family %v, given %v: %.3000s", f, g, page)
		}
		page = details("山田花子")
		if f, g := family.FindStringSubmatch(page), given.FindStringSubmatch(page); (f != nil && f[1] != "") || (g != nil && g[1] != "") {
			t.Errorf("a name run together was split: family %v, given %v", f, g)
		}
	})
}
