package handlers

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/internal/store"
)

// redirectError is returned by flowResult when the browser has no result
// yet: the flow screen sends the visitor to the question pages.
type redirectError struct{ to string }

func (e redirectError) Error() string { return "handlers: redirect to " + e.to }

// flowResult finds the result a flow screen is about: the r parameter, or
// else the last result this browser created. Without either, the visitor is
// sent to the first step (303, as the route table allows); a foreign or
// unknown id is a 404.
func (s *Server) flowResult(c echo.Context) (store.Result, error) {
	id := c.QueryParam("r")
	if id == "" {
		id = s.latestResult(c)
	}
	if id == "" {
		st := state(c)
		return store.Result{}, redirectError{to: st.LocalPath("/answer/question/" + pair(c).String())}
	}
	return s.Results.Get(c.Request().Context(), id, s.owns(c))
}

// flowURL is a flow screen of the request's pair and locale, about result r.
func flowURL(c echo.Context, screen, resultID string) string {
	st := state(c)
	return st.LocalPath(screen+"/"+pair(c).String()) + "?r=" + url.QueryEscape(resultID)
}

// flowError answers a flowResult error: the redirect, or the error page.
func flowError(c echo.Context, err error) error {
	if r, ok := err.(redirectError); ok {
		return c.Redirect(http.StatusSeeOther, r.to)
	}
	return err
}
