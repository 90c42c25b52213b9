package handlers

import (
	"errors"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/apperr"
	"selfmap/internal/checkout"
	"selfmap/internal/geo"
	"selfmap/internal/payment"
	"selfmap/internal/store"
)

// payCreate serves POST /pay/pay/order/create: price the order on the
// server and start a payment. Any amount in the request is ignored.
func (s *Server) payCreate(c echo.Context) error {
	in, err := bindCreate(c)
	if err != nil {
		return err
	}
	created, err := s.Checkout.Create(c.Request().Context(), in, s.owns(c))
	if err != nil {
		return err
	}
	return s.apiOK(c, createdView(created))
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
		return checkout.CreateInput{}, apiInvalid("body")
	}
	return checkout.CreateInput{OrderNumber: req.OrderNumber, SKUID: req.SKUID, Email: req.Email, PromoCode: req.PromoCode}, nil
}

// sandbox returns the sandbox provider, or a 404 when another is set up.
func (s *Server) sandbox() (*payment.Sandbox, error) {
	sb, ok := s.Checkout.Provider.(*payment.Sandbox)
	if !ok {
		return nil, echo.ErrNotFound
	}
	return sb, nil
}

// ownedAttempt finds a payment attempt of this browser's.
func (s *Server) ownedAttempt(c echo.Context, id string) (store.Attempt, store.Order, error) {
	ctx := c.Request().Context()
	a, err := s.Store.GetAttempt(ctx, s.Store.DB, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Attempt{}, store.Order{}, checkout.ErrNotFound
	}
	if err != nil {
		return store.Attempt{}, store.Order{}, err
	}
	o, err := s.Store.GetOrder(ctx, s.Store.DB, a.OrderID)
	if err != nil {
		return store.Attempt{}, store.Order{}, err
	}
	if !s.owns(c)(o.ResultID) {
		return store.Attempt{}, store.Order{}, checkout.ErrNotFound
	}
	return a, o, nil
}

// sandboxConfirm serves POST /pay/sandbox/confirm: the sandbox's card form.
// The card is checked as the island checks it, decides the outcome, and is
// dropped; only its brand and last four digits are kept.
func (s *Server) sandboxConfirm(c echo.Context) error {
	sb, err := s.sandbox()
	if err != nil {
		return err
	}
	var req struct {
		AttemptID string `json:"attemptId"`
		payment.CardInput
	}
	if err := c.Bind(&req); err != nil {
		return apiInvalid("body")
	}
	a, o, err := s.ownedAttempt(c, req.AttemptID)
	if err != nil {
		return err
	}
	req.CardInput.NoPostalCode = !geo.UsesPostalCode(o.Country.String)
	number, errs := req.CardInput.Check(s.Checkout.Now())
	digits := payment.CVCLength(number)
	for _, field := range []string{"number", "expiry", "cvc", "name", "postalCode"} {
		if id := errs[field]; id != "" {
			return &apperr.Error{Status: 400, ID: id, Data: map[string]any{"Field": field, "Digits": digits}}
		}
	}
	ctx := c.Request().Context()
	if a.Status == store.AttemptSucceeded {
		// A retry after a lost answer: this attempt already paid.
		return s.apiOK(c, map[string]any{"status": "succeeded"})
	}
	if a.Status != store.AttemptStarted {
		return apperr.BadRequest("pay.not_payable", nil)
	}
	// A promo price is paid only while the payment holds the code's use and
	// the code is valid; otherwise the payment is closed before any card
	// is charged, and the buyer starts again.
	if err := s.Checkout.Payable(ctx, a); err != nil {
		return err
	}
	out, err := sb.Confirm(ctx, a.ProviderRef.String, payment.Card{Number: number})
	if errors.Is(err, payment.ErrNotPayable) {
		return apperr.BadRequest("pay.not_payable", nil)
	}
	if err != nil && out.Status == "" {
		return err
	}
	if cerr := s.Store.SetAttemptCard(ctx, a.ID, payment.Brand(number), number[len(number)-4:], s.Checkout.Now()); cerr != nil {
		return cerr
	}
	if err != nil {
		// The outcome stands in the sandbox's books; the reconciler will
		// apply it. The buyer goes on to the status page.
		s.Logger.ErrorContext(ctx, "sandbox: outcome not applied yet", "attempt", a.ID, "err", err)
	}
	resp := map[string]any{"status": out.Status}
	if out.Status == "requires_action" {
		resp["redirect"] = state(c).LocalPath("/pay/sandbox/3ds/" + a.ID)
	}
	if out.Status == "declined" {
		resp["message"] = tr(c).T("checkout.declined")
	}
	return s.apiOK(c, resp)
}

// postedOrder reads {"orderNumber": ...} and finds that order of this
// browser's.
func (s *Server) postedOrder(c echo.Context) (store.Order, error) {
	var req struct {
		OrderNumber string `json:"orderNumber"`
	}
	if err := c.Bind(&req); err != nil {
		return store.Order{}, apiInvalid("body")
	}
	return s.Checkout.Order(c.Request().Context(), req.OrderNumber, s.owns(c))
}

// payStatus serves POST /pay/pay/check/status: an order's status.
func (s *Server) payStatus(c echo.Context) error {
	o, err := s.postedOrder(c)
	if err != nil {
		return err
	}
	return s.apiOK(c, map[string]string{"orderNumber": o.OrderNumber, "status": o.Status})
}

// payInfo serves POST /pay/pay/check/payInfo: the latest payment attempt of
// an order, without anything of the card but its brand and last digits.
func (s *Server) payInfo(c echo.Context) error {
	o, err := s.postedOrder(c)
	if err != nil {
		return err
	}
	a, err := s.Store.LatestAttempt(c.Request().Context(), s.Store.DB, o.ID)
	if errors.Is(err, store.ErrNotFound) {
		return s.apiOK(c, map[string]any{"orderNumber": o.OrderNumber, "status": o.Status, "attempt": nil})
	}
	if err != nil {
		return err
	}
	return s.apiOK(c, map[string]any{"orderNumber": o.OrderNumber, "status": o.Status, "attempt": map[string]any{
		"id": a.ID, "provider": a.Provider, "status": a.Status, "amount": a.Amount, "currency": a.Currency,
		"cardBrand": a.CardBrand.String, "cardLast4": a.CardLast4.String, "failureCode": a.FailureCode.String,
	}})
}

// apiOrderSKUCheck serves GET /api/exam/order/sku/check/{orderNumber}:
// whether the order's product is paid for.
func (s *Server) apiOrderSKUCheck(c echo.Context) error {
	o, err := s.Checkout.Order(c.Request().Context(), c.Param("orderNumber"), s.owns(c))
	if err != nil {
		return err
	}
	return s.apiOK(c, map[string]any{"orderNumber": o.OrderNumber, "skuId": o.SKUID.String, "paid": o.Status == "paid"})
}

// apiOrderInfo serves GET /api/exam/order/info/{orderNumber}.
func (s *Server) apiOrderInfo(c echo.Context) error {
	o, err := s.Checkout.Order(c.Request().Context(), c.Param("orderNumber"), s.owns(c))
	if err != nil {
		return err
	}
	return s.apiOK(c, map[string]any{
		"orderNumber": o.OrderNumber, "status": o.Status, "skuId": o.SKUID.String, "currency": o.Currency.String,
		"subtotal": o.Subtotal, "discount": o.Discount, "tax": o.Tax, "total": o.Total, "email": o.Email.String,
	})
}

// maxWebhookBytes bounds a webhook delivery.
const maxWebhookBytes = 64 << 10

// webhook serves POST /pay/webhook/{provider}: the one door through which
// payment outcomes arrive. It is authenticated by the provider's signature,
// not by a session, so it is exempt from CSRF.
func (s *Server) webhook(c echo.Context) error {
	if c.Param("provider") != s.Checkout.Provider.Name() {
		return echo.ErrNotFound
	}
	payload, err := io.ReadAll(io.LimitReader(c.Request().Body, maxWebhookBytes+1))
	if err != nil || len(payload) > maxWebhookBytes {
		return echo.ErrStatusRequestEntityTooLarge
	}
	// A subscription's event (Stripe Billing) goes to the subscription
	// service; everything else (an order's payment, an event it does not
	// take, a delivery it could not verify) to checkout as before, which
	// verifies it again and answers it.
	handled := false
	if s.Subscriptions != nil {
		handled, err = s.Subscriptions.Receive(c.Request().Context(), payload, c.Request().Header)
	}
	if !handled {
		err = s.Checkout.Receive(c.Request().Context(), payload, c.Request().Header)
	}
	if errors.Is(err, payment.ErrBadSignature) {
		s.Logger.WarnContext(c.Request().Context(), "webhook: refused delivery", "err", err)
		return c.JSON(http.StatusBadRequest, map[string]string{"error": "bad signature"})
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"received": true})
}
