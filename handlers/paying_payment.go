package handlers

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/internal/apperr"
	"selfmap/internal/billing"
	"selfmap/internal/store"
	"selfmap/views"
)

// checkoutProps is what the checkout island reads (docs/payments.md).
type checkoutProps struct {
	OrderNumber  string            `json:"orderNumber"`
	SKUID        string            `json:"skuId"`
	Email        string            `json:"email"`
	PromoCode    string            `json:"promoCode"`
	TotalDisplay string            `json:"totalDisplay"`
	Provider     string            `json:"provider"`
	CSRF         string            `json:"csrf"`
	CreateURL    string            `json:"createUrl"`
	ConfirmURL   string            `json:"confirmUrl"`
	CheckURL     string            `json:"checkUrl"`
	FailedURL    string            `json:"failedUrl"`
	Messages     map[string]string `json:"messages"`
}

// payingPayment serves /paying/payment/{p} and /paying/paypage/{p}: the
// order as the server prices it (a promo code is tried with ?promo=) and
// the card form.
func (s *Server) payingPayment(c echo.Context) error {
	r, o, sku, err := s.unpaidReport(c)
	if err != nil {
		return flowError(c, err)
	}
	ctx := c.Request().Context()
	promoCode := strings.ToUpper(strings.TrimSpace(c.QueryParam("promo")))
	promoErr := ""
	var promo *store.Promo
	if promoCode != "" {
		p, err := s.Store.GetPromo(ctx, promoCode)
		switch {
		case errors.Is(err, store.ErrNotFound):
			promoErr = "pay.promo.unknown"
		case err != nil:
			return err
		default:
			promo = &p
		}
	}
	q, err := billing.Price(sku, promo, s.Checkout.Now())
	var ae *apperr.Error
	if errors.As(err, &ae) {
		promoErr, promo = ae.ID, nil
		q, err = billing.Price(sku, nil, s.Checkout.Now())
	}
	if err != nil {
		return err
	}
	// The field keeps what was typed, so a typo can be fixed; only a code
	// that applies goes to the island.
	applied := promoCode
	if promoErr != "" {
		applied = ""
	}
	st := state(c)
	total := mustFormat(q.Total, q.Currency)
	page := views.PaymentPage{
		OrderNumber: o.OrderNumber, Product: tr(c).T("sku." + sku.SKU.ID + ".name"),
		Subtotal: mustFormat(q.Subtotal, q.Currency), Total: total, Promo: promoCode, PromoError: promoErr,
		PromoAction: st.LocalPath(c.Request().URL.Path), ResultID: r.ID, Email: r.Email.String, TotalDisplay: total,
		Stripe: s.Checkout.Provider.Name() == "stripe", FailedHref: flowURL(c, "/paying/failed", r.ID),
		Props: checkoutProps{
			OrderNumber: o.OrderNumber, SKUID: sku.SKU.ID, Email: r.Email.String, PromoCode: applied, TotalDisplay: total,
			Provider: s.Checkout.Provider.Name(), CSRF: st.CSRF,
			CreateURL: "/pay/pay/order/create?hl=" + st.Locale.Spec, ConfirmURL: "/pay/sandbox/confirm?hl=" + st.Locale.Spec,
			CheckURL: flowURL(c, "/paying/check", r.ID), FailedURL: flowURL(c, "/paying/failed", r.ID),
			Messages: tr(c).Messages("checkout."),
		},
		CSS: s.Assets.URL("static/css/checkout.css"),
	}
	if q.Discount > 0 {
		page.Discount = mustFormat(q.Discount, q.Currency)
	}
	return s.render(c, http.StatusOK, views.Payment(page))
}
