package api

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/payment"
	"selfmap/internal/subscription"
)

// apiPlan is a plan in the plan list: prices in hundredths, as the server
// charges them for the country.
type apiPlan struct {
	ID         string `json:"id"`
	Tier       string `json:"tier"`
	TimeUnit   string `json:"timeUnit"`
	Interval   string `json:"interval"`
	Period     int    `json:"period"`
	TrialDays  int    `json:"trialDays"`
	Currency   string `json:"currency"`
	Price      int64  `json:"price"`
	TrialPrice *int64 `json:"trialPrice"`
	Headline   string `json:"headline"`
	PerDay     string `json:"perDay"`
}

// apiPlanList serves GET /api/secondPhase/plan/sku/list/{examId}/{country}.
func (s *Server) apiPlanList(c echo.Context) error {
	if _, err := s.examParam(c, "examId"); err != nil {
		return err
	}
	country, err := countryParam(c, "country")
	if err != nil {
		return err
	}
	if s.Subscriptions == nil {
		return httpx.ErrSubscribeUnavailable
	}
	plans, err := s.Subscriptions.CountryPlans(c.Request().Context(), country)
	if err != nil {
		return err
	}
	t := httpx.Tr(c)
	out := make([]apiPlan, 0, len(plans))
	for _, p := range plans {
		card := httpx.PlanCard(t, p, true)
		ap := apiPlan{ID: p.ID, Tier: p.Tier, TimeUnit: p.TimeUnit, Interval: p.Interval, Period: p.Period, TrialDays: p.TrialDays,
			Currency: p.Currency, Price: p.Price, Headline: card.Headline, PerDay: card.PerDay}
		if p.TrialPrice.Valid {
			v := p.TrialPrice.Int64
			ap.TrialPrice = &v
		}
		out = append(out, ap)
	}
	return s.APIOK(c, out)
}

// apiSubscription is a subscription as the JSON calls answer it.
type apiSubscription struct {
	ID       string `json:"id"`
	PlanID   string `json:"planId"`
	Status   string `json:"status"`
	CheckURL string `json:"checkUrl"`
}

func (s *Server) apiSub(c echo.Context, sub subscription.Subscription) apiSubscription {
	return apiSubscription{ID: sub.ID, PlanID: sub.PlanID, Status: string(sub.Status),
		CheckURL: httpx.SubscribePath(c, "/paying/subscribe/check", url.Values{"s": {sub.ID}})}
}

// apiSubscribeCreate serves POST /api/user/subscribe/create: the form's
// fields as JSON. A refused field answers 400 with its message and
// data.field; a declined card 402 with the reason and the subscription.
func (s *Server) apiSubscribeCreate(c echo.Context) error {
	var req struct {
		PlanID        string `json:"planId"`
		Mode          string `json:"mode"`
		PromoCode     string `json:"promoCode"`
		Agreed        bool   `json:"agreed"`
		Number        string `json:"number"`
		Expiry        string `json:"expiry"`
		CVC           string `json:"cvc"`
		Name          string `json:"name"`
		PostalCode    string `json:"postalCode"`
		PaymentMethod string `json:"paymentMethod"`
	}
	if err := c.Bind(&req); err != nil {
		return httpx.APIInvalid("body")
	}
	if s.Subscriptions == nil {
		return httpx.ErrSubscribeUnavailable
	}
	in := subscription.SubscribeInput{Visitor: s.Visitor(c), PlanID: req.PlanID, Mode: req.Mode,
		Promo: subscription.NormalizePromo(req.PromoCode), Agreed: req.Agreed, Card: subscription.CardInput{Number: req.Number,
			Expiry: req.Expiry, CVC: req.CVC, Name: req.Name, Postal: req.PostalCode, PaymentMethod: req.PaymentMethod}}
	sub, errs, err := s.Subscriptions.Subscribe(c.Request().Context(), in)
	if err != nil {
		return err
	}
	for _, field := range []string{"plan", "mode", "terms", "promo", "number", "expiry", "cvc", "name", "postalCode"} {
		if id := errs[field]; id != "" {
			return &apperr.Error{Status: http.StatusBadRequest, ID: id, Data: map[string]any{"Field": field, "Digits": payment.CVCLength(req.Number)}}
		}
	}
	if id := errs["card"]; id != "" {
		if sub.ID == "" {
			return &apperr.Error{Status: http.StatusBadRequest, ID: id, Data: map[string]any{"Field": "card"}}
		}
		return c.JSON(http.StatusPaymentRequired, httpx.Envelope{Result: http.StatusPaymentRequired, Message: httpx.Tr(c).T(id), Data: s.apiSub(c, sub)})
	}
	return s.APIOK(c, s.apiSub(c, sub))
}

// apiChangeSubscription serves POST /pay/subscription/changeSubscription
// {planId}: the upgrade to premium.
func (s *Server) apiChangeSubscription(c echo.Context) error {
	var req struct {
		PlanID string `json:"planId"`
	}
	if err := c.Bind(&req); err != nil {
		return httpx.APIInvalid("body")
	}
	if s.Subscriptions == nil {
		return httpx.ErrSubscribeUnavailable
	}
	sub, err := s.Subscriptions.UpgradeLive(c.Request().Context(), httpx.User(c).ID, req.PlanID)
	if err != nil {
		return err
	}
	return s.APIOK(c, s.apiSub(c, sub))
}
