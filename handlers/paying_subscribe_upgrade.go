package handlers

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/internal/store"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// premiumPlan is the premium plan priced for a subscription's country.
func (s *Server) premiumPlan(c echo.Context, country string) (store.PricedPlan, error) {
	plans, err := s.Store.ListPlans(c.Request().Context(), country)
	if err != nil {
		return store.PricedPlan{}, err
	}
	for _, p := range plans {
		if subscription.Tier(p.Tier) == subscription.TierPremium {
			return p, nil
		}
	}
	return store.PricedPlan{}, subscription.ErrNoPremiumPlan
}

// payingUpgrade serves /paying/upgrade/{p} and /payinsider/{p}: the plan
// now and premium's price, with the button that upgrades.
func (s *Server) payingUpgrade(c echo.Context) error {
	return s.renderUpgrade(c, http.StatusOK, "")
}

// payingUpgradePost upgrades the user's subscription to premium: the
// trial or period ends now and premium is charged at once. A replayed
// upgrade finds the plan already premium and charges nothing again.
func (s *Server) payingUpgradePost(c echo.Context) error {
	sub, err := s.upgrade(c, c.FormValue("plan"))
	if id, ok := refusalID(err); ok {
		return s.renderUpgrade(c, http.StatusUnprocessableEntity, id)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, subscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}}))
}

// upgrade moves the user's live subscription to a premium plan.
func (s *Server) upgrade(c echo.Context, planID string) (store.Subscription, error) {
	if s.Subscriptions == nil {
		return store.Subscription{}, errSubscribeUnavailable
	}
	live, ok, err := s.liveSubscription(c)
	if err != nil {
		return store.Subscription{}, err
	}
	if !ok {
		return store.Subscription{}, subscription.ErrNotFound
	}
	if plan, err := s.Store.GetPlan(c.Request().Context(), planID, live.Country); err != nil || subscription.Tier(plan.Tier) != subscription.TierPremium {
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return store.Subscription{}, err
		}
		return store.Subscription{}, subscription.ErrNoPremiumPlan
	}
	sub, err := s.Subscriptions.Upgrade(c.Request().Context(), user(c).ID, live.ID, planID)
	if errors.Is(err, subscription.ErrBusy) {
		return store.Subscription{}, subscription.ErrUpgradeFailed
	}
	return sub, err
}

func (s *Server) renderUpgrade(c echo.Context, status int, msg string) error {
	t := tr(c)
	css, subCSS := s.subscribeCSS()
	page := views.UpgradePage{CSS: css, SubCSS: subCSS, Action: state(c).LocalPath(c.Request().URL.Path), Error: msg,
		SchemeHref: subscribePath(c, "/paying/scheme", nil), CenterHref: state(c).LocalPath("/userCenter/home")}
	live, ok, err := s.liveSubscription(c)
	if err != nil {
		return err
	}
	if !ok {
		page.None = true
		return s.render(c, status, views.Upgrade(page))
	}
	tier := s.planTier(c, live)
	page.Current, page.IsPremium = t.T("subscribe.tier."+tier), tier == string(subscription.TierPremium)
	page.Until = day(live.CurrentPeriodEnd)
	premium, err := s.premiumPlan(c, live.Country)
	if errors.Is(err, subscription.ErrNoPremiumPlan) {
		if page.Error == "" {
			page.Error = subscription.ErrNoPremiumPlan.ID
		}
		return s.render(c, status, views.Upgrade(page))
	}
	if err != nil {
		return err
	}
	page.Premium, page.PremiumID = t.T("subscribe.tier.premium"), premium.ID
	page.Price = planCard(t, premium, false).Headline
	return s.render(c, status, views.Upgrade(page))
}
