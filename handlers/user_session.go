package handlers

import (
	"errors"
	"net/http"
	"time"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"selfmap/internal/account"
	"selfmap/internal/web"
)

// userKey is where the signed-in user travels in the echo context.
const userKey = "user"

// currentUser is the signed-in user, read once per request. The session
// cookie names a user, the generation it was made in and when it was last
// used; the account service says whether that still signs the user in
// (account.Service.SessionUser), and a session that does not is signed out
// here. A session in use gets its last use written back when the service
// says so (with a new cookie).
func (s *Server) currentUser(c echo.Context) (account.User, bool, error) {
	if u, ok := c.Get(userKey).(account.User); ok {
		return u, u.ID != "", nil
	}
	sess := s.session(c)
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

// requireUser lets signed-in users through and sends others to the log-in
// page (the API answers 401). A registration waiting for its code also
// reaches the code's screens, as the address typed with no account behind
// it, whether or not the address has one (see startPending).
func (s *Server) requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		_, ok, err := s.currentUser(c)
		if err != nil {
			return err
		}
		if !ok {
			if isAPIPath(c.Request().URL.Path) {
				return echo.NewHTTPError(http.StatusUnauthorized)
			}
			if email, _ := s.session(c).Values["pending"].(string); email != "" && pendingScreens[c.Path()] {
				c.Set(userKey, account.User{Email: email})
				private(c)
				c.Response().Header().Set("Cache-Control", "no-store")
				return next(c)
			}
			if err := s.flash(c, tr(c).T("account.error.login_required")); err != nil {
				return err
			}
			return c.Redirect(http.StatusSeeOther, state(c).LocalPath("/user/login"))
		}
		private(c)
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// user is the signed-in user of a route behind requireUser (with no ID for
// a registration waiting for its code).
func user(c echo.Context) account.User {
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

// startPending answers every registration, whether or not its address had
// an account: a new session signed in as nobody, holding the address typed
// (the code's screens show it and verify it) and the screen a guest was
// sent from, where the code leads back to.
func (s *Server) startPending(c echo.Context, email string) error {
	back, _ := s.session(c).Values[returnToKey].(string)
	sess := s.renewSession(c)
	sess.Values["pending"] = email
	if back != "" {
		sess.Values[returnToKey] = back
	}
	c.Set(userKey, account.User{})
	return sess.Save(c.Request(), c.Response())
}

// renewSession empties the session but for the list of results this
// browser made (they join the account) and gives it a new CSRF secret.
// With cookie sessions, whatever a planted or stolen earlier cookie held is
// no longer the session.
func (s *Server) renewSession(c echo.Context) *sessions.Session {
	sess := s.session(c)
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
	state(c).CSRF = web.MaskCSRF(secret)
	return sess
}

// endSession signs out. The account's sessions end on the server (its
// generation moves on, as at a password change), so that no copy of the
// cookie, nor the user's other devices, stay signed in; then the user
// leaves this session and the CSRF secret changes.
func (s *Server) endSession(c echo.Context) error {
	u, ok, err := s.currentUser(c)
	if err != nil {
		return err
	}
	if ok {
		if err := s.Accounts.Logout(c.Request().Context(), u.ID); err != nil {
			return err
		}
	}
	sess := s.session(c)
	for _, k := range []string{"uid", "gen", "seen", "pending"} {
		delete(sess.Values, k)
	}
	secret := web.NewCSRFSecret()
	sess.Values["csrf"] = secret
	c.Set(csrfSecretKey, secret)
	c.Set(userKey, account.User{})
	state(c).CSRF = web.MaskCSRF(secret)
	return sess.Save(c.Request(), c.Response())
}

// keepSession moves this session to the user's new generation after a
// password change, which ended every other one.
func (s *Server) keepSession(c echo.Context, gen int64) error {
	sess := s.session(c)
	sess.Values["gen"] = gen
	return sess.Save(c.Request(), c.Response())
}

// flash adds a one-time message for the next page.
func (s *Server) flash(c echo.Context, msg string) error {
	sess := s.session(c)
	sess.AddFlash(msg)
	return sess.Save(c.Request(), c.Response())
}
