package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/checkout"
	"selfmap/internal/tracking"
	"selfmap/views"
)

// payFlow finds the result and report order a payment status screen is
// about.
func (s *Server) payFlow(c echo.Context) (checkout.Flow, error) {
	id, err := s.flowID(c)
	if err != nil {
		return checkout.Flow{}, err
	}
	return s.Checkout.Flow(c.Request().Context(), id, s.Owns(c))
}

// payingCheck serves /paying/check/{p}: while the payment is pending it asks
// the visitor to wait and looks again every 2 seconds (a meta refresh: no
// script needed); then it moves on to success or failure.
func (s *Server) payingCheck(c echo.Context) error {
	f, err := s.payFlow(c)
	if err != nil {
		return s.payError(c, err)
	}
	switch {
	case f.Order.Paid():
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/success", f.Result.ID))
	case f.Order.Unpaid():
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/failed", f.Result.ID))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, views.PayStatus(views.StatusPage{Kind: "check", Refresh: 2, Next: flowURL(c, "/paying/check", f.Result.ID)}))
}

// payingSuccess serves /paying/success/{p}: the report opens after a
// 3-second countdown.
func (s *Server) payingSuccess(c echo.Context) error {
	f, err := s.payFlow(c)
	if err != nil {
		return s.payError(c, err)
	}
	if !f.Order.Paid() {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/check", f.Result.ID))
	}
	// The order number is the event's id: a reload reports it again, and
	// the networks drop the repeat.
	o := f.Order
	httpx.State(c).AdEvents = []tracking.Event{{Name: tracking.Purchase, Value: float64(o.Total) / 100, Currency: o.Currency.String, ID: o.OrderNumber}}
	return s.Render(c, http.StatusOK, views.PayStatus(views.StatusPage{Kind: "success", Refresh: 3, Next: flowURL(c, "/report/result", f.Result.ID)}))
}

// payingFailed serves /paying/failed/{p}: try again, or another method.
func (s *Server) payingFailed(c echo.Context) error {
	f, err := s.payFlow(c)
	if err != nil {
		return s.payError(c, err)
	}
	if f.Order.Paid() {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/success", f.Result.ID))
	}
	return s.Render(c, http.StatusOK, views.PayStatus(views.StatusPage{Kind: "failed", RetryHref: flowURL(c, "/paying/payment", f.Result.ID)}))
}
