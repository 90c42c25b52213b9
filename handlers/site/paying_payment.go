package site

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/geo"
	"selfmap/internal/payment"
	"selfmap/internal/tracking"
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
	// Postal asks for a postal code: false where the buyer's country has
	// none (geo.UsesPostalCode).
	Postal bool `json:"postal"`
	// With the stripe provider: the publishable key and the locale of
	// Stripe's Payment Element.
	PublishableKey string `json:"publishableKey,omitempty"`
	StripeLocale   string `json:"stripeLocale,omitempty"`
	StripeAmount   int64  `json:"stripeAmount,omitempty"`
	Currency       string `json:"currency,omitempty"`
}

// checkoutPayment is what a page selling one SKU passes to the checkout island.
type checkoutPayment struct {
	OrderNumber, SKUID, Email, PromoCode, Total string
	// Amount and Currency are the server's price, for Stripe's element.
	Amount   int64
	Currency string
	// Country is where the order is priced (order.PriceCountry).
	Country string
	// CreateURL starts the payment; CheckURL is where a paid or failed
	// attempt goes; FailedURL offers another method.
	CreateURL, CheckURL, FailedURL string
}

// checkoutProps makes the checkout island's props; with Stripe, the caller
// also lets the page load Stripe.js (allowStripe).
func (s *Server) checkoutProps(c echo.Context, p checkoutPayment) checkoutProps {
	st := httpx.State(c)
	props := checkoutProps{
		OrderNumber: p.OrderNumber, SKUID: p.SKUID, Email: p.Email, PromoCode: p.PromoCode, TotalDisplay: p.Total,
		Provider: s.Checkout.Provider.Name(), CSRF: st.CSRF,
		CreateURL: p.CreateURL + "?hl=" + st.Locale.Spec, ConfirmURL: "/pay/sandbox/confirm?hl=" + st.Locale.Spec,
		CheckURL: p.CheckURL, FailedURL: p.FailedURL, Messages: httpx.Tr(c).Messages("checkout."),
		Postal: geo.UsesPostalCode(p.Country),
	}
	if props.Provider == "stripe" {
		props.PublishableKey, props.StripeLocale = s.Config.StripePublishableKey, stripeLocale(st.Locale.Tag)
		props.StripeAmount, props.Currency = payment.StripeAmount(p.Amount, p.Currency), strings.ToLower(p.Currency)
	}
	return props
}

// stripeLocale is the Payment Element's name of one of our locales.
func stripeLocale(tag string) string {
	switch tag {
	case "zh-CN":
		return "zh"
	case "pt":
		return "pt-BR"
	}
	return tag
}

// payingPayment serves /paying/payment/{p} and /paying/paypage/{p}: the
// order as the server prices it (a promo code is tried with ?promo=) and
// the card form. The pay page needs the chosen method (?method=card).
func (s *Server) payingPayment(c echo.Context) error {
	id, err := s.flowID(c)
	if err != nil {
		return s.payError(c, err)
	}
	pay, err := s.Checkout.Payment(c.Request().Context(), id, c.QueryParam("promo"), s.Owns(c))
	if err != nil {
		return s.payError(c, err)
	}
	r := pay.Result
	if pay.Order.Paid() {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/success", r.ID))
	}
	if strings.HasPrefix(c.Path(), "/paying/paypage/") && c.QueryParam("method") != "card" {
		// The pay page is for a method chosen on the payment page; without
		// a known one, the visitor goes back to choose.
		return s.Render(c, http.StatusBadRequest, views.PayStatus(views.StatusPage{Kind: "method", RetryHref: flowURL(c, "/paying/payment", r.ID)}))
	}
	st, q := httpx.State(c), pay.Quote
	total := httpx.MustFormat(q.Total, q.Currency)
	page := views.PaymentPage{
		OrderNumber: pay.Order.OrderNumber, Product: httpx.Tr(c).T("sku." + q.SKUID + ".name"),
		Subtotal: httpx.MustFormat(q.Subtotal, q.Currency), Total: total, Promo: pay.Promo, PromoError: pay.PromoError,
		PromoAction: st.LocalPath(c.Request().URL.Path), ResultID: r.ID, Email: r.Email.String, TotalDisplay: total,
		Stripe: s.Checkout.Provider.Name() == "stripe", FailedHref: flowURL(c, "/paying/failed", r.ID),
		Postal: geo.UsesPostalCode(pay.Country()),
		Props: s.checkoutProps(c, checkoutPayment{
			OrderNumber: pay.Order.OrderNumber, SKUID: q.SKUID, Email: r.Email.String, PromoCode: pay.Applied(), Total: total,
			Amount: q.Total, Currency: q.Currency, Country: pay.Country(),
			CreateURL: "/pay/pay/order/create", CheckURL: flowURL(c, "/paying/check", r.ID), FailedURL: flowURL(c, "/paying/failed", r.ID),
		}),
		CSS: s.Assets.URL("static/css/checkout.css"),
	}
	if q.Discount > 0 {
		page.Discount = httpx.MustFormat(q.Discount, q.Currency)
	}
	if page.Stripe {
		httpx.AllowStripe(c)
	}
	st.AdEvents = []tracking.Event{{Name: tracking.InitiateCheckout, Value: float64(q.Total) / 100, Currency: q.Currency}}
	return s.Render(c, http.StatusOK, views.Payment(page))
}
