package site

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// payingUpgrade serves /paying/upgrade/{p} and /payinsider/{p}: the plan
// now and premium's price, with the button that upgrades.
func (s *Server) payingUpgrade(c echo.Context) error {
	return s.renderUpgrade(c, http.StatusOK, "")
}

// payingUpgradePost upgrades the user's subscription to premium: the
// trial or period ends now and premium is charged at once. A replayed
// upgrade finds the plan already premium and charges nothing again.
func (s *Server) payingUpgradePost(c echo.Context) error {
	if s.Subscriptions == nil {
		return httpx.ErrSubscribeUnavailable
	}
	sub, err := s.Subscriptions.UpgradeLive(c.Request().Context(), httpx.User(c).ID, c.FormValue("plan"))
	if id, ok := refusalID(err); ok {
		return s.renderUpgrade(c, http.StatusUnprocessableEntity, id)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, httpx.SubscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}}))
}

// renderUpgrade renders the upgrade page, with msg (a message id) when an
// upgrade was refused.
func (s *Server) renderUpgrade(c echo.Context, status int, msg string) error {
	t := httpx.Tr(c)
	css, subCSS := s.subscribeCSS()
	page := views.UpgradePage{CSS: css, SubCSS: subCSS, Action: httpx.State(c).LocalPath(c.Request().URL.Path), Error: msg,
		SchemeHref: httpx.SubscribePath(c, "/paying/scheme", nil), CenterHref: httpx.State(c).LocalPath("/userCenter/home")}
	var v subscription.UpgradeView
	if s.Subscriptions != nil {
		var err error
		if v, err = s.Subscriptions.UpgradeOffer(c.Request().Context(), httpx.User(c).ID); err != nil {
			return err
		}
	}
	if v.Live == nil {
		page.None = true
		return s.Render(c, status, views.Upgrade(page))
	}
	page.Current, page.IsPremium = t.T("subscribe.tier."+string(v.Tier)), v.Tier == subscription.TierPremium
	page.Until = httpx.Day(v.Live.CurrentPeriodEnd)
	if v.NoPremium {
		if page.Error == "" {
			page.Error = subscription.ErrNoPremiumPlan.ID
		}
		return s.Render(c, status, views.Upgrade(page))
	}
	page.Premium, page.PremiumID = t.T("subscribe.tier.premium"), v.Premium.ID
	page.Price = httpx.PlanCard(t, v.Premium, false).Headline
	upgradeTerms(c, &page, v)
	return s.Render(c, status, views.Upgrade(page))
}

// upgradeTerms words what confirming the upgrade does: the amount charged
// today and to which card, what becomes of the trial or paid period, and
// when and at what Premium renews.
func upgradeTerms(c echo.Context, page *views.UpgradePage, v subscription.UpgradeView) {
	t := httpx.Tr(c)
	page.Today = httpx.MustFormat(v.Premium.Price, v.Premium.Currency)
	page.Card = v.Card
	if page.Card == "" {
		page.Card = t.T("subscribe.upgrade.card_on_file")
	}
	if v.Trialing {
		page.Ends = t.TD("subscribe.upgrade.trial_ends", map[string]any{"Date": t.LongDay(v.Today)})
	} else {
		page.Ends = t.TD("subscribe.upgrade.period_ends", map[string]any{"Plan": page.Current, "Date": t.LongDay(v.Today)})
	}
	page.Renews = t.TD("subscribe.upgrade.renews", map[string]any{"Every": page.Price, "Date": t.LongDay(v.RenewsOn)})
}
