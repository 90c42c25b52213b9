package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/views"
)

// devMail serves /dev/mail in development: the outbox, newest first, so a
// developer sees every e-mail the service would send. It does not exist
// outside dev.
func (s *Server) devMail(c echo.Context) error {
	if !s.Config.Dev() {
		return notFound()
	}
	mails, err := s.Store.ListMail(c.Request().Context(), 50)
	if err != nil {
		return err
	}
	page := views.DevMailPage{}
	for _, m := range mails {
		page.Mails = append(page.Mails, views.DevMail{To: m.To, Subject: m.Subject, Body: m.Body, Kind: m.Kind, Status: m.Status,
			At: m.CreatedAt.UTC().Format("2006-01-02 15:04:05 UTC")})
	}
	return s.render(c, http.StatusOK, views.DevMailbox(page))
}
