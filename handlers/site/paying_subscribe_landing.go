package site

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/i18n"
	"selfmap/internal/payment"
	"selfmap/internal/subscription"
	"selfmap/internal/validate"
	"selfmap/views"
)

// subscribeForm is the subscription form as posted, kept to show it again
// (never the card number or code).
type subscribeForm struct {
	PlanID, Promo string
	Agreed        bool
	Name, Postal  string
	Expiry        string
	// CVCDigits is how long the typed card's security code should be,
	// for the message that says so (the number itself is not kept).
	CVCDigits int
}

// payingSubscribe serves /paying/premiumSubscriptions/{p}: why subscribe,
// and the form. ?plan= picks the plan and ?promo= prices a promo code.
func (s *Server) payingSubscribe(c echo.Context) error {
	in := subscribeForm{PlanID: c.QueryParam("plan"), Promo: subscription.NormalizePromo(c.QueryParam("promo"))}
	return s.renderSubscribe(c, http.StatusOK, in, nil)
}

// payingSubscribePost starts the subscription from the form: the card is
// saved with the provider, then the trial or the first period is charged.
// Success (and a second submit, which finds the subscription the first
// made) goes to the check screen; a refusal shows the form again with what
// was typed (never the card number or code) and a message per field.
func (s *Server) payingSubscribePost(c echo.Context) error {
	if s.Subscriptions == nil {
		return httpx.ErrSubscribeUnavailable
	}
	form := subscribeForm{PlanID: c.FormValue("plan"), Promo: subscription.NormalizePromo(c.FormValue("promo")),
		Agreed: c.FormValue("agree") != "", Name: c.FormValue("name"), Postal: c.FormValue("postal"), Expiry: c.FormValue("expiry"),
		CVCDigits: payment.CVCLength(c.FormValue("number"))}
	in := subscription.SubscribeInput{Visitor: s.Visitor(c), PlanID: form.PlanID, Mode: c.FormValue("mode"), Promo: form.Promo,
		Agreed: form.Agreed, Card: subscription.CardInput{Number: c.FormValue("number"), Expiry: form.Expiry, CVC: c.FormValue("cvc"),
			Name: form.Name, Postal: form.Postal, PaymentMethod: c.FormValue("payment_method")}}
	sub, errs, err := s.Subscriptions.Subscribe(c.Request().Context(), in)
	if err != nil {
		return err
	}
	if errs.Any() && sub.ID == "" {
		return s.renderSubscribe(c, http.StatusUnprocessableEntity, form, errs)
	}
	if errs.Any() {
		// Declined: the form again, with the bank's reason.
		return s.renderSubscribe(c, http.StatusPaymentRequired, form, errs)
	}
	return c.Redirect(http.StatusSeeOther, httpx.SubscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}}))
}

// renderSubscribe renders the landing with the form as in holds it.
func (s *Server) renderSubscribe(c echo.Context, status int, in subscribeForm, errs validate.FieldErrors) error {
	css, subCSS := s.subscribeCSS()
	page := views.SubscribeLanding{CSS: css, SubCSS: subCSS, Unavailable: s.Subscriptions == nil}
	if page.Unavailable {
		return s.Render(c, status, views.SubscribeLandingPage(page))
	}
	l, err := s.Subscriptions.Landing(c.Request().Context(), subscription.LandingInput{Visitor: s.Visitor(c), PlanID: in.PlanID, Promo: in.Promo})
	if err != nil {
		return err
	}
	s.landingContent(c, &page)
	page.Countdown = countdown(httpx.Tr(c), l.ReportOffer)
	if l.Live != nil {
		page.CurrentHref = httpx.SubscribePath(c, "/paying/subscribe/check", url.Values{"s": {l.Live.ID}})
	}
	page.Form = s.subscribeFormView(c, in, l, errs)
	if page.Form.Stripe {
		httpx.AllowStripe(c)
		page.Props = subscribeProps{PublishableKey: s.Config.StripePublishableKey, StripeLocale: stripeLocale(httpx.State(c).Locale.Tag),
			Amount: payment.StripeAmount(l.Quote.Amount, l.Quote.Currency), Currency: strings.ToLower(l.Quote.Currency),
			Email: httpx.User(c).Email, Messages: httpx.Tr(c).Messages("subscribe.card.")}
	}
	return s.Render(c, status, views.SubscribeLandingPage(page))
}

// landingContent words what the landing says whoever looks: the tiers
// compared, premium's benefits, the learning, the FAQ and the reviews.
func (s *Server) landingContent(c echo.Context, page *views.SubscribeLanding) {
	t := httpx.Tr(c)
	// Only what ships is sold: the comparison and Premium's list leave out
	// the benefits later issues will build (subscription.Offered).
	for _, b := range subscription.Offered(subscription.TierPremium) {
		page.Compare = append(page.Compare, views.CompareRow{Label: t.T("usercenter.benefit." + b.Key),
			Free: subscription.TierGuest.Includes(b.Tier), Basic: subscription.TierBasic.Includes(b.Tier), Premium: true})
		if b.Tier == subscription.TierPremium {
			page.Benefits = append(page.Benefits, t.T("usercenter.benefit."+b.Key))
		}
	}
	for _, k := range []string{"trial", "charge", "cancel", "upgrade", "promo", "card"} {
		page.FAQ = append(page.FAQ, [2]string{t.T("subscribe.faq." + k + ".q"), t.T("subscribe.faq." + k + ".a")})
	}
	if s.Social != nil {
		for _, r := range s.Social.Reviews(c.Request().Context(), httpx.State(c).Locale.Tag) {
			page.Testimonials = append(page.Testimonials, views.Testimonial{Name: r.Name, Type: r.TypeCode, Text: r.Content})
		}
	}
}

// countdown words the report offer's countdown; nil when there is none.
func countdown(t *i18n.Translator, o *subscription.ReportOffer) *views.Countdown {
	if o == nil {
		return nil
	}
	cd := &views.Countdown{Type: o.ResultCode, Deadline: o.Deadline.UTC().Format("2006-01-02 15:04 UTC"),
		DateTime: o.Deadline.UTC().Format(time.RFC3339), Closed: o.Closed}
	if o.Left > 0 {
		cd.Remaining = t.TD("subscribe.countdown.left", map[string]any{"Hours": int(o.Left.Hours()), "Minutes": int(o.Left.Minutes()) % 60})
	}
	return cd
}

// subscribeFormView is the form as the landing shows it: the plans, what
// was typed, the first charge and the messages of refused fields (the
// landing's own finding on the promo code wins).
func (s *Server) subscribeFormView(c echo.Context, in subscribeForm, l subscription.Landing, errs validate.FieldErrors) views.SubscribeForm {
	t := httpx.Tr(c)
	if errs == nil {
		errs = validate.FieldErrors{}
	}
	if l.PromoError != "" {
		errs["promo"] = l.PromoError
	}
	// The form's answer opens at the form (a refusal is read where it is).
	f := views.SubscribeForm{Action: httpx.SubscribePath(c, "/paying/premiumSubscriptions", nil) + "#subscribe",
		PromoHref: httpx.SubscribePath(c, "/paying/premiumSubscriptions", nil), PlanID: l.Chosen.ID,
		Plans: planCards(c, l.Plans, l.Chosen.ID, in.Promo, l.TrialsOffered), Promo: l.Promo, Agreed: in.Agreed, Name: in.Name,
		Postal: in.Postal, Expiry: in.Expiry, Errors: errs, CVCDigits: in.CVCDigits, AskPostal: l.AskPostal, Stripe: l.Stripe,
		TermsHref: httpx.State(c).LocalPath(httpx.LegalPath("subscription-terms", httpx.Pair(c).String())), Trial: l.Trial, TrialUsed: l.TrialUsed}
	f.First = httpx.MustFormat(l.Quote.Amount, l.Quote.Currency)
	f.FirstLabel = t.T("subscribe.form.first_paynow")
	if l.Quote.Trial {
		f.FirstLabel = t.T("subscribe.form.first_trial")
	}
	f.PayNowLabel = payNowLabel(t, l)
	if l.Quote.Discount > 0 {
		f.Discount = httpx.MustFormat(l.Quote.Discount, l.Quote.Currency)
		f.PromoNote = t.TD("subscribe.promo.applied", map[string]any{"Code": l.Quote.Promo})
	}
	return f
}

// payNowLabel words the pay-now button with what it charges: beside the
// trial, it says that it skips it and what the first payment covers.
func payNowLabel(t *i18n.Translator, l subscription.Landing) string {
	price := httpx.MustFormat(l.PayNow.Amount, l.PayNow.Currency)
	if !l.Trial {
		return t.TD("subscribe.pay_now_amount", map[string]any{"Price": price})
	}
	return t.TN("subscribe.skip_trial."+l.Chosen.TimeUnit, l.Chosen.Period, map[string]any{"Price": price})
}
