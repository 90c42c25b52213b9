package handlers

import (
	"bytes"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// render writes a templ component as the response. It renders into a buffer
// first, so a failing component becomes a clean error page instead of half a
// page.
func (s *Server) render(c echo.Context, status int, page templ.Component) error {
	var buf bytes.Buffer
	if err := page.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// envelope is the JSON API's answer shape, kept from the spec: result is 200
// on success and the HTTP status otherwise.
type envelope struct {
	Result  int    `json:"result"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

// apiOK answers an API call with data.
func (s *Server) apiOK(c echo.Context, data any) error {
	return c.JSON(http.StatusOK, envelope{Result: http.StatusOK, Message: tr(c).T("api.success"), Data: data})
}
