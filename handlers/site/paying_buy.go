package site

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/tracking"
	"selfmap/views"
)

// payingBuy serves /paying/buyreport/{p}: the full report, its price, and
// figures from the database. A paid order goes to its success screen, and
// a report the member's plan opens (Premium, a free report used) to the
// report.
func (s *Server) payingBuy(c echo.Context) error {
	id, err := s.flowID(c)
	if err != nil {
		return s.payError(c, err)
	}
	b, err := s.Checkout.Buy(c.Request().Context(), id, s.Owns(c), s.unlocked(c))
	if err != nil {
		return s.payError(c, err)
	}
	if b.Order.Paid() {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/success", b.Result.ID))
	}
	if b.Open {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/report/result", b.Result.ID))
	}
	httpx.State(c).AdEvents = []tracking.Event{{Name: tracking.ViewContent}}
	q := b.Quote
	p := views.BuyPage{Type: b.Result.ResultCode, Price: httpx.MustFormat(q.Total, q.Currency), UnlockedToday: b.UnlockedToday,
		TestsTotal: b.TestsTotal, Demo: b.Demo, PayHref: flowURL(c, "/paying/payment", b.Result.ID)}
	if q.List > 0 {
		p.ListPrice = httpx.MustFormat(q.List, q.Currency)
	}
	return s.Render(c, http.StatusOK, views.Buy(p))
}

// unlocked asks the report service whether a report is open to the
// request's reader without paying, their plan applied.
func (s *Server) unlocked(c echo.Context) func(ctx context.Context, resultID string) (bool, error) {
	member := s.MemberID(c)
	return func(ctx context.Context, resultID string) (bool, error) {
		return s.Reports.Unlocked(ctx, resultID, member)
	}
}
