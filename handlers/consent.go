package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"

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
		return s.apiOK(c, consentView(choice))
	}
	sess := s.session(c)
	sess.AddFlash(tr(c).T("consent.saved"))
	if err := sess.Save(c.Request(), c.Response()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, safeNext(c.FormValue("next"), state(c).LocalPath("/")))
}

// consentRequest is the body of POST /api/consent.
type consentRequest struct {
	Analytics *bool `json:"analytics"`
	Marketing *bool `json:"marketing"`
}

// apiConsent stores a choice made category by category in the preferences
// dialog.
func (s *Server) apiConsent(c echo.Context) error {
	var req consentRequest
	if err := c.Bind(&req); err != nil || req.Analytics == nil || req.Marketing == nil {
		return echo.ErrBadRequest
	}
	choice := consent.State{Decided: true, Analytics: *req.Analytics, Marketing: *req.Marketing}
	c.SetCookie(choice.Cookie(s.Config.SecureCookies()))
	return s.apiOK(c, consentView(choice))
}

func consentView(s consent.State) map[string]bool {
	return map[string]bool{"analytics": s.Analytics, "marketing": s.Marketing}
}

// safeNext accepts only a local path as a redirect target, so the form
// cannot be used to send visitors to another site.
func safeNext(next, fallback string) string {
	path, _, _ := strings.Cut(next, "?")
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || !localPath(path) || strings.ContainsFunc(next, unicode.IsControl) {
		return fallback
	}
	return next
}
