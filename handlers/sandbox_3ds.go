package handlers

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/views"
)

// sandbox3DS serves GET /pay/sandbox/3ds/{attemptId}: the sandbox's stand-in
// for a bank's 3-D Secure page.
func (s *Server) sandbox3DS(c echo.Context) error {
	if _, err := s.sandbox(); err != nil {
		return err
	}
	a, _, err := s.ownedAttempt(c, c.Param("attemptId"))
	if err != nil {
		return notFound()
	}
	return s.render(c, http.StatusOK, views.ThreeDS(views.ThreeDSPage{
		Action: state(c).LocalPath("/pay/sandbox/3ds/" + a.ID), Total: mustFormat(a.Amount, a.Currency),
	}))
}

// sandbox3DSPost takes the 3-D Secure answer and goes to the status check.
func (s *Server) sandbox3DSPost(c echo.Context) error {
	sb, err := s.sandbox()
	if err != nil {
		return err
	}
	a, o, err := s.ownedAttempt(c, c.Param("attemptId"))
	if err != nil {
		return notFound()
	}
	_, err = sb.Complete3DS(c.Request().Context(), a.ProviderRef.String, c.FormValue("action") == "complete")
	if err != nil && !errors.Is(err, payment.ErrNotPayable) {
		s.Logger.ErrorContext(c.Request().Context(), "sandbox: 3-D Secure outcome not applied yet", "attempt", a.ID, "err", err)
	}
	st := state(c)
	next := st.LocalPath("/paying/check/"+st.Home.String()) + "?r=" + url.QueryEscape(o.ResultID)
	if o.Kind == store.OrderPack {
		// A pack goes back to its own step of the upsell.
		sku, err := s.Store.SKUByID(c.Request().Context(), o.SKUID.String)
		if err != nil {
			return err
		}
		next = st.LocalPath("/paying/package/"+st.Home.String()) + "?r=" + url.QueryEscape(o.ResultID) +
			"&step=" + url.QueryEscape(sku.Step.String) + "&after=pay"
	}
	return c.Redirect(http.StatusSeeOther, next)
}
