package account_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfmap/internal/account"
	"selfmap/internal/mail"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func newService(s *store.Store) (*account.Service, *clock) {
	c := &clock{now: time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)}
	return &account.Service{Store: s, Now: c.Now, Compose: func(locale, purpose, code string) (mail.Content, error) {
		if purpose == account.PurposeNotice {
			return mail.Content{Kind: mail.KindRegisterNotice, Subject: "notice", Text: "Someone tried to sign up with your address.\n"}, nil
		}
		return mail.Content{Kind: "account_code", Subject: "code " + purpose, Text: "Your code: " + code + "\n"}, nil
	}}, c
}

var codeInMail = regexp.MustCompile(`code: (\d{6})`)

// lastCode reads the code of the newest mail sent to an address.
func lastCode(t *testing.T, s *store.Store, to string) string {
	t.Helper()
	mails, err := s.ListMail(context.Background(), s.DB, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mails {
		if m.To == to {
			if c := codeInMail.FindStringSubmatch(m.Body); c != nil {
				return c[1]
			}
		}
	}
	t.Fatalf("no code mailed to %s", to)
	return ""
}

// register signs a new address up and returns the account it made, which
// Register itself never hands out.
func register(t *testing.T, svc *account.Service, email string) store.User {
	t.Helper()
	got, errs, err := svc.Register(context.Background(), account.RegisterInput{Name: "Ada", Email: email, Password: "correct horse",
		Confirm: "correct horse", Agreed: true, Locale: "en"})
	if err != nil || len(errs) > 0 || got != strings.ToLower(email) {
		t.Fatalf("register: %q %v %v", got, errs, err)
	}
	u, err := svc.Store.GetUserByEmail(context.Background(), svc.Store.DB, got)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestPasswordHash(t *testing.T) {
	h := account.HashPassword("s3cret!")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not Argon2id with the baseline parameters", h)
	}
	if !account.CheckPassword(h, "s3cret!") || account.CheckPassword(h, "s3cret") || account.CheckPassword("plain", "plain") {
		t.Error("password check is wrong")
	}
	if h == account.HashPassword("s3cret!") {
		t.Error("two hashes of one password are equal: no salt")
	}
}

func TestRegisterValidation(t *testing.T) {
	svc, _ := newService(storetest.SQLite(t))
	ok := account.RegisterInput{Name: "Ada", Email: "ada@example.com", Password: "longenough", Confirm: "longenough", Agreed: true}
	for _, tc := range []struct {
		change      func(*account.RegisterInput)
		field, want string
	}{
		{func(in *account.RegisterInput) { in.Name = " " }, "name", "form.required"},
		{func(in *account.RegisterInput) { in.Email = "nope" }, "email", "form.email.invalid"},
		{func(in *account.RegisterInput) { in.Password, in.Confirm = "short", "short" }, "password", "account.error.password_short"},
		{func(in *account.RegisterInput) { in.Confirm = "different1" }, "confirm", "account.error.password_mismatch"},
		{func(in *account.RegisterInput) { in.Agreed = false }, "agree", "account.error.agree"},
	} {
		in := ok
		tc.change(&in)
		_, errs, err := svc.Register(context.Background(), in)
		if err != nil || errs[tc.field] != tc.want || len(errs) != 1 {
			t.Errorf("%+v: %v %v, want %s=%s", in, errs, err, tc.field, tc.want)
		}
	}
}

func TestRegisterVerifyLogin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, clk := newService(s)
		u := register(t, svc, "Ada@Example.com")
		if u.Email != "ada@example.com" || u.Verified() {
			t.Fatalf("new user %+v", u)
		}
		// The same form twice makes one account and answers the same
		// (TestRegisterWithTakenAddress).
		if again, errs, err := svc.Register(ctx, account.RegisterInput{Name: "Ada", Email: "ada@EXAMPLE.com", Password: "correct horse",
			Confirm: "correct horse", Agreed: true}); again != "ada@example.com" || len(errs) > 0 || err != nil {
			t.Fatalf("a second registration: %q %v %v", again, errs, err)
		}
		code := lastCode(t, s, "ada@example.com")
		wrong := "000000"
		if code == wrong {
			wrong = "111111"
		}
		if got, msg, err := svc.VerifyAddress(ctx, "ada@example.com", wrong); err != nil || msg != "account.error.code_refused" || got.ID != "" {
			t.Fatalf("wrong code: %+v %q %v", got, msg, err)
		}
		if got, msg, err := svc.VerifyAddress(ctx, "ada@example.com", code); err != nil || msg != "" || got.ID != u.ID || !got.Verified() {
			t.Fatalf("verify: %+v %q %v", got, msg, err)
		}

		if _, msg, err := svc.Login(ctx, "ADA@example.com", "correct horse"); msg != "" || err != nil {
			t.Fatalf("login: %q %v", msg, err)
		}
		_, msgWrong, _ := svc.Login(ctx, "ada@example.com", "wrong horse")
		_, msgNobody, _ := svc.Login(ctx, "nobody@example.com", "wrong horse")
		if msgWrong != "account.error.login_failed" || msgWrong != msgNobody {
			t.Errorf("failures say %q and %q; want one generic message", msgWrong, msgNobody)
		}
		// The limit per account: after five failures even the right
		// password is refused until the window has passed.
		for range account.LoginFailures - 1 {
			svc.Login(ctx, "ada@example.com", "wrong horse") //nolint:errcheck // counting failures
		}
		if _, _, err := svc.Login(ctx, "ada@example.com", "correct horse"); err != account.ErrLocked {
			t.Fatalf("locked account logged in: %v", err)
		}
		clk.now = clk.now.Add(account.LoginWindow + time.Minute)
		if _, msg, err := svc.Login(ctx, "ada@example.com", "correct horse"); msg != "" || err != nil {
			t.Fatalf("login after the window: %q %v", msg, err)
		}
	})
}

func TestForgotPasswordCode(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, clk := newService(s)
		u := register(t, svc, "bo@example.com")
		reset := func(code string) string {
			errs, err := svc.ResetPassword(ctx, account.ResetInput{Email: "bo@example.com", Code: code, Password: "new password", Confirm: "new password"})
			if err != nil {
				t.Fatal(err)
			}
			return errs["code"]
		}
		// Unknown address: the same answer, and no mail.
		before, _ := s.ListMail(ctx, s.DB, 50)
		if _, errs, err := svc.ForgotPassword(ctx, "nobody@example.com", "en"); err != nil || len(errs) > 0 {
			t.Fatalf("unknown address: %v %v", errs, err)
		}
		if after, _ := s.ListMail(ctx, s.DB, 50); len(after) != len(before) {
			t.Error("a code was mailed to an address without an account")
		}

		// Expiry: a code older than ten minutes is refused.
		svc.ForgotPassword(ctx, "bo@example.com", "en") //nolint:errcheck // checked by the mail read below
		code := lastCode(t, s, "bo@example.com")
		clk.now = clk.now.Add(account.CodeTTL + time.Second)
		if msg := reset(code); msg != "account.error.code_invalid" {
			t.Fatalf("expired code: %q", msg)
		}

		// Five tries: the fifth wrong one uses the code up, and then even
		// the right code fails.
		clk.now = clk.now.Add(time.Second)
		svc.ForgotPassword(ctx, "bo@example.com", "en") //nolint:errcheck // checked by the mail read below
		code = lastCode(t, s, "bo@example.com")
		wrong := "999999"
		if code == wrong {
			wrong = "888888"
		}
		for i := range account.CodeTries {
			if msg := reset(wrong); msg != "account.error.code_invalid" {
				t.Fatalf("wrong try %d: %q", i+1, msg)
			}
		}
		if msg := reset(code); msg != "account.error.code_tries" {
			t.Fatalf("sixth try with the right code: %q", msg)
		}

		// Single use.
		clk.now = clk.now.Add(time.Second)
		svc.ForgotPassword(ctx, "bo@example.com", "en") //nolint:errcheck // checked by the mail read below
		code = lastCode(t, s, "bo@example.com")
		if msg := reset(code); msg != "" {
			t.Fatalf("good code: %q", msg)
		}
		if msg := reset(code); msg != "account.error.code_invalid" {
			t.Fatalf("a code worked twice: %q", msg)
		}
		if _, msg, _ := svc.Login(ctx, "bo@example.com", "new password"); msg != "" {
			t.Error("the new password does not log in")
		}
		got, _ := s.GetUser(ctx, s.DB, u.ID)
		if got.SessionGen == u.SessionGen || !got.Verified() {
			t.Errorf("after reset: gen %d (was %d), verified %t", got.SessionGen, u.SessionGen, got.Verified())
		}
	})
}

func TestChangePasswordEndsSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, _ := newService(s)
		u := register(t, svc, "cy@example.com")
		if _, errs, _ := svc.ChangePassword(ctx, u.ID, "wrong", "another one", "another one"); errs["current"] != "account.error.password_wrong" {
			t.Errorf("wrong current password: %v", errs)
		}
		gen, errs, err := svc.ChangePassword(ctx, u.ID, "correct horse", "another one", "another one")
		if err != nil || len(errs) > 0 || gen != u.SessionGen+1 {
			t.Fatalf("change: %d %v %v", gen, errs, err)
		}
	})
}

func TestProfileValidation(t *testing.T) {
	today := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		p           store.Profile
		field, want string
	}{
		{store.Profile{Birthday: "2020-02-30"}, "birthday", "account.error.birthday"},
		{store.Profile{Birthday: "01/02/2020"}, "birthday", "account.error.birthday"},
		{store.Profile{Birthday: "2027-01-01"}, "birthday", "account.error.birthday"},
		{store.Profile{Sex: "other"}, "sex", "form.choose"},
		{store.Profile{Phone: "call me"}, "phone", "account.error.phone"},
		{store.Profile{Nickname: strings.Repeat("n", 31)}, "nickname", "form.too_long"},
		{store.Profile{Introduction: strings.Repeat("é", 501)}, "introduction", "account.error.intro_long"},
	} {
		if _, errs := account.CheckProfile(tc.p, today); errs[tc.field] != tc.want || len(errs) != 1 {
			t.Errorf("%+v: %v, want %s=%s", tc.p, errs, tc.field, tc.want)
		}
	}
	p, errs := account.CheckProfile(store.Profile{Nickname: " Ada  L ", Phone: "+33 1 23 45 67 89", Birthday: "2020-01-01", Sex: "confidential",
		Introduction: "Hello\r\nthere"}, today)
	if len(errs) > 0 || p.Nickname != "Ada L" || p.Introduction != "Hello\nthere" {
		t.Errorf("valid profile: %+v %v", p, errs)
	}
}

func encode(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "jpeg":
		err = jpeg.Encode(&b, img, nil)
	case "gif":
		err = gif.Encode(&b, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestAvatar(t *testing.T) {
	for _, tc := range []struct {
		name     string
		data     []byte
		wantType string
		wantMsg  string
	}{
		{"png", encode(t, "png", 64, 64), "image/png", ""},
		{"jpeg", encode(t, "jpeg", 64, 48), "image/jpeg", ""},
		{"gif becomes png", encode(t, "gif", 32, 32), "image/png", ""},
		{"html is no image", []byte("<html><script>alert(1)</script></html>"), "", "account.error.avatar_type"},
		{"svg is refused", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), "", "account.error.avatar_type"},
		{"too wide", encode(t, "png", account.MaxAvatarSide+1, 1), "", "account.error.avatar_dims"},
		{"too large", append(encode(t, "png", 8, 8), make([]byte, account.MaxAvatarBytes)...), "", "account.error.avatar_size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, mediaType, msg := account.ProcessAvatar(tc.data)
			if msg != tc.wantMsg || mediaType != tc.wantType {
				t.Fatalf("got %q %q, want %q %q", mediaType, msg, tc.wantType, tc.wantMsg)
			}
			if msg == "" {
				if _, _, err := image.Decode(bytes.NewReader(out)); err != nil {
					t.Errorf("re-encoded image does not decode: %v", err)
				}
			}
		})
	}
	// Bytes after the image end (a polyglot's payload) do not survive.
	withTail := append(encode(t, "png", 8, 8), []byte("<script>x</script>")...)
	if out, _, msg := account.ProcessAvatar(withTail); msg != "" || bytes.Contains(out, []byte("<script>")) {
		t.Errorf("trailing bytes kept: %q", msg)
	}
}

// Results and orders made without an account under the same address join
// it once the address is verified, not before; someone else's do not.
// Export has them all; deletion removes them but keeps paid orders,
// anonymised.
func TestClaimExportDelete(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, clk := newService(s)
		at := clk.now.Add(-time.Hour)
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r-paid", Code: "INTJ", ResultEmail: "Dee@Example.com", Report: "paid", ReportEmail: "Dee@Example.com", At: at})
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r-free", Code: "ENFP", ResultEmail: "dee@example.com", At: at})
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r-other", Code: "ISTP", ResultEmail: "other@example.com", Report: "paid", ReportEmail: "other@example.com", At: at})

		u := register(t, svc, "dee@example.com")
		if rs, _ := s.UserResults(ctx, s.DB, u.ID); len(rs) != 0 {
			t.Fatalf("an unverified account got %d results", len(rs))
		}
		if _, msg, err := svc.VerifyAddress(ctx, "dee@example.com", lastCode(t, s, "dee@example.com")); msg != "" || err != nil {
			t.Fatal(msg, err)
		}
		ex, err := svc.Export(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ex.Results) != 2 || len(ex.Orders) != 2 || ex.Profile.Email != "dee@example.com" {
			t.Fatalf("export: %d results, %d orders, %+v", len(ex.Results), len(ex.Orders), ex.Profile)
		}
		raw, _ := json.Marshal(ex)
		if strings.Contains(string(raw), "r-other") || strings.Contains(string(raw), "other@example.com") || !strings.Contains(string(raw), `"answers":[]`) {
			t.Errorf("export: %s", raw)
		}

		if msg, _ := svc.Delete(ctx, u.ID, "wrong"); msg != "account.error.password_wrong" {
			t.Fatalf("delete with a wrong password: %q", msg)
		}
		if msg, err := svc.Delete(ctx, u.ID, "correct horse"); msg != "" || err != nil {
			t.Fatal(msg, err)
		}
		if _, err := s.GetUser(ctx, s.DB, u.ID); err != store.ErrNotFound {
			t.Errorf("user still there: %v", err)
		}
		if _, err := s.GetResult(ctx, s.DB, "r-free"); err != store.ErrNotFound {
			t.Errorf("unpaid result still there: %v", err)
		}
		kept, err := s.GetResult(ctx, s.DB, "r-paid")
		if err != nil || kept.Email.Valid || kept.Answers != "[]" {
			t.Errorf("paid result: %+v %v", kept, err)
		}
		var paid struct {
			Status string        `db:"status"`
			Email  store.NullStr `db:"email"`
			Total  int64         `db:"total"`
			UserID store.NullStr `db:"user_id"`
		}
		if err := s.DB.GetContext(ctx, &paid, s.DB.Rebind(`SELECT status, email, total, user_id FROM orders WHERE result_id = ?`), "r-paid"); err != nil ||
			paid.Status != "paid" || paid.Email.Valid || paid.UserID.Valid {
			t.Errorf("paid order: %+v %v", paid, err)
		}
		if other, err := s.GetResult(ctx, s.DB, "r-other"); err != nil || other.Email.String != "other@example.com" {
			t.Errorf("someone else's result changed: %+v %v", other, err)
		}
	})
}

// A large picture is kept at most AvatarSide pixels on its longer side.
func TestAvatarIsScaledDown(t *testing.T) {
	big := image.NewRGBA(image.Rect(0, 0, 2000, 1000))
	var buf bytes.Buffer
	if err := png.Encode(&buf, big); err != nil {
		t.Fatal(err)
	}
	out, typ, msg := account.ProcessAvatar(buf.Bytes())
	if msg != "" || typ != "image/png" {
		t.Fatalf("ProcessAvatar: %q %q", typ, msg)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(out))
	if err != nil || cfg.Width != account.AvatarSide || cfg.Height != account.AvatarSide/2 {
		t.Fatalf("kept %dx%d (%v), want %dx%d", cfg.Width, cfg.Height, err, account.AvatarSide, account.AvatarSide/2)
	}
}

// mailsTo counts the outbox's messages of a kind to an address.
func mailsTo(t *testing.T, s *store.Store, kind, to string) int {
	t.Helper()
	mails, err := s.ListMail(context.Background(), s.DB, 100)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range mails {
		if m.Kind == kind && m.To == to {
			n++
		}
	}
	return n
}

// Registering with an address that has an account answers as for a new
// address, with any password: no error, no account, the address typed;
// the owner gets a notice (once an hour), not a code; a wrong password
// counts against the address's log-in lock, and a locked address is
// refused at registration whether or not it has an account.
func TestRegisterWithTakenAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, clk := newService(s)
		owner := register(t, svc, "ada@example.com")
		try := func(password string) (string, error) {
			t.Helper()
			email, errs, err := svc.Register(ctx, account.RegisterInput{Name: "Eve", Email: "ADA@example.com", Password: password, Confirm: password,
				Agreed: true, Locale: "en"})
			if len(errs) > 0 {
				t.Fatalf("a taken address was refused with %v", errs)
			}
			return email, err
		}
		for _, password := range []string{"correct horse", "another pass"} {
			email, err := try(password)
			if err != nil || email != "ada@example.com" {
				t.Fatalf("with %q: %q %v; want the address typed, as for a new one", password, email, err)
			}
		}
		if got, _ := s.GetUser(ctx, s.DB, owner.ID); got.Name != "Ada" || got.PasswordHash != owner.PasswordHash || got.SessionGen != owner.SessionGen {
			t.Errorf("the owner's account changed: %+v", got)
		}
		if n := mailsTo(t, s, "account_code", "ada@example.com"); n != 1 {
			t.Errorf("%d codes mailed to the owner, want the registration's one", n)
		}
		if n := mailsTo(t, s, mail.KindRegisterNotice, "ada@example.com"); n != 1 {
			t.Errorf("%d notices in the first hour, want 1", n)
		}
		if n, _ := s.LoginFailures(ctx, s.DB, "ada@example.com", clk.now.Add(-time.Hour)); n != 1 {
			t.Errorf("%d failures counted, want 1 (the wrong password only)", n)
		}
		for range account.LoginFailures - 1 {
			if _, err := try("wrong horse"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := try("correct horse"); err != account.ErrLocked {
			t.Errorf("registration on a locked address: %v, want ErrLocked", err)
		}
		if _, _, err := svc.Login(ctx, "ada@example.com", "correct horse"); err != account.ErrLocked {
			t.Errorf("log-in after five wrong registrations: %v, want ErrLocked", err)
		}

		clk.now = clk.now.Add(account.LoginWindow + time.Hour)
		if _, err := try("wrong horse"); err != nil {
			t.Fatal(err)
		}
		if n := mailsTo(t, s, mail.KindRegisterNotice, "ada@example.com"); n != 2 {
			t.Errorf("%d notices an hour later, want 2", n)
		}

		// The lock does not depend on the account: an address without one
		// that failed to log in is refused too.
		for range account.LoginFailures {
			svc.Login(ctx, "nobody@example.com", "wrong horse") //nolint:errcheck // counting failures
		}
		if _, _, err := svc.Register(ctx, account.RegisterInput{Name: "Bo", Email: "nobody@example.com", Password: "long enough",
			Confirm: "long enough", Agreed: true}); err != account.ErrLocked {
			t.Errorf("registration on a locked address without an account: %v", err)
		}
		if _, err := s.GetUserByEmail(ctx, s.DB, "nobody@example.com"); err != store.ErrNotFound {
			t.Errorf("an account was made on a locked address: %v", err)
		}
	})
}

// Log-out moves the account's session generation on, which ends every
// session made before it.
func TestLogoutEndsSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, _ := newService(s)
		u := register(t, svc, "lo@example.com")
		if err := svc.Logout(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.GetUser(ctx, s.DB, u.ID); got.SessionGen != u.SessionGen+1 {
			t.Errorf("generation %d after log-out, want %d", got.SessionGen, u.SessionGen+1)
		}
	})
}

// Bidirectional controls are refused in a nickname, as in a name.
func TestNicknameRefusesBidiControls(t *testing.T) {
	today := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	for _, nick := range []string{"Ada\u202Egpj.exe", "\u2066Ada\u2069", "Ada\u202A"} {
		if _, errs := account.CheckProfile(store.Profile{Nickname: nick}, today); errs["nickname"] != "form.name.invalid" {
			t.Errorf("nickname %q: %v", nick, errs)
		}
	}
	if p, errs := account.CheckProfile(store.Profile{Nickname: "אדה"}, today); len(errs) > 0 || p.Nickname != "אדה" {
		t.Errorf("a right-to-left nickname was refused: %v", errs)
	}
}

// The code's screen verifies an address with its own mailed code and
// gives the account to sign in as: a wrong code does not, nor does the
// right one twice.
func TestVerifyAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, _ := newService(s)
		u := register(t, svc, "vi@example.com")
		code := lastCode(t, s, "vi@example.com")
		wrong := "000000"
		if code == wrong {
			wrong = "111111"
		}
		if got, msg, err := svc.VerifyAddress(ctx, "vi@example.com", wrong); err != nil || msg != "account.error.code_refused" || got.ID != "" {
			t.Fatalf("wrong code: %+v %q %v", got, msg, err)
		}
		got, msg, err := svc.VerifyAddress(ctx, "vi@example.com", code)
		if err != nil || msg != "" || got.ID != u.ID || got.SessionGen != u.SessionGen || !got.Verified() {
			t.Fatalf("the mailed code: %+v %q %v", got, msg, err)
		}
		if _, msg, _ := svc.VerifyAddress(ctx, "vi@example.com", code); msg != "account.error.code_refused" {
			t.Errorf("the code worked twice: %q", msg)
		}
	})
}

// Codes typed after registering are refused with one message, whether the
// address is new (its code tried too often) or had a verified account (no
// code to try at all): "too many tries" would tell the two apart.
func TestVerifyAddressRefusesAlike(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, _ := newService(s)
		register(t, svc, "old@example.com")
		if _, msg, err := svc.VerifyAddress(ctx, "old@example.com", lastCode(t, s, "old@example.com")); msg != "" || err != nil {
			t.Fatal(msg, err)
		}
		register(t, svc, "new@example.com")
		wrong := otherThan(lastCode(t, s, "new@example.com"))
		for try := range account.CodeTries + 2 {
			_, forNew, err := svc.VerifyAddress(ctx, "new@example.com", wrong)
			if err != nil {
				t.Fatal(err)
			}
			_, forOld, err := svc.VerifyAddress(ctx, "old@example.com", wrong)
			if err != nil {
				t.Fatal(err)
			}
			if forNew != forOld || forNew != "account.error.code_refused" {
				t.Fatalf("try %d: %q for a new address, %q for one with an account", try+1, forNew, forOld)
			}
		}
	})
}

// otherThan is a six-digit code that is not code.
func otherThan(code string) string {
	if code == "000000" {
		return "111111"
	}
	return "000000"
}

// A new code goes only to an address whose account is not verified yet,
// within the hourly limit; one with a verified account, or none, is
// mailed nothing and never reaches the limit.
func TestResendCode(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, _ := newService(s)
		register(t, svc, "old@example.com")
		if _, msg, err := svc.VerifyAddress(ctx, "old@example.com", lastCode(t, s, "old@example.com")); msg != "" || err != nil {
			t.Fatal(msg, err)
		}
		register(t, svc, "new@example.com")
		for range 8 {
			for _, email := range []string{"old@example.com", "nobody@example.com"} {
				if err := svc.ResendCode(ctx, email, "en"); err != nil {
					t.Fatalf("%s: %v", email, err)
				}
			}
		}
		if n := mailsTo(t, s, "account_code", "old@example.com"); n != 1 {
			t.Errorf("%d codes to a verified account's address, want only its registration's", n)
		}
		if n := mailsTo(t, s, "account_code", "nobody@example.com"); n != 0 {
			t.Errorf("%d codes to an address without an account", n)
		}
		for range 4 {
			if err := svc.ResendCode(ctx, "new@example.com", "en"); err != nil {
				t.Fatal(err)
			}
		}
		if err := svc.ResendCode(ctx, "new@example.com", "en"); err != account.ErrTooManyCodes {
			t.Errorf("a sixth code in the hour: %v, want ErrTooManyCodes", err)
		}
		if n := mailsTo(t, s, "account_code", "new@example.com"); n != 5 {
			t.Errorf("%d codes to the new account, want 5", n)
		}
	})
}
