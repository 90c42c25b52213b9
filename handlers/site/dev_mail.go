package site

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/tracking"
	"selfmap/views"
)

// devMail serves /dev/mail in development: the outbox, newest first, so a
// developer sees every e-mail the service would send, its text and its
// HTML (rendered in a sandboxed frame, and as escaped source). It does not
// exist outside dev.
func (s *Server) devMail(c echo.Context) error {
	if !s.Config.Dev() {
		return httpx.NotFound()
	}
	mails, err := s.Outbox.Recent(c.Request().Context(), 50)
	if err != nil {
		return err
	}
	page := views.DevMailPage{}
	for _, m := range mails {
		dm := views.DevMail{To: m.To, Subject: m.Subject, Body: m.Body, Kind: m.Kind, Status: string(m.Status), Attempts: m.Attempts,
			LastError: m.LastError.String, At: m.CreatedAt.UTC().Format("2006-01-02 15:04:05 UTC")}
		if m.HTMLBody.Valid && m.HTMLBody.String != "" {
			dm.HTML, dm.HTMLURL = m.HTMLBody.String, "/dev/mail/"+m.ID+"/html"
		}
		page.Mails = append(page.Mails, dm)
	}
	// The frames load the HTML parts from this origin.
	httpx.SetPolicy(c, tracking.Origins{Frame: []string{"'self'"}})
	c.Response().Header().Set("X-Frame-Options", "SAMEORIGIN")
	return s.Render(c, http.StatusOK, views.DevMailbox(page))
}

// devMailHTML serves one message's HTML part for the frame of /dev/mail.
// The HTML is treated as untrusted: the response is a CSP sandbox (no
// script, no same-origin access, no fetches but inline styles and images),
// framable only by this origin.
func (s *Server) devMailHTML(c echo.Context) error {
	if !s.Config.Dev() {
		return httpx.NotFound()
	}
	html, err := s.Outbox.HTML(c.Request().Context(), c.Param("id"))
	if errors.Is(err, apperr.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("Cache-Control", "no-store")
	return c.HTML(http.StatusOK, html)
}
