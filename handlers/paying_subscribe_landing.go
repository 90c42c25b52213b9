package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/internal/geo"
	"selfmap/internal/payment"

	"selfmap/internal/store"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// offerWindow is how long after a test its unpaid report is offered with
// the plan's trial: the landing counts down to the result's time plus this
// window, and at zero the trial is no longer offered for that report (pay
// now still is). Documented in docs/subscriptions.md.
const offerWindow = 24 * time.Hour

// reportOffer is the signed-in user's newest result when its report is
// unpaid, with the end of its trial offer; ok false when there is none.
func (s *Server) reportOffer(c echo.Context) (store.Result, time.Time, bool) {
	rs, err := s.Store.UserResults(c.Request().Context(), user(c).ID)
	if err != nil || len(rs) == 0 {
		return store.Result{}, time.Time{}, false
	}
	// A report whose payment cannot be read now is not offered a trial
	// deadline: the countdown is only shown when it is known to be unpaid.
	if paid, err := s.Results.Paid(c.Request().Context(), rs[0].ID); err != nil || paid {
		return store.Result{}, time.Time{}, false
	}
	return rs[0], rs[0].CreatedAt.Add(offerWindow), true
}

// subscribeProps is what the subscribe island reads with the stripe
// provider: Stripe's key and locale, and the first charge as the element
// shows it.
type subscribeProps struct {
	PublishableKey string `json:"publishableKey"`
	StripeLocale   string `json:"stripeLocale"`
	Amount         int64  `json:"amount"`
	Currency       string `json:"currency"`
	Email          string `json:"email"`
	// ClientSecret is set on the check page of a start whose first
	// payment waits for 3-D Secure: the island finishes it.
	ClientSecret string            `json:"clientSecret,omitempty"`
	Messages     map[string]string `json:"messages"`
}

// subscribeInput is the subscription form as posted (or sent to the API).
type subscribeInput struct {
	PlanID, Mode, Promo string
	Agreed              bool
	Name, Postal        string
	Expiry              string
	// CVCDigits is how long the typed card's security code should be,
	// for the message that says so (the number itself is not kept).
	CVCDigits int
}

// payingSubscribe serves /paying/premiumSubscriptions/{p}: why subscribe,
// and the form. ?plan= picks the plan and ?promo= prices a promo code.
func (s *Server) payingSubscribe(c echo.Context) error {
	in := subscribeInput{PlanID: c.QueryParam("plan"), Promo: subscription.NormalizePromo(c.QueryParam("promo"))}
	return s.renderSubscribe(c, http.StatusOK, in, nil)
}

// payingSubscribePost starts the subscription from the form: the card is
// saved with the provider, then the trial or the first period is charged.
// Success (and a second submit, which finds the subscription the first
// made) goes to the check screen; a refusal shows the form again with what
// was typed (never the card number or code) and a message per field.
func (s *Server) payingSubscribePost(c echo.Context) error {
	in := subscribeInput{PlanID: c.FormValue("plan"), Mode: c.FormValue("mode"), Promo: subscription.NormalizePromo(c.FormValue("promo")),
		Agreed: c.FormValue("agree") != "", Name: c.FormValue("name"), Postal: c.FormValue("postal"), Expiry: c.FormValue("expiry"),
		CVCDigits: payment.CVCLength(c.FormValue("number"))}
	card := subscribeCard{Number: c.FormValue("number"), Expiry: in.Expiry, CVC: c.FormValue("cvc"), Name: in.Name, Postal: in.Postal,
		PaymentMethod: c.FormValue("payment_method")}
	sub, errs, err := s.startSubscription(c, in, card)
	if err != nil {
		return err
	}
	if len(errs) > 0 && sub.ID == "" {
		return s.renderSubscribe(c, http.StatusUnprocessableEntity, in, errs)
	}
	if len(errs) > 0 {
		// Declined: the form again, with the bank's reason.
		return s.renderSubscribe(c, http.StatusPaymentRequired, in, errs)
	}
	return c.Redirect(http.StatusSeeOther, subscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}}))
}

// renderSubscribe renders the landing with the form as in holds it.
func (s *Server) renderSubscribe(c echo.Context, status int, in subscribeInput, errs map[string]string) error {
	ctx := c.Request().Context()
	t, st := tr(c), state(c)
	// The trial is offered once per customer, and for a report only
	// until its offer ends; the plans then read as pay now.
	used, err := s.Store.HadTrial(ctx, user(c).ID, user(c).Email)
	if err != nil {
		return err
	}
	offer, deadline, hasOffer := s.reportOffer(c)
	offerClosed := hasOffer && !time.Now().Before(deadline)
	cards, plans, err := s.subscribePlans(c, in.PlanID, !used && !offerClosed)
	if err != nil {
		return err
	}
	css, subCSS := s.subscribeCSS()
	page := views.SubscribeLanding{CSS: css, SubCSS: subCSS, Unavailable: s.Subscriptions == nil}
	if errs == nil {
		errs = map[string]string{}
	}
	var chosen store.PricedPlan
	for i, card := range cards {
		if card.Selected {
			chosen = plans[i]
		}
		// Choosing a plan asks the server for its price, promo kept.
		q := url.Values{"plan": {card.ID}}
		if in.Promo != "" {
			q.Set("promo", in.Promo)
		}
		cards[i].Href = subscribePath(c, "/paying/premiumSubscriptions", q) + "#subscribe"
	}
	for _, b := range subscription.Benefits {
		page.Compare = append(page.Compare, views.CompareRow{Label: t.T("usercenter.benefit." + b.Key),
			Free: subscription.TierGuest.Includes(b.Tier), Basic: subscription.TierBasic.Includes(b.Tier), Premium: true})
	}
	for _, b := range subscription.BenefitsOf(subscription.TierPremium) {
		if b.Tier == subscription.TierPremium {
			page.Benefits = append(page.Benefits, t.T("usercenter.benefit."+b.Key))
		}
	}
	for _, k := range []string{"courses", "articles", "daily", "map"} {
		page.Learning = append(page.Learning, t.T("subscribe.learning."+k))
	}
	for _, k := range []string{"trial", "charge", "cancel", "upgrade", "promo", "card"} {
		page.FAQ = append(page.FAQ, [2]string{t.T("subscribe.faq." + k + ".q"), t.T("subscribe.faq." + k + ".a")})
	}
	if s.Social != nil {
		for _, r := range s.Social.Reviews(ctx, st.Locale.Tag) {
			page.Testimonials = append(page.Testimonials, views.Testimonial{Name: r.Name, Type: r.TypeCode, Text: r.Content})
		}
	}
	if hasOffer {
		now := time.Now()
		cd := &views.Countdown{Type: offer.ResultCode, Deadline: deadline.UTC().Format("2006-01-02 15:04 UTC"),
			DateTime: deadline.UTC().Format(time.RFC3339), Closed: offerClosed}
		if left := deadline.Sub(now); left > 0 {
			cd.Remaining = t.TD("subscribe.countdown.left", map[string]any{"Hours": int(left.Hours()), "Minutes": int(left.Minutes()) % 60})
		}
		page.Countdown = cd
	}
	if live, ok, err := s.liveSubscription(c); err != nil {
		return err
	} else if ok {
		page.CurrentHref = subscribePath(c, "/paying/subscribe/check", url.Values{"s": {live.ID}})
	}
	// The form's answer opens at the form (a refusal is read where it is).
	f := views.SubscribeForm{Action: subscribePath(c, "/paying/premiumSubscriptions", nil) + "#subscribe", PromoHref: subscribePath(c, "/paying/premiumSubscriptions", nil),
		PlanID: chosen.ID, Plans: cards, Promo: in.Promo, Agreed: in.Agreed, Name: in.Name, Postal: in.Postal, Expiry: in.Expiry, Errors: errs,
		CVCDigits: in.CVCDigits, AskPostal: geo.UsesPostalCode(s.subscribeCountry(c)),
		Stripe: s.Checkout.Provider.Name() == "stripe", TermsHref: st.LocalPath(legalPath("subscription-terms", pair(c).String()))}
	f.Trial, f.TrialUsed = chosen.HasTrial() && !used && !offerClosed, chosen.HasTrial() && used
	var promo *store.PlanPromo
	if f.Stripe {
		// Stripe bills its own prices: no promo code is offered or priced.
		in.Promo, f.Promo = "", ""
	}
	if in.Promo != "" && chosen.ID != "" {
		if promo, err = subscription.FindPromo(ctx, s.Store, in.Promo, chosen.ID); err != nil {
			if errs["promo"], err = apperrID(err); err != nil {
				return err
			}
		}
	}
	q, err := subscription.FirstCharge(chosen, promo, !f.Trial, time.Now())
	if err != nil {
		if errs["promo"], err = apperrID(err); err != nil {
			return err
		}
		q, _ = subscription.FirstCharge(chosen, nil, !f.Trial, time.Now())
	}
	f.First = mustFormat(q.Amount, q.Currency)
	f.FirstLabel = t.T("subscribe.form.first_paynow")
	if q.Trial {
		f.FirstLabel = t.T("subscribe.form.first_trial")
	}
	if q.Discount > 0 {
		f.Discount = mustFormat(q.Discount, q.Currency)
		f.PromoNote = t.TD("subscribe.promo.applied", map[string]any{"Code": q.Promo})
	}
	page.Form = f
	if f.Stripe && !page.Unavailable {
		allowStripe(c)
		page.Props = subscribeProps{PublishableKey: s.Config.StripePublishableKey, StripeLocale: stripeLocale(st.Locale.Tag),
			Amount: payment.StripeAmount(q.Amount, q.Currency), Currency: strings.ToLower(q.Currency), Email: user(c).Email,
			Messages: t.Messages("subscribe.card.")}
	}
	return s.render(c, status, views.SubscribeLandingPage(page))
}

// offerClosed reports whether the user's unpaid report was offered with
// the trial and that offer has ended.
func (s *Server) offerClosed(c echo.Context) bool {
	_, deadline, ok := s.reportOffer(c)
	return ok && !time.Now().Before(deadline)
}

// liveSubscription is the user's subscription that is still running
// (incomplete, trialing, active or past due), if any.
func (s *Server) liveSubscription(c echo.Context) (store.Subscription, bool, error) {
	subs, err := s.Store.CustomerSubscriptions(c.Request().Context(), user(c).ID)
	if err != nil {
		return store.Subscription{}, false, err
	}
	for _, sub := range subs {
		if subscription.Status(sub.Status).Live() {
			return sub, true, nil
		}
	}
	return store.Subscription{}, false, nil
}

// apperrID is the message id of a refusal, or the error itself when it is
// not one.
func apperrID(err error) (string, error) {
	if id, ok := refusalID(err); ok {
		return id, nil
	}
	return "", err
}
