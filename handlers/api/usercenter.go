package api

import (
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
)

// apiUserCenterData is GET /api/user/center/data: what the user centre's
// home shows, for the signed-in user only.
func (s *Server) apiUserCenterData(c echo.Context) error {
	ctx := c.Request().Context()
	m, err := s.membership(c)
	if err != nil {
		return err
	}
	ent := m.Entitlement
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
		Renews            bool       `json:"renews"`
		FreeReportsLeft   int        `json:"freeReportsLeft"`
		FreeReports       int        `json:"freeReportsPerPeriod"`
		UnreadNotices     int        `json:"unreadNotices"`
		Completed         int        `json:"completedReports"`
		Pending           int        `json:"pendingReports"`
		Latest            *report    `json:"latestReport"`
		UpgradeURL        string     `json:"upgradeUrl,omitempty"`
	}{Name: httpx.User(c).Name, Tier: string(ent.Tier), Vip: ent.Tier == subscription.TierPremium, CancelAtPeriodEnd: ent.CancelAtPeriodEnd,
		Renews: ent.Renews(), FreeReportsLeft: m.Free.Left, FreeReports: m.Free.Of, UnreadNotices: unread}
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
