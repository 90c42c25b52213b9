package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/store"
	"selfmap/internal/web"
)

// userKey is where the signed-in user travels in the echo context.
const userKey = "user"

// currentUser is the signed-in user, read once per request. The session
// names a user and the generation it was made in; a session of an older
// generation (the password changed since) or of a deleted account is
// signed out here.
func (s *Server) currentUser(c echo.Context) (store.User, bool, error) {
	if u, ok := c.Get(userKey).(store.User); ok {
		return u, u.ID != "", nil
	}
	sess := s.session(c)
	id, _ := sess.Values["uid"].(string)
	gen, _ := sess.Values["gen"].(int64)
	if id == "" {
		c.Set(userKey, store.User{})
		return store.User{}, false, nil
	}
	u, err := s.Store.GetUser(c.Request().Context(), id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return store.User{}, false, err
	}
	if err != nil || u.SessionGen != gen {
		delete(sess.Values, "uid")
		delete(sess.Values, "gen")
		c.Set(userKey, store.User{})
		return store.User{}, false, sess.Save(c.Request(), c.Response())
	}
	c.Set(userKey, u)
	return u, true, nil
}

// requireUser lets signed-in users through and sends others to the log-in
// page (the API answers 401).
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

// user is the signed-in user of a route behind requireUser.
func user(c echo.Context) store.User {
	u, _ := c.Get(userKey).(store.User)
	return u
}

// startSession signs a user in on a new session: a new CSRF secret, the
// user and their session generation. Only the list of results this browser
// made is carried over (they join the account). With cookie sessions,
// whatever a planted or stolen earlier cookie held is no longer the
// session.
func (s *Server) startSession(c echo.Context, u store.User) error {
	sess := s.session(c)
	owned, _ := sess.Values["results"].([]string)
	for k := range sess.Values {
		delete(sess.Values, k)
	}
	secret := web.NewCSRFSecret()
	sess.Values["csrf"] = secret
	sess.Values["uid"] = u.ID
	sess.Values["gen"] = u.SessionGen
	if len(owned) > 0 {
		sess.Values["results"] = owned
	}
	c.Set(csrfSecretKey, secret)
	c.Set(userKey, u)
	state(c).CSRF = web.MaskCSRF(secret)
	return sess.Save(c.Request(), c.Response())
}

// endSession signs out: the user leaves the session and the CSRF secret
// changes.
func (s *Server) endSession(c echo.Context) error {
	sess := s.session(c)
	delete(sess.Values, "uid")
	delete(sess.Values, "gen")
	secret := web.NewCSRFSecret()
	sess.Values["csrf"] = secret
	c.Set(csrfSecretKey, secret)
	c.Set(userKey, store.User{})
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
