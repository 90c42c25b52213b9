package site

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// billingCardProps feed the island that replaces a card with Stripe's card
// form: it asks SetupAction for a SetupIntent, confirms it with Stripe.js,
// then posts its id to FinishAction.
type billingCardProps struct {
	PublishableKey string            `json:"publishableKey"`
	StripeLocale   string            `json:"stripeLocale"`
	CSRF           string            `json:"csrf"`
	Subscription   string            `json:"subscription"`
	SetupAction    string            `json:"setupAction"`
	FinishAction   string            `json:"finishAction"`
	Messages       map[string]string `json:"messages"`
}

// cardForms puts the card replacement on the page: the sandbox's own card
// form, or Stripe's through the island.
func (s *Server) cardForms(c echo.Context, p *views.BillingPage, sub subscription.Subscription, st billingState) {
	if s.Subscriptions == nil {
		return
	}
	t, base := httpx.Tr(c), accountPath(c, "/userCenter/setting/billing/card")
	if s.Subscriptions.Provider.Name() == "stripe" {
		p.CardSetup = &views.BillingCardSetup{Props: billingCardProps{PublishableKey: s.Config.StripePublishableKey,
			StripeLocale: stripeLocale(httpx.State(c).Locale.Tag), CSRF: httpx.State(c).CSRF, Subscription: sub.ID,
			SetupAction: base + "/setup", FinishAction: base + "/stripe", Messages: t.Messages("billing.card.")}}
		return
	}
	var errs map[string]string
	if st.form == "card" {
		errs = st.errs
	}
	// A plan cancelled at its period's end takes no more payments: the card
	// is only kept for a resume.
	intro := t.T("billing.card.intro")
	if sub.CancelAtPeriodEnd {
		intro = t.T("billing.card.intro_ending")
	}
	p.CardForm = &views.AccountForm{Action: base, Submit: t.T("billing.card.submit"), TestID: "billing-card-form",
		Heading: t.T("billing.card.replace"), Text: intro, Errors: errs,
		Fields: []views.AccountField{
			{Name: "subscription", Type: "hidden", Value: sub.ID},
			{Name: "number", Label: t.T("billing.card.number"), Type: "text", Autocomplete: "cc-number", MaxLength: 23,
				Placeholder: "4242 4242 4242 4242", Value: st.values["number"]},
			{Name: "expiry", Label: t.T("billing.card.expiry"), Type: "text", Autocomplete: "cc-exp", MaxLength: 7, Placeholder: t.T("checkout.expiry_placeholder"),
				Value: st.values["expiry"]},
			{Name: "cvc", Label: t.T("billing.card.cvc"), Type: "text", Autocomplete: "cc-csc", MaxLength: 4, Placeholder: "123"},
		}}
}

// userBillingCard replaces the card of the member's subscription with one
// typed in the sandbox's form (POST /userCenter/setting/billing/card).
// Another member's subscription answers as a missing one.
func (s *Server) userBillingCard(c echo.Context) error {
	httpx.Sensitive(c)
	if s.Subscriptions == nil {
		return httpx.NotFound()
	}
	in := subscription.CardInput{Number: c.FormValue("number"), Expiry: c.FormValue("expiry"), CVC: c.FormValue("cvc")}
	_, errs, err := s.Subscriptions.ReplaceCard(c.Request().Context(), httpx.User(c).ID, c.FormValue("subscription"), in)
	if errors.Is(err, subscription.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	if errs.Any() {
		return s.renderBilling(c, http.StatusUnprocessableEntity, billingState{form: "card", errs: errs,
			values: map[string]string{"number": in.Number, "expiry": in.Expiry}})
	}
	return s.billingDone(c, "billing.card.done")
}

// billingDone says what an action did on the billing page it goes back to.
func (s *Server) billingDone(c echo.Context, msgID string) error {
	if err := s.Flash(c, httpx.Tr(c).T(msgID)); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/userCenter/setting/billing"))
}
