package site

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/checkout"
	"selfmap/views"
)

// sandbox3DS serves GET /pay/sandbox/3ds/{attemptId}: the sandbox's stand-in
// for a bank's 3-D Secure page.
func (s *Server) sandbox3DS(c echo.Context) error {
	if err := s.Sandbox(); err != nil {
		return err
	}
	a, _, err := s.Checkout.Attempt(c.Request().Context(), c.Param("attemptId"), s.Owns(c))
	if err != nil {
		return httpx.NotFound()
	}
	return s.Render(c, http.StatusOK, views.ThreeDS(views.ThreeDSPage{
		Action: httpx.State(c).LocalPath("/pay/sandbox/3ds/" + a.ID), Total: httpx.MustFormat(a.Amount, a.Currency),
	}))
}

// sandbox3DSPost takes the 3-D Secure answer and goes to the status check,
// or for a pack, back to its own step of the upsell.
func (s *Server) sandbox3DSPost(c echo.Context) error {
	if err := s.Sandbox(); err != nil {
		return err
	}
	back, err := s.Checkout.CompleteSandbox3DS(c.Request().Context(), c.Param("attemptId"), c.FormValue("action") == "complete", s.Owns(c))
	if errors.Is(err, checkout.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	st := httpx.State(c)
	next := st.LocalPath("/paying/check/"+st.Home.String()) + "?r=" + url.QueryEscape(back.ResultID)
	if back.Pack {
		next = st.LocalPath("/paying/package/"+st.Home.String()) + "?r=" + url.QueryEscape(back.ResultID) +
			"&step=" + url.QueryEscape(back.PackStep) + "&after=pay"
	}
	return c.Redirect(http.StatusSeeOther, next)
}
