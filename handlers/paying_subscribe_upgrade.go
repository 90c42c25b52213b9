package handlers

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

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
		return errSubscribeUnavailable
	}
	sub, err := s.Subscriptions.UpgradeLive(c.Request().Context(), user(c).ID, c.FormValue("plan"))
	if id, ok := refusalID(err); ok {
		return s.renderUpgrade(c, http.StatusUnprocessableEntity, id)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, subscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}}))
}

// renderUpgrade renders the upgrade page, with msg (a message id) when an
// upgrade was refused.
func (s *Server) renderUpgrade(c echo.Context, status int, msg string) error {
	t := tr(c)
	css, subCSS := s.subscribeCSS()
	page := views.UpgradePage{CSS: css, SubCSS: subCSS, Action: state(c).LocalPath(c.Request().URL.Path), Error: msg,
		SchemeHref: subscribePath(c, "/paying/scheme", nil), CenterHref: state(c).LocalPath("/userCenter/home")}
	var v subscription.UpgradeView
	if s.Subscriptions != nil {
		var err error
		if v, err = s.Subscriptions.UpgradeOffer(c.Request().Context(), user(c).ID); err != nil {
			return err
		}
	}
	if v.Live == nil {
		page.None = true
		return s.render(c, status, views.Upgrade(page))
	}
	page.Current, page.IsPremium = t.T("subscribe.tier."+string(v.Tier)), v.Tier == subscription.TierPremium
	page.Until = day(v.Live.CurrentPeriodEnd)
	if v.NoPremium {
		if page.Error == "" {
			page.Error = subscription.ErrNoPremiumPlan.ID
		}
		return s.render(c, status, views.Upgrade(page))
	}
	page.Premium, page.PremiumID = t.T("subscribe.tier.premium"), v.Premium.ID
	page.Price = planCard(t, v.Premium, false).Headline
	return s.render(c, status, views.Upgrade(page))
}
