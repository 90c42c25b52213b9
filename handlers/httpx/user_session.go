package httpx

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"selfmap/internal/account"
	"selfmap/internal/web"
)

// userKey is where the signed-in user travels in the echo context.
const userKey = "user"

// CurrentUser is the signed-in user, read once per request. The session
// cookie names a user, the generation it was made in and when it was last
// used; the account service says whether that still signs the user in
// (account.Service.SessionUser), and a session that does not is signed out
// here. A session in use gets its last use written back when the service
// says so (with a new cookie).
func (s *Server) CurrentUser(c echo.Context) (account.User, bool, error) {
	if u, ok := c.Get(userKey).(account.User); ok {
		return u, u.ID != "", nil
	}
	sess := s.Session(c)
	in := sessionOf(sess)
	if in.UserID == "" {
		c.Set(userKey, account.User{})
		return account.User{}, false, nil
	}
	u, kept, err := s.Accounts.SessionUser(c.Request().Context(), in)
	if errors.Is(err, account.ErrSessionEnded) {
		return account.User{}, false, s.signOutHere(c, sess)
	}
	if err != nil {
		return account.User{}, false, err
	}
	c.Set(userKey, u)
	if !kept.SeenAt.Equal(in.SeenAt) {
		sess.Values["seen"] = kept.SeenAt.Unix()
		if err := sess.Save(c.Request(), c.Response()); err != nil {
			return account.User{}, false, err
		}
	}
	return u, true, nil
}

// sessionOf reads who a session cookie signs in, as the account service
// checks it.
func sessionOf(sess *sessions.Session) account.Session {
	id, _ := sess.Values["uid"].(string)
	gen, _ := sess.Values["gen"].(int64)
	out := account.Session{UserID: id, Gen: gen}
	if seen, ok := sess.Values["seen"].(int64); ok {
		out.SeenAt = time.Unix(seen, 0)
	}
	return out
}

// signOutHere drops the user from a session that no longer signs them in.
func (s *Server) signOutHere(c echo.Context, sess *sessions.Session) error {
	for _, k := range []string{"uid", "gen", "seen"} {
		delete(sess.Values, k)
	}
	c.Set(userKey, account.User{})
	return sess.Save(c.Request(), c.Response())
}

// pendingScreens are the routes a registration waiting for its code may
// open: the code's screens.
var pendingScreens = map[string]bool{"/user/verify": true, "/user/verify/resend": true}

// RequireUser lets signed-in users through and sends others to the log-in
// page (the API answers 401). A registration waiting for its code also
// reaches the code's screens, as the address typed with no account behind
// it, whether or not the address has one (see startPending).
func (s *Server) RequireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		_, ok, err := s.CurrentUser(c)
		if err != nil {
			return err
		}
		if !ok {
			if IsAPIPath(c.Request().URL.Path) {
				return echo.NewHTTPError(http.StatusUnauthorized)
			}
			if email, _ := s.Session(c).Values["pending"].(string); email != "" && pendingScreens[c.Path()] {
				c.Set(userKey, account.User{Email: email})
				Private(c)
				c.Response().Header().Set("Cache-Control", "no-store")
				return next(c)
			}
			if err := s.Flash(c, Tr(c).T("account.error.login_required")); err != nil {
				return err
			}
			return c.Redirect(http.StatusSeeOther, LoginPath(c))
		}
		Private(c)
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// LoginPath is the log-in page in the request's locale, with the page a
// GET asked for as its next parameter: once signed in, the member lands
// there. A form's POST has nothing to go back to but its page, which the
// member opens again.
func LoginPath(c echo.Context) string {
	st := State(c)
	login := st.LocalPath("/user/login")
	if c.Request().Method != http.MethodGet {
		return login
	}
	next := st.LocalPath(st.Path)
	if st.Query != "" {
		next += "?" + st.Query
	}
	if LocalNext(next) == "" {
		return login
	}
	return login + "?" + url.Values{"next": {next}}.Encode()
}

// LocalNext is raw when it is a path of this site, "" otherwise: where a
// member goes after signing in must never be another site. It refuses a
// scheme or a host ("https://x", "//x"), a backslash (which browsers read
// as a slash: "/\x" is "//x"), control characters (which they drop: a
// tab between two slashes makes "//x") and anything longer than a URL we make.
func LocalNext(raw string) string {
	if len(raw) > 2000 || !strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "//") || strings.ContainsRune(raw, '\\') {
		return ""
	}
	for _, r := range raw {
		if r < 0x20 || r == 0x7f {
			return ""
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return ""
	}
	return raw
}

// User is the signed-in user of a route behind RequireUser (with no ID for
// a registration waiting for its code).
func User(c echo.Context) account.User {
	u, _ := c.Get(userKey).(account.User)
	return u
}

// startSession signs a user in on a new session (renewSession) with the
// user, their session generation and the time of its last use.
func (s *Server) startSession(c echo.Context, u account.User) error {
	in := s.Accounts.NewSession(u)
	sess := s.renewSession(c)
	sess.Values["uid"] = in.UserID
	sess.Values["gen"] = in.Gen
	sess.Values["seen"] = in.SeenAt.Unix()
	c.Set(userKey, u)
	return sess.Save(c.Request(), c.Response())
}

// StartPending answers every registration, whether or not its address had
// an account: a new session signed in as nobody, holding the address typed
// (the code's screens show it and verify it) and the screen a guest was
// sent from, where the code leads back to.
func (s *Server) StartPending(c echo.Context, email string) error {
	back, _ := s.Session(c).Values[ReturnToKey].(string)
	sess := s.renewSession(c)
	sess.Values["pending"] = email
	if back != "" {
		sess.Values[ReturnToKey] = back
	}
	c.Set(userKey, account.User{})
	return sess.Save(c.Request(), c.Response())
}

// renewSession empties the session but for the list of results this
// browser made (they join the account) and gives it a new CSRF secret.
// With cookie sessions, whatever a planted or stolen earlier cookie held is
// no longer the session.
func (s *Server) renewSession(c echo.Context) *sessions.Session {
	sess := s.Session(c)
	owned, _ := sess.Values["results"].([]string)
	for k := range sess.Values {
		delete(sess.Values, k)
	}
	secret := web.NewCSRFSecret()
	sess.Values["csrf"] = secret
	if len(owned) > 0 {
		sess.Values["results"] = owned
	}
	c.Set(csrfSecretKey, secret)
	State(c).CSRF = web.MaskCSRF(secret)
	return sess
}

// EndSession signs out. The account's sessions end on the server (its
// generation moves on, as at a password change), so that no copy of the
// cookie, nor the user's other devices, stay signed in; then the user
// leaves this session and the CSRF secret changes.
func (s *Server) EndSession(c echo.Context) error {
	u, ok, err := s.CurrentUser(c)
	if err != nil {
		return err
	}
	if ok {
		if err := s.Accounts.Logout(c.Request().Context(), u.ID); err != nil {
			return err
		}
	}
	sess := s.Session(c)
	for _, k := range []string{"uid", "gen", "seen", "pending"} {
		delete(sess.Values, k)
	}
	secret := web.NewCSRFSecret()
	sess.Values["csrf"] = secret
	c.Set(csrfSecretKey, secret)
	c.Set(userKey, account.User{})
	State(c).CSRF = web.MaskCSRF(secret)
	return sess.Save(c.Request(), c.Response())
}

// KeepSession moves this session to the user's new generation after a
// password change, which ended every other one.
func (s *Server) KeepSession(c echo.Context, gen int64) error {
	sess := s.Session(c)
	sess.Values["gen"] = gen
	return sess.Save(c.Request(), c.Response())
}

// Flash adds a one-time message for the next page.
func (s *Server) Flash(c echo.Context, msg string) error {
	sess := s.Session(c)
	sess.AddFlash(msg)
	return sess.Save(c.Request(), c.Response())
}
