package api

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/checkout"
	"selfmap/internal/payment"
)

// payCreate serves POST /pay/pay/order/create: price the order on the
// server and start a payment. Any amount in the request is ignored.
func (s *Server) payCreate(c echo.Context) error {
	in, err := bindCreate(c)
	if err != nil {
		return err
	}
	created, err := s.Checkout.Create(c.Request().Context(), in, s.Owns(c))
	if err != nil {
		return err
	}
	return s.APIOK(c, createdView(created))
}

// bindCreate reads what the card island sends to start a payment. Any
// amount or currency in it is not read at all.
func bindCreate(c echo.Context) (checkout.CreateInput, error) {
	var req struct {
		OrderNumber string `json:"orderNumber"`
		SKUID       string `json:"skuId"`
		Email       string `json:"email"`
		PromoCode   string `json:"promoCode"`
	}
	if err := c.Bind(&req); err != nil {
		return checkout.CreateInput{}, httpx.APIInvalid("body")
	}
	return checkout.CreateInput{OrderNumber: req.OrderNumber, SKUID: req.SKUID, Email: req.Email, PromoCode: req.PromoCode}, nil
}

// sandboxConfirm serves POST /pay/sandbox/confirm: the sandbox's card form.
// The card is checked as the island checks it, decides the outcome, and is
// dropped; only its brand and last four digits are kept.
func (s *Server) sandboxConfirm(c echo.Context) error {
	if err := s.Sandbox(); err != nil {
		return err
	}
	var req struct {
		AttemptID string `json:"attemptId"`
		payment.CardInput
	}
	if err := c.Bind(&req); err != nil {
		return httpx.APIInvalid("body")
	}
	out, err := s.Checkout.ConfirmSandbox(c.Request().Context(), checkout.SandboxCard{AttemptID: req.AttemptID, Card: req.CardInput}, s.Owns(c))
	if err != nil {
		return err
	}
	resp := map[string]any{"status": out.Status}
	if out.Status == "requires_action" {
		resp["redirect"] = httpx.State(c).LocalPath("/pay/sandbox/3ds/" + req.AttemptID)
	}
	if out.Status == "declined" {
		resp["message"] = httpx.Tr(c).T("checkout.declined")
	}
	return s.APIOK(c, resp)
}

// postedOrder reads {"orderNumber": ...} and finds that order of this
// browser's.
func (s *Server) postedOrder(c echo.Context) (checkout.Order, error) {
	number, err := postedOrderNumber(c)
	if err != nil {
		return checkout.Order{}, err
	}
	return s.Checkout.Order(c.Request().Context(), number, s.Owns(c))
}

// postedOrderNumber reads {"orderNumber": ...}.
func postedOrderNumber(c echo.Context) (string, error) {
	var req struct {
		OrderNumber string `json:"orderNumber"`
	}
	if err := c.Bind(&req); err != nil {
		return "", httpx.APIInvalid("body")
	}
	return req.OrderNumber, nil
}

// payStatus serves POST /pay/pay/check/status: an order's status.
func (s *Server) payStatus(c echo.Context) error {
	o, err := s.postedOrder(c)
	if err != nil {
		return err
	}
	return s.APIOK(c, map[string]string{"orderNumber": o.OrderNumber, "status": string(o.Status)})
}

// payInfo serves POST /pay/pay/check/payInfo: the latest payment attempt of
// an order, without anything of the card but its brand and last digits.
func (s *Server) payInfo(c echo.Context) error {
	number, err := postedOrderNumber(c)
	if err != nil {
		return err
	}
	p, err := s.Checkout.LatestPayment(c.Request().Context(), number, s.Owns(c))
	if err != nil {
		return err
	}
	o, a := p.Order, p.Attempt
	if a == nil {
		return s.APIOK(c, map[string]any{"orderNumber": o.OrderNumber, "status": o.Status, "attempt": nil})
	}
	return s.APIOK(c, map[string]any{"orderNumber": o.OrderNumber, "status": o.Status, "attempt": map[string]any{
		"id": a.ID, "provider": a.Provider, "status": a.Status, "amount": a.Amount, "currency": a.Currency,
		"cardBrand": a.CardBrand.String, "cardLast4": a.CardLast4.String, "failureCode": a.FailureCode.String,
	}})
}

// apiOrderSKUCheck serves GET /api/exam/order/sku/check/{orderNumber}:
// whether the order's product is paid for.
func (s *Server) apiOrderSKUCheck(c echo.Context) error {
	o, err := s.Checkout.Order(c.Request().Context(), c.Param("orderNumber"), s.Owns(c))
	if err != nil {
		return err
	}
	return s.APIOK(c, map[string]any{"orderNumber": o.OrderNumber, "skuId": o.SKUID.String, "paid": o.Paid()})
}

// apiOrderInfo serves GET /api/exam/order/info/{orderNumber}.
func (s *Server) apiOrderInfo(c echo.Context) error {
	o, err := s.Checkout.Order(c.Request().Context(), c.Param("orderNumber"), s.Owns(c))
	if err != nil {
		return err
	}
	return s.APIOK(c, map[string]any{
		"orderNumber": o.OrderNumber, "status": o.Status, "skuId": o.SKUID.String, "currency": o.Currency.String,
		"subtotal": o.Subtotal, "discount": o.Discount, "tax": o.Tax, "total": o.Total, "email": o.Email.String,
	})
}

// createdView is the answer to a call that starts a payment.
func createdView(created checkout.Created) map[string]any {
	return map[string]any{"orderNumber": created.OrderNumber, "attemptId": created.AttemptID, "provider": created.Provider,
		"clientSecret": created.ClientSecret, "total": created.Total, "currency": created.Currency}
}
