package handlers

import (
	"time"

	"github.com/labstack/echo/v4"

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
	orders, err := s.Checkout.UserOrders(c.Request().Context(), user(c).ID)
	if err != nil {
		return err
	}
	out := make([]apiOrder, len(orders))
	for i, o := range orders {
		out[i] = toAPIOrder(o)
	}
	return s.apiOK(c, map[string]any{"list": out, "totalCount": len(out)})
}

// apiUserOrderLatest is GET /api/user/order/laster (the spec's spelling):
// the user's newest order, null when there is none.
func (s *Server) apiUserOrderLatest(c echo.Context) error {
	orders, err := s.Checkout.UserOrders(c.Request().Context(), user(c).ID)
	if err != nil {
		return err
	}
	if len(orders) == 0 {
		return s.apiOK(c, nil)
	}
	return s.apiOK(c, toAPIOrder(orders[0]))
}

// apiUserCenterData is GET /api/user/center/data: what the user centre's
// home shows, for the signed-in user only.
func (s *Server) apiUserCenterData(c echo.Context) error {
	ctx := c.Request().Context()
	ent, err := s.entitlement(c)
	if err != nil {
		return err
	}
	reports, err := s.userReports(c)
	if err != nil {
		return err
	}
	unread, err := s.Notices.Unread(ctx, noticeReader(c, ent.Tier))
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
	}{Name: user(c).Name, Tier: string(ent.Tier), Vip: ent.Tier == subscription.TierPremium, CancelAtPeriodEnd: ent.CancelAtPeriodEnd,
		UnreadNotices: unread}
	if ent.Tier != subscription.TierGuest && !ent.ValidUntil.IsZero() {
		v := ent.ValidUntil.UTC()
		out.ValidUntil = &v
	}
	if ent.Tier != subscription.TierPremium {
		out.UpgradeURL = upgradeHref(c, ent.Tier)
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
	return s.apiOK(c, out)
}
