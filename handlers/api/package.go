package api

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
)

// payPackage serves POST /pay/pay/order/payPackage: start paying for a pack.
// orderNumber is the paid report's order; the pack gets an order of its own,
// whose number the answer carries. Any amount in the request is ignored.
func (s *Server) payPackage(c echo.Context) error {
	in, err := bindCreate(c)
	if err != nil {
		return err
	}
	created, err := s.Checkout.CreatePack(c.Request().Context(), in, s.Owns(c))
	if err != nil {
		return err
	}
	return s.APIOK(c, createdView(created))
}

// apiExtraPackageList serves GET /api/exam/extra/package/list/{orderNumber}:
// the packs offered with a paid report order, priced for the buyer, and
// whether each is bought.
func (s *Server) apiExtraPackageList(c echo.Context) error {
	list, err := s.Checkout.PackList(c.Request().Context(), c.Param("orderNumber"), s.Owns(c))
	if err != nil {
		return err
	}
	type item struct {
		apiSKU
		Purchased   bool   `json:"purchased"`
		OrderNumber string `json:"orderNumber,omitempty"`
		Status      string `json:"status,omitempty"`
	}
	out := []item{}
	for _, offer := range list.Offers {
		it := item{apiSKU: skuView(httpx.Tr(c), offer.SKU), Purchased: offer.Owned()}
		if offer.Order != nil {
			it.OrderNumber, it.Status = offer.Order.OrderNumber, string(offer.Order.Status)
		}
		out = append(out, it)
	}
	return s.APIOK(c, map[string]any{"orderNumber": list.Order.OrderNumber, "reportPaid": list.Order.Paid(), "packages": out})
}
