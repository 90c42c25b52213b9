package handlers

import (
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/internal/geo"
	"selfmap/internal/i18n"
	"selfmap/internal/store"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// subscribeCSS is the subscription screens' stylesheet, after checkout.css
// whose card fields they reuse.
func (s *Server) subscribeCSS() (string, string) {
	return s.Assets.URL("static/css/checkout.css"), s.Assets.URL("static/css/subscribe.css")
}

// subscribeCountry prices the plans: the country the visitor gave with
// their newest result, else the region of their browser's language, else
// the default price ('*').
func (s *Server) subscribeCountry(c echo.Context) string {
	// Read once a request: the plans, the card form and the start all ask.
	if country, ok := c.Get(subscribeCountryKey).(string); ok {
		return country
	}
	country := s.readSubscribeCountry(c)
	c.Set(subscribeCountryKey, country)
	return country
}

const subscribeCountryKey = "subscribe_country"

func (s *Server) readSubscribeCountry(c echo.Context) string {
	if u, ok, err := s.currentUser(c); err == nil && ok {
		if rs, err := s.Store.UserResults(c.Request().Context(), u.ID); err == nil && len(rs) > 0 && rs[0].Country.Valid && rs[0].Country.String != "" {
			return rs[0].Country.String
		}
	}
	if region, ok := geo.FromAcceptLanguage(c.Request().Header.Get("Accept-Language")); ok && geo.Valid(region) {
		return region
	}
	return "*"
}

// subscribePath is a subscription screen of the request's pair and locale.
func subscribePath(c echo.Context, screen string, q url.Values) string {
	pr := pair(c)
	if pr.Code == "" {
		// The JSON calls have no pair in their path: the site's home pair.
		pr = state(c).Home
	}
	p := state(c).LocalPath(screen + "/" + pr.String())
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}

// planCard words a plan's prices: its first charge, what follows and the
// price per day (the period's price over its days, rounded to the cent).
// trial is whether the visitor is offered the plan's trial.
func planCard(t *i18n.Translator, p store.PricedPlan, trial bool) views.PlanCard {
	price := mustFormat(p.Price, p.Currency)
	// "a month", "每月", "月額": a period of one has words of its own, which
	// a plural form cannot give in languages with only "other".
	every := t.TN("subscribe.every."+p.TimeUnit, p.Period, map[string]any{"Price": price})
	if p.Period == 1 {
		every = t.TD("subscribe.every_one."+p.TimeUnit, map[string]any{"Price": price})
	}
	card := views.PlanCard{ID: p.ID, Tier: p.Tier, Title: t.T("subscribe.tier." + p.Tier), Headline: every}
	if days := periodDays(p); days > 0 {
		card.PerDay = t.TD("subscribe.per_day", map[string]any{"Price": mustFormat((p.Price+int64(days)/2)/int64(days), p.Currency)})
	}
	if trial && p.HasTrial() {
		card.Trial = true
		card.Headline = t.TN("subscribe.trial", p.TrialDays, map[string]any{"Price": mustFormat(p.TrialPrice.Int64, p.Currency)})
		card.Then = t.TD("subscribe.then", map[string]any{"Every": every})
	}
	return card
}

// periodDays is how many days one period of a plan lasts, counted from
// now (a month is the coming one).
func periodDays(p store.PricedPlan) int {
	now := time.Now().UTC()
	end, err := subscription.AddPeriod(now, p.Interval, p.Period)
	if err != nil {
		return 0
	}
	return int(end.Sub(now).Hours()/24 + 0.5)
}

// subscribePlans lists the plans priced for the visitor, selected marks
// the chosen one (the first when none is); trial is whether their trials
// are offered.
func (s *Server) subscribePlans(c echo.Context, selected string, trial bool) ([]views.PlanCard, []store.PricedPlan, error) {
	plans, err := s.Store.ListPlans(c.Request().Context(), s.subscribeCountry(c))
	if err != nil {
		return nil, nil, err
	}
	t := tr(c)
	cards := make([]views.PlanCard, 0, len(plans))
	found := false
	for _, p := range plans {
		card := planCard(t, p, trial)
		card.Href = subscribePath(c, "/paying/premiumSubscriptions", url.Values{"plan": {p.ID}}) + "#subscribe"
		card.Selected = p.ID == selected
		found = found || card.Selected
		cards = append(cards, card)
	}
	if !found && len(cards) > 0 {
		cards[0].Selected = true
	}
	return cards, plans, nil
}

// payingScheme serves /paying/scheme/{p}: the plans and their prices for
// the visitor's country, each with its button to start.
func (s *Server) payingScheme(c echo.Context) error {
	cards, _, err := s.subscribePlans(c, "", true)
	if err != nil {
		return err
	}
	css, sub := s.subscribeCSS()
	return s.render(c, http.StatusOK, views.Scheme(views.SchemePage{CSS: css, SubCSS: sub, Plans: cards}))
}
