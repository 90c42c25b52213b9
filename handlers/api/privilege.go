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
	m, err := s.membership(c)
	if err != nil {
		return err
	}
	ent := m.Entitlement
	out := struct {
		Tier              string       `json:"tier"`
		Vip               bool         `json:"vip"`
		ValidUntil        *time.Time   `json:"validUntil"`
		Status            string       `json:"status"`
		CancelAtPeriodEnd bool         `json:"cancelAtPeriodEnd"`
		Renews            bool         `json:"renews"`
		FreeReportsLeft   int          `json:"freeReportsLeft"`
		FreeReports       int          `json:"freeReportsPerPeriod"`
		Benefits          []apiBenefit `json:"benefits"`
	}{Tier: string(ent.Tier), Vip: ent.Tier == subscription.TierPremium, Status: string(ent.Status),
		CancelAtPeriodEnd: ent.CancelAtPeriodEnd, Renews: ent.Renews(), FreeReportsLeft: m.Free.Left, FreeReports: m.Free.Of,
		Benefits: apiBenefits(c, ent.Tier)}
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

// apiBenefit is a benefit in the JSON calls, with the page where it is
// used.
type apiBenefit struct {
	Key      string `json:"key"`
	Title    string `json:"title"`
	Tier     string `json:"tier"`
	Included bool   `json:"included"`
	URL      string `json:"url"`
}

// apiBenefits lists the benefits that ship today (subscription.Offered),
// each marked included when tier of has it.
func apiBenefits(c echo.Context, of subscription.Tier) []apiBenefit {
	t, st := httpx.Tr(c), httpx.State(c)
	var out []apiBenefit
	for _, b := range subscription.Offered(subscription.TierPremium) {
		out = append(out, apiBenefit{Key: b.Key, Title: t.T("usercenter.benefit." + b.Key), Tier: string(b.Tier), Included: of.Includes(b.Tier),
			URL: st.LocalPath(b.Path(st.Home.String()))})
	}
	return out
}

// membership is the signed-in member's plan now, applied to their reports
// (subscription.Service.Member: Premium opens them). Without a
// subscription service everyone is a guest.
func (s *Server) membership(c echo.Context) (subscription.Membership, error) {
	if s.Subscriptions == nil {
		return subscription.Membership{Entitlement: subscription.Entitlement{Tier: subscription.TierGuest}}, nil
	}
	return s.Subscriptions.Member(c.Request().Context(), httpx.User(c).ID)
}
