package handlers

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/internal/store"
	"selfmap/internal/subscription"
	"selfmap/internal/tracking"
	"selfmap/views"
)

// ownSubscription reads the signed-in user's subscription named by ?s=;
// another user's answers as a missing one.
func (s *Server) ownSubscription(c echo.Context, id string) (store.Subscription, error) {
	sub, err := s.Store.GetSubscription(c.Request().Context(), s.Store.DB, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && sub.CustomerID != user(c).ID) {
		return store.Subscription{}, echo.ErrNotFound
	}
	return sub, err
}

// payingSubscribeCheck serves /paying/subscribe/check/{p}?s=: a
// subscription just started or upgraded. Trialing or active: what was
// charged and when the next charge is; incomplete: wait, the page looks
// again every 2 seconds; ended by a declined first charge: the reason and
// a way back to the form.
func (s *Server) payingSubscribeCheck(c echo.Context) error {
	sub, err := s.ownSubscription(c, c.QueryParam("s"))
	if err != nil {
		return err
	}
	invs, err := s.Store.SubscriptionInvoices(c.Request().Context(), sub.ID)
	if err != nil {
		return err
	}
	t := tr(c)
	css, subCSS := s.subscribeCSS()
	page := views.SubscribeCheck{CSS: css, SubCSS: subCSS, CenterHref: state(c).LocalPath("/userCenter/home")}
	switch subscription.Status(sub.Status) {
	case subscription.Incomplete:
		page.Kind, page.Refresh = "pending", 2
		page.Next = subscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}})
		if secret := s.pendingAction(c, sub); secret != "" {
			// The bank asks the customer to authenticate the first
			// payment: no refresh (it would cut the bank's window short).
			page.Kind, page.Refresh = "authenticate", 0
			page.AbandonAction = subscribePath(c, "/paying/subscribe/abandon", url.Values{"s": {sub.ID}})
			allowStripe(c)
			page.Props = subscribeProps{PublishableKey: s.Config.StripePublishableKey, StripeLocale: stripeLocale(state(c).Locale.Tag),
				Email: user(c).Email, ClientSecret: secret, Messages: t.Messages("subscribe.card.")}
		}
	case subscription.Trialing, subscription.Active, subscription.PastDue:
		page.Kind = "success"
		page.Plan = t.TD("subscribe.check.plan", map[string]any{"Plan": t.T("subscribe.tier." + s.planTier(c, sub)), "Status": t.T("subscribe.status." + sub.Status)})
		var paid *store.Invoice
		for i := range invs {
			if invs[i].Status == store.InvoicePaid {
				paid = &invs[i]
			}
		}
		if paid != nil {
			page.Charged = t.TD("subscribe.check.charged", map[string]any{"Amount": mustFormat(paid.Amount, paid.Currency), "Date": day(paid.CreatedAt)})
			ev := tracking.Event{Name: tracking.Purchase, Value: float64(paid.Amount) / 100, Currency: paid.Currency, ID: paid.ID}
			if paid.Kind == subscription.KindTrial {
				ev.Name = tracking.StartTrial
			}
			// The invoice is the event's id: a reload reports it again and
			// the networks drop the repeat.
			state(c).AdEvents = []tracking.Event{ev}
		}
		if sub.CancelAtPeriodEnd {
			page.NextLine = t.TD("subscribe.check.ends", map[string]any{"Date": day(sub.CurrentPeriodEnd)})
		} else {
			page.NextLine = t.TD("subscribe.check.next", map[string]any{"Amount": mustFormat(sub.Price, sub.Currency), "Date": day(sub.CurrentPeriodEnd)})
		}
		if s.planTier(c, sub) != string(subscription.TierPremium) && sub.Status != string(subscription.PastDue) {
			page.UpgradeHref = subscribePath(c, "/paying/upgrade", nil)
		}
	default:
		// Ended: by a declined first charge (no invoice was ever paid), or
		// after a cancel or the last declined renewal.
		page.Kind = "ended"
		page.RetryHref = subscribePath(c, "/paying/scheme", nil)
		if !anyPaid(invs) {
			page.Kind = "declined"
			page.Reason = t.T(s.declineReason(c, sub))
			page.RetryHref = subscribePath(c, "/paying/premiumSubscriptions", url.Values{"plan": {sub.PlanID}}) + "#subscribe"
		}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.render(c, http.StatusOK, views.SubscribeCheckPage(page))
}

// pendingAction is the client secret of a start's first payment that waits
// for the customer's authentication, "" when nothing waits for them. The
// provider is asked on each view; when it cannot answer, the page goes on
// waiting (and asks again at its next refresh).
func (s *Server) pendingAction(c echo.Context, sub store.Subscription) string {
	if s.Subscriptions == nil || !sub.ProviderRef.Valid {
		return ""
	}
	secret, err := s.Subscriptions.PendingAction(c.Request().Context(), user(c).ID, sub.ID)
	if err != nil {
		s.Logger.WarnContext(c.Request().Context(), "subscribe: reading a start's pending authentication", "subscription", sub.ID, "err", err)
		return ""
	}
	return secret
}

// payingSubscribeAbandon serves POST /paying/subscribe/abandon/{p}?s=: the
// customer failed or closed the bank's authentication of a start's first
// payment (the check page's island posts it, or they chose another card).
// The start ends, nothing having been charged, and the form comes back with
// the reason. A start that was paid after all goes to its check page.
func (s *Server) payingSubscribeAbandon(c echo.Context) error {
	sub, err := s.ownSubscription(c, c.QueryParam("s"))
	if err != nil {
		return err
	}
	if s.Subscriptions == nil {
		return errSubscribeUnavailable
	}
	sub, err = s.Subscriptions.AbandonStart(c.Request().Context(), user(c).ID, sub.ID)
	switch {
	case errors.Is(err, subscription.ErrDeclined):
		if err := s.flash(c, tr(c).T("subscribe.decline.authentication_failed")); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, subscribePath(c, "/paying/premiumSubscriptions", url.Values{"plan": {sub.PlanID}})+"#subscribe")
	case err != nil:
		return err
	}
	return c.Redirect(http.StatusSeeOther, subscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}}))
}

// planTier is the tier of a subscription's plan ("" when the plan is gone).
func (s *Server) planTier(c echo.Context, sub store.Subscription) string {
	p, err := s.Store.GetPlan(c.Request().Context(), sub.PlanID, sub.Country)
	if err != nil {
		return ""
	}
	return p.Tier
}

// anyPaid reports whether any of a subscription's invoices was paid.
func anyPaid(invs []store.Invoice) bool {
	for _, inv := range invs {
		if inv.Status == store.InvoicePaid {
			return true
		}
	}
	return false
}
