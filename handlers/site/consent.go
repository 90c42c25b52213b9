package site

import (
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/consent"
)

// consentForm takes the banner's Accept or Reject (POST /consent). With
// JavaScript the banner sends it with fetch and gets JSON; without, it
// redirects back to the page with a flash message.
func (s *Server) consentForm(c echo.Context) error {
	var choice consent.State
	switch c.FormValue("choice") {
	case "all":
		choice = consent.State{Decided: true, Analytics: true, Marketing: true}
	case "none":
		choice = consent.State{Decided: true}
	default:
		return echo.ErrBadRequest
	}
	c.SetCookie(choice.Cookie(s.Config.SecureCookies()))
	if strings.Contains(c.Request().Header.Get("Accept"), "application/json") {
		return s.APIOK(c, httpx.ConsentView(choice))
	}
	sess := s.Session(c)
	sess.AddFlash(httpx.Tr(c).T("consent.saved"))
	if err := sess.Save(c.Request(), c.Response()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, safeNext(c.FormValue("next"), httpx.State(c).LocalPath("/")))
}

// safeNext accepts only a local path as a redirect target, so the form
// cannot be used to send visitors to another site.
func safeNext(next, fallback string) string {
	path, _, _ := strings.Cut(next, "?")
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || !httpx.LocalPath(path) || strings.ContainsFunc(next, unicode.IsControl) {
		return fallback
	}
	return next
}
