package site

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
	"selfmap/internal/tracking"
	"selfmap/views"
)

// payingSubscribeCheck serves /paying/subscribe/check/{p}?s=: a
// subscription just started or upgraded. Trialing or active: what was
// charged and when the next charge is; incomplete: wait, the page looks
// again every 2 seconds; ended by a declined first charge: the reason and
// a way back to the form. Another user's subscription is not found.
func (s *Server) payingSubscribeCheck(c echo.Context) error {
	if s.Subscriptions == nil {
		return httpx.ErrSubscribeUnavailable
	}
	v, err := s.Subscriptions.Check(c.Request().Context(), httpx.User(c).ID, c.QueryParam("s"))
	if err != nil {
		return err
	}
	css, subCSS := s.subscribeCSS()
	page := views.SubscribeCheck{CSS: css, SubCSS: subCSS, CenterHref: httpx.State(c).LocalPath("/userCenter/home"), Kind: string(v.Stage)}
	sub := v.Subscription
	switch v.Stage {
	case subscription.StagePending:
		page.Refresh = 2
		page.Next = httpx.SubscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}})
	case subscription.StageAuthenticate:
		// The bank asks the customer to authenticate the first payment:
		// no refresh (it would cut the bank's window short).
		page.Next = httpx.SubscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}})
		page.AbandonAction = httpx.SubscribePath(c, "/paying/subscribe/abandon", url.Values{"s": {sub.ID}})
		httpx.AllowStripe(c)
		page.Props = subscribeProps{PublishableKey: s.Config.StripePublishableKey, StripeLocale: stripeLocale(httpx.State(c).Locale.Tag),
			Email: httpx.User(c).Email, ClientSecret: v.ClientSecret, Messages: httpx.Tr(c).Messages("subscribe.card.")}
	case subscription.StageSuccess:
		checkSuccess(c, &page, v)
	case subscription.StageDeclined:
		page.Reason = httpx.Tr(c).T(v.DeclineReason)
		page.RetryHref = httpx.SubscribePath(c, "/paying/premiumSubscriptions", url.Values{"plan": {sub.PlanID}}) + "#subscribe"
	default:
		page.RetryHref = httpx.SubscribePath(c, "/paying/scheme", nil)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.Render(c, http.StatusOK, views.SubscribeCheckPage(page))
}

// checkSuccess words a running subscription on its check page: what the
// newest charge did (a trial started, a first period paid, an upgrade), what
// was charged (reported to the ad networks once consented) and the next
// charge or the end.
func checkSuccess(c echo.Context, page *views.SubscribeCheck, v subscription.CheckView) {
	t, sub := httpx.Tr(c), v.Subscription
	page.Plan = t.TD("subscribe.check.plan", map[string]any{"Plan": t.T("subscribe.tier." + string(v.Tier)), "Status": t.T("subscribe.status." + string(sub.Status))})
	page.Outcome = v.Outcome
	page.Title = t.T("subscribe.check.success.title")
	if paid := v.Charged; paid != nil {
		amount := map[string]any{"Amount": httpx.MustFormat(paid.Amount, paid.Currency), "Date": t.LongDay(paid.CreatedAt)}
		page.Charged = t.TD("subscribe.check.charged", amount)
		switch v.Outcome {
		case subscription.KindTrial:
			page.Title, page.Charged = t.T("subscribe.check.trial.title"), t.TD("subscribe.check.trial.charged", amount)
		case subscription.KindUpgrade:
			page.Title, page.Charged = t.T("subscribe.check.upgrade.title"), t.TD("subscribe.check.upgrade.charged", amount)
			page.Replaced = t.TD("subscribe.check.upgrade.replaced", map[string]any{"Date": t.LongDay(paid.PeriodStart)})
			if v.TrialCut {
				page.Replaced = t.TD("subscribe.check.upgrade.trial_ended", map[string]any{"Date": t.LongDay(paid.PeriodStart)})
			}
		}
		ev := tracking.Event{Name: tracking.Purchase, Value: float64(paid.Amount) / 100, Currency: paid.Currency, ID: paid.ID}
		if v.ChargedTrial {
			ev.Name = tracking.StartTrial
		}
		// The invoice is the event's id: a reload reports it again and
		// the networks drop the repeat.
		httpx.State(c).AdEvents = []tracking.Event{ev}
	}
	every := httpx.MustFormat(sub.Price, sub.Currency)
	if v.Plan.ID != "" {
		every = httpx.PlanCard(t, v.Plan, false).Headline
	}
	switch {
	case sub.CancelAtPeriodEnd:
		page.NextLine = t.TD("subscribe.check.ends", map[string]any{"Date": t.LongDay(sub.CurrentPeriodEnd)})
	case sub.Status == subscription.Trialing:
		page.NextLine = t.TD("subscribe.check.trial.next", map[string]any{"Every": every, "Date": t.LongDay(sub.CurrentPeriodEnd)})
	default:
		page.NextLine = t.TD("subscribe.check.renews", map[string]any{"Every": every, "Amount": httpx.MustFormat(sub.Price, sub.Currency),
			"Date": t.LongDay(sub.CurrentPeriodEnd)})
	}
	if v.CanUpgrade {
		page.UpgradeHref = httpx.SubscribePath(c, "/paying/upgrade", nil)
	}
}

// payingSubscribeAbandon serves POST /paying/subscribe/abandon/{p}?s=: the
// customer failed or closed the bank's authentication of a start's first
// payment (the check page's island posts it, or they chose another card).
// The start ends, nothing having been charged, and the form comes back with
// the reason. A start that was paid after all goes to its check page.
// Another user's subscription is not found.
func (s *Server) payingSubscribeAbandon(c echo.Context) error {
	if s.Subscriptions == nil {
		return httpx.ErrSubscribeUnavailable
	}
	sub, err := s.Subscriptions.AbandonStart(c.Request().Context(), httpx.User(c).ID, c.QueryParam("s"))
	switch {
	case errors.Is(err, subscription.ErrDeclined):
		if err := s.Flash(c, httpx.Tr(c).T("subscribe.decline.authentication_failed")); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, httpx.SubscribePath(c, "/paying/premiumSubscriptions", url.Values{"plan": {sub.PlanID}})+"#subscribe")
	case err != nil:
		return err
	}
	return c.Redirect(http.StatusSeeOther, httpx.SubscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}}))
}
