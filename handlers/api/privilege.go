package api

import (
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
)

// apiUserPrivilege is GET /api/user/privilege: the user's tier, until when
// and what it includes.
func (s *Server) apiUserPrivilege(c echo.Context) error {
	ent, err := s.Entitlement(c)
	if err != nil {
		return err
	}
	out := struct {
		Tier              string       `json:"tier"`
		Vip               bool         `json:"vip"`
		ValidUntil        *time.Time   `json:"validUntil"`
		Status            string       `json:"status"`
		CancelAtPeriodEnd bool         `json:"cancelAtPeriodEnd"`
		Benefits          []apiBenefit `json:"benefits"`
	}{Tier: string(ent.Tier), Vip: ent.Tier == subscription.TierPremium, Status: string(ent.Status),
		CancelAtPeriodEnd: ent.CancelAtPeriodEnd, Benefits: apiBenefits(c, ent.Tier)}
	if ent.Tier != subscription.TierGuest && !ent.ValidUntil.IsZero() {
		v := ent.ValidUntil.UTC()
		out.ValidUntil = &v
	}
	return s.APIOK(c, out)
}

// apiVipDetail is GET /api/privilege/vip/detail: the benefits of every
// tier, the user's own marked.
func (s *Server) apiVipDetail(c echo.Context) error {
	ent, err := s.Entitlement(c)
	if err != nil {
		return err
	}
	type tier struct {
		Tier     string       `json:"tier"`
		Current  bool         `json:"current"`
		Title    string       `json:"title"`
		Benefits []apiBenefit `json:"benefits"`
	}
	out := struct {
		Current string `json:"current"`
		Tiers   []tier `json:"tiers"`
	}{Current: string(ent.Tier)}
	for _, t := range subscription.Tiers {
		var bs []apiBenefit
		for _, b := range apiBenefits(c, t) {
			if b.Tier == string(t) {
				bs = append(bs, b)
			}
		}
		out.Tiers = append(out.Tiers, tier{Tier: string(t), Current: t == ent.Tier, Title: httpx.Tr(c).T("usercenter.tier." + string(t)), Benefits: bs})
	}
	return s.APIOK(c, out)
}

// apiBenefit is a benefit in the JSON calls.
type apiBenefit struct {
	Key      string `json:"key"`
	Title    string `json:"title"`
	Tier     string `json:"tier"`
	Included bool   `json:"included"`
}

func apiBenefits(c echo.Context, of subscription.Tier) []apiBenefit {
	t := httpx.Tr(c)
	out := make([]apiBenefit, len(subscription.Benefits))
	for i, b := range subscription.Benefits {
		out[i] = apiBenefit{Key: b.Key, Title: t.T("usercenter.benefit." + b.Key), Tier: string(b.Tier), Included: of.Includes(b.Tier)}
	}
	return out
}
