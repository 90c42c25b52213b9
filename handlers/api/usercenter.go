package api

import (
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/checkout"
	"selfmap/internal/subscription"
)

// apiOrder is one of the user's orders in the JSON calls.
type apiOrder struct {
	OrderNumber string    `json:"orderNumber"`
	Kind        string    `json:"kind"`
	Status      string    `json:"status"`
	SKU         string    `json:"skuId"`
	Currency    string    `json:"currency"`
	Total       int64     `json:"total"`
	ResultID    string    `json:"resultId"`
	CreatedAt   time.Time `json:"createdAt"`
}

func toAPIOrder(o checkout.Order) apiOrder {
	return apiOrder{OrderNumber: o.OrderNumber, Kind: o.Kind, Status: string(o.Status), SKU: o.SKUID.String, Currency: o.Currency.String,
		Total: o.Total, ResultID: o.ResultID, CreatedAt: o.CreatedAt.UTC()}
}

// apiUserOrderList is GET /api/user/order/list: the signed-in user's own
// orders, newest first.
func (s *Server) apiUserOrderList(c echo.Context) error {
	orders, err := s.Checkout.UserOrders(c.Request().Context(), httpx.User(c).ID)
	if err != nil {
		return err
	}
	out := make([]apiOrder, len(orders))
	for i, o := range orders {
		out[i] = toAPIOrder(o)
	}
	return s.APIOK(c, map[string]any{"list": out, "totalCount": len(out)})
}

// apiUserOrderLatest is GET /api/user/order/laster (the spec's spelling):
// the user's newest order, null when there is none.
func (s *Server) apiUserOrderLatest(c echo.Context) error {
	orders, err := s.Checkout.UserOrders(c.Request().Context(), httpx.User(c).ID)
	if err != nil {
		return err
	}
	if len(orders) == 0 {
		return s.APIOK(c, nil)
	}
	return s.APIOK(c, toAPIOrder(orders[0]))
}

// apiUserCenterData is GET /api/user/center/data: what the user centre's
// home shows, for the signed-in user only.
func (s *Server) apiUserCenterData(c echo.Context) error {
	ctx := c.Request().Context()
	ent, err := s.Entitlement(c)
	if err != nil {
		return err
	}
	reports, err := s.UserReports(c)
	if err != nil {
		return err
	}
	unread, err := s.Notices.Unread(ctx, httpx.NoticeReader(c, ent.Tier))
	if err != nil {
		return err
	}
	type report struct {
		ID       string `json:"id"`
		TypeCode string `json:"typeCode"`
		Title    string `json:"title"`
		Date     string `json:"date"`
		Paid     bool   `json:"paid"`
		ViewURL  string `json:"viewUrl"`
		PayURL   string `json:"payUrl"`
		ShareURL string `json:"shareUrl"`
	}
	out := struct {
		Name              string     `json:"name"`
		Tier              string     `json:"tier"`
		Vip               bool       `json:"vip"`
		ValidUntil        *time.Time `json:"validUntil"`
		CancelAtPeriodEnd bool       `json:"cancelAtPeriodEnd"`
		UnreadNotices     int        `json:"unreadNotices"`
		Completed         int        `json:"completedReports"`
		Pending           int        `json:"pendingReports"`
		Latest            *report    `json:"latestReport"`
		UpgradeURL        string     `json:"upgradeUrl,omitempty"`
	}{Name: httpx.User(c).Name, Tier: string(ent.Tier), Vip: ent.Tier == subscription.TierPremium, CancelAtPeriodEnd: ent.CancelAtPeriodEnd,
		UnreadNotices: unread}
	if ent.Tier != subscription.TierGuest && !ent.ValidUntil.IsZero() {
		v := ent.ValidUntil.UTC()
		out.ValidUntil = &v
	}
	if ent.Tier != subscription.TierPremium {
		out.UpgradeURL = httpx.UpgradeHref(c, ent.Tier)
	}
	for i, r := range reports {
		if r.Paid {
			out.Completed++
		} else {
			out.Pending++
		}
		if i == 0 {
			out.Latest = &report{ID: r.ID, TypeCode: r.Letters, Title: r.Title, Date: r.Date, Paid: r.Paid, ViewURL: r.ViewHref,
				PayURL: r.PayHref, ShareURL: r.ShareHref}
		}
	}
	return s.APIOK(c, out)
}

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
