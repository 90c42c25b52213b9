package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/billing"
	"selfmap/internal/tracking"
	"selfmap/views"
)

// payingCheck serves /paying/check/{p}: while the payment is pending it asks
// the visitor to wait and looks again every 2 seconds (a meta refresh: no
// script needed); then it moves on to success or failure.
func (s *Server) payingCheck(c echo.Context) error {
	r, o, err := s.payFlow(c)
	if err != nil {
		return s.payError(c, err)
	}
	switch billing.Status(o.Status) {
	case billing.Paid:
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/success", r.ID))
	case billing.Failed, billing.Expired, billing.Created:
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/failed", r.ID))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.render(c, http.StatusOK, views.PayStatus(views.StatusPage{Kind: "check", Refresh: 2, Next: flowURL(c, "/paying/check", r.ID)}))
}

// payingSuccess serves /paying/success/{p}: the report opens after a
// 3-second countdown.
func (s *Server) payingSuccess(c echo.Context) error {
	r, o, err := s.payFlow(c)
	if err != nil {
		return s.payError(c, err)
	}
	if billing.Status(o.Status) != billing.Paid {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/check", r.ID))
	}
	// The order number is the event's id: a reload reports it again, and
	// the networks drop the repeat.
	state(c).AdEvents = []tracking.Event{{Name: tracking.Purchase, Value: float64(o.Total) / 100, Currency: o.Currency.String, ID: o.OrderNumber}}
	return s.render(c, http.StatusOK, views.PayStatus(views.StatusPage{Kind: "success", Refresh: 3, Next: flowURL(c, "/report/result", r.ID)}))
}

// payingFailed serves /paying/failed/{p}: try again, or another method.
func (s *Server) payingFailed(c echo.Context) error {
	r, o, err := s.payFlow(c)
	if err != nil {
		return s.payError(c, err)
	}
	if billing.Status(o.Status) == billing.Paid {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/success", r.ID))
	}
	return s.render(c, http.StatusOK, views.PayStatus(views.StatusPage{Kind: "failed", RetryHref: flowURL(c, "/paying/payment", r.ID)}))
}
