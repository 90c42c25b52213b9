package api

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/consent"
)

// apiConsent stores a choice made category by category in the preferences
// dialog.
func (s *Server) apiConsent(c echo.Context) error {
	var req consentRequest
	if err := c.Bind(&req); err != nil || req.Analytics == nil || req.Marketing == nil {
		return echo.ErrBadRequest
	}
	choice := consent.State{Decided: true, Analytics: *req.Analytics, Marketing: *req.Marketing}
	c.SetCookie(choice.Cookie(s.Config.SecureCookies()))
	return s.APIOK(c, httpx.ConsentView(choice))
}

// consentRequest is the body of POST /api/consent.
type consentRequest struct {
	Analytics *bool `json:"analytics"`
	Marketing *bool `json:"marketing"`
}
