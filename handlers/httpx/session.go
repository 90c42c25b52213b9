package httpx

import (
	"slices"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
)

// maxOwnedResults bounds how many results one browser session remembers.
const maxOwnedResults = 20

// Session returns the request's session (decoded once per request).
func (s *Server) Session(c echo.Context) *sessions.Session {
	// A cookie that does not decode yields a new session; see loadSession.
	sess, _ := s.Sessions.Get(c.Request(), sessionName)
	return sess
}

// OwnResult records that this browser created a result, so it may see it.
func (s *Server) OwnResult(c echo.Context, id string) error {
	sess := s.Session(c)
	owned, _ := sess.Values["results"].([]string)
	owned = append(slices.DeleteFunc(owned, func(x string) bool { return x == id }), id)
	if len(owned) > maxOwnedResults {
		owned = owned[len(owned)-maxOwnedResults:]
	}
	sess.Values["results"] = owned
	return sess.Save(c.Request(), c.Response())
}

// Owns reports whether this browser created the result, or the result has
// joined the signed-in user's account (their own report opens from any
// browser they sign in on).
func (s *Server) Owns(c echo.Context) func(string) bool {
	owned, _ := s.Session(c).Values["results"].([]string)
	return func(id string) bool { return slices.Contains(owned, id) || s.accountOwns(c, id) }
}

// accountOwns reports whether a result belongs to the signed-in user.
func (s *Server) accountOwns(c echo.Context, resultID string) bool {
	u, ok, err := s.CurrentUser(c)
	if err != nil || !ok {
		return false
	}
	owns, err := s.Accounts.OwnsResult(c.Request().Context(), u.ID, resultID)
	return err == nil && owns
}

// LatestResult is the result this browser created last, or "".
func (s *Server) LatestResult(c echo.Context) string {
	owned, _ := s.Session(c).Values["results"].([]string)
	if len(owned) == 0 {
		return ""
	}
	return owned[len(owned)-1]
}
