package api

import (
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/checkout"
)

// apiOrder is one of the user's orders in the JSON calls.
type apiOrder struct {
	OrderNumber string `json:"orderNumber"`
	Kind        string `json:"kind"`
	Status      string `json:"status"`
	SKU         string `json:"skuId"`
	Currency    string `json:"currency"`
	Total       int64  `json:"total"`
	ResultID    string `json:"resultId"`
	// ReportOpen says the report of the order's result opens: paid for, or
	// unlocked by the member's plan (then the status stays unpaid).
	ReportOpen bool      `json:"reportOpen"`
	CreatedAt  time.Time `json:"createdAt"`
}

func toAPIOrder(o checkout.UserOrder) apiOrder {
	return apiOrder{OrderNumber: o.OrderNumber, Kind: o.Kind, Status: string(o.Status), SKU: o.SKUID.String, Currency: o.Currency.String,
		Total: o.Total, ResultID: o.ResultID, ReportOpen: o.ReportOpen, CreatedAt: o.CreatedAt.UTC()}
}

// apiUserOrderList is GET /api/user/order/list: the signed-in user's own
// orders, newest first, the member's plan applied to their reports first
// (Premium opens them).
func (s *Server) apiUserOrderList(c echo.Context) error {
	if _, err := s.membership(c); err != nil {
		return err
	}
	orders, err := s.Checkout.UserOrders(c.Request().Context(), httpx.User(c).ID)
	if err != nil {
		return err
	}
	out := make([]apiOrder, len(orders))
	for i, o := range orders {
		out[i] = toAPIOrder(o)
	}
	return s.APIOK(c, map[string]any{"list": out, "totalCount": len(out)})
}

// apiUserOrderLatest is GET /api/user/order/laster (the spec's spelling):
// the user's newest order, null when there is none.
func (s *Server) apiUserOrderLatest(c echo.Context) error {
	if _, err := s.membership(c); err != nil {
		return err
	}
	orders, err := s.Checkout.UserOrders(c.Request().Context(), httpx.User(c).ID)
	if err != nil {
		return err
	}
	if len(orders) == 0 {
		return s.APIOK(c, nil)
	}
	return s.APIOK(c, toAPIOrder(orders[0]))
}
