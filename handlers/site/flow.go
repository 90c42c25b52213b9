package site

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/result"
	"selfmap/views"
)

// redirectError is returned by flowResult when the browser has no result
// yet: the flow screen sends the visitor to the question pages.
type redirectError struct{ to string }

func (e redirectError) Error() string { return "handlers: redirect to " + e.to }

// flowID is the result a flow screen is about: the r parameter, or else
// the last result this browser created. Without either, the visitor is
// sent to the first step (303, as the route table allows).
func (s *Server) flowID(c echo.Context) (string, error) {
	id := c.QueryParam("r")
	if id == "" {
		id = s.LatestResult(c)
	}
	if id == "" {
		return "", redirectError{to: httpx.State(c).LocalPath("/answer/question/" + httpx.Pair(c).String())}
	}
	return id, nil
}

// flowResult reads the result flowID names; a foreign or unknown id is a
// 404.
func (s *Server) flowResult(c echo.Context) (result.Result, error) {
	id, err := s.flowID(c)
	if err != nil {
		return result.Result{}, err
	}
	return s.Results.Get(c.Request().Context(), id, s.Owns(c))
}

// flowURL is a flow screen of the request's pair and locale, about result r.
func flowURL(c echo.Context, screen, resultID string) string {
	st := httpx.State(c)
	q := httpx.TrackingQuery(st.Query)
	q.Set("r", resultID)
	return st.LocalPath(screen+"/"+httpx.Pair(c).String()) + "?" + q.Encode()
}

// payError answers an error of a checkout screen. A result or order this
// browser cannot act on (its session has expired, or it was never theirs:
// the two look the same) gets the "session expired, start over" screen.
func (s *Server) payError(c echo.Context, err error) error {
	var ae *apperr.Error
	if errors.Is(err, echo.ErrNotFound) || (errors.As(err, &ae) && ae.Status == http.StatusNotFound) {
		c.Response().Header().Set("Cache-Control", "no-store")
		return s.Render(c, http.StatusNotFound, views.PayStatus(views.StatusPage{Kind: "expired",
			RetryHref: httpx.State(c).LocalPath("/answer/question/" + httpx.Pair(c).String())}))
	}
	return flowError(c, err)
}

// flowError answers a flowResult error: the redirect, or the error page.
func flowError(c echo.Context, err error) error {
	if r, ok := err.(redirectError); ok {
		return c.Redirect(http.StatusSeeOther, r.to)
	}
	return err
}
