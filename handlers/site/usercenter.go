package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// userCenterPage fills what every user-centre screen shows: the user, their
// plan (applied to their reports: Premium opens them, Basic counts its free
// reports) and the navigation.
func (s *Server) userCenterPage(c echo.Context, nav string) (views.UserCenterPage, error) {
	m, err := s.membership(c)
	if err != nil {
		return views.UserCenterPage{}, err
	}
	ent := m.Entitlement
	u, t := httpx.User(c), httpx.Tr(c)
	name := u.Nickname
	if name == "" {
		name = u.Name
	}
	p := views.UserCenterPage{Nav: nav, CSS: s.Assets.URL("static/css/usercenter.css"), Name: name, Tier: string(ent.Tier),
		Ending: ent.CancelAtPeriodEnd, Renews: ent.Renews(), Status: string(ent.Status), FreeLeft: m.Free.Left, FreeOf: m.Free.Of}
	if ent.Tier != subscription.TierGuest && !ent.ValidUntil.IsZero() {
		p.ValidUntil = httpx.Day(ent.ValidUntil)
	}
	for _, n := range []struct{ key, path string }{
		{"home", "/userCenter/home"}, {"reports", "/userCenter/reportList"}, {"notices", "/userCenter/notification"}, {"rights", "/userCenter/rightsInterests"},
		{"settings", "/userCenter/setting"},
	} {
		p.NavLinks = append(p.NavLinks, views.UserNavLink{Key: n.key, Label: t.T("usercenter.nav." + n.key), Href: accountPath(c, n.path)})
	}
	return p, nil
}

// membership is the signed-in member's plan now, applied to their reports
// (subscription.Service.Member). Without a subscription service everyone is
// a guest.
func (s *Server) membership(c echo.Context) (subscription.Membership, error) {
	if s.Subscriptions == nil {
		return subscription.Membership{Entitlement: subscription.Entitlement{Tier: subscription.TierGuest}}, nil
	}
	return s.Subscriptions.Member(c.Request().Context(), httpx.User(c).ID)
}

// ownReports are the user's reports, each unpaid one offering a free report
// while the Basic plan has one left this period.
func (s *Server) ownReports(c echo.Context, p views.UserCenterPage) ([]views.UserReport, error) {
	reports, err := s.UserReports(c)
	if err != nil || p.FreeLeft == 0 {
		return reports, err
	}
	action := httpx.State(c).LocalPath("/userCenter/reportList/unlock")
	for i := range reports {
		if !reports[i].Paid {
			reports[i].UnlockAction = action
		}
	}
	return reports, nil
}

// userCenterHome serves /userCenter and /userCenter/home.
func (s *Server) userCenterHome(c echo.Context) error {
	p, err := s.userCenterPage(c, "home")
	if err != nil {
		return err
	}
	reports, err := s.ownReports(c, p)
	if err != nil {
		return err
	}
	if len(reports) > 0 {
		p.Latest = &reports[0]
	}
	home := httpx.State(c).Home.String()
	p.TestHref = accountPath(c, "/answer/question/"+home)
	p.Quick = []views.AccountLink{
		link(c, "usercenter.quick.tests", "/tests/"+home, "quick-tests"),
		link(c, "usercenter.quick.types", "/types/"+home, "quick-types"),
		link(c, "usercenter.quick.retrieve", "/report/retrieve/"+home, "quick-retrieve"),
		link(c, "usercenter.quick.result", "/userCenter/resultReport", "quick-result"),
		link(c, "usercenter.quick.settings", "/userCenter/setting", "quick-settings"),
		link(c, "usercenter.quick.help", "/help/"+home, "quick-help"),
	}
	p.Benefits = benefitLinks(c, subscription.Offered(subscription.Tier(p.Tier)))
	if err := s.homeNotices(c, &p); err != nil {
		return err
	}
	if err := s.homePlan(c, &p); err != nil {
		return err
	}
	p.Links = []views.AccountLink{
		link(c, "usercenter.settings", "/userCenter/setting", "link-settings"),
		link(c, "usercenter.more.profile", "/userCenter/user-info", "link-profile"),
		link(c, "usercenter.help", "/help/"+home, "link-help"),
	}
	return s.Render(c, http.StatusOK, views.UserCenterHome(p))
}

// userCenterReports serves /userCenter/reportList: the tabs completed
// (open: paid, or unlocked by the plan) and pending payment.
func (s *Server) userCenterReports(c echo.Context) error {
	p, err := s.userCenterPage(c, "reports")
	if err != nil {
		return err
	}
	reports, err := s.ownReports(c, p)
	if err != nil {
		return err
	}
	for _, r := range reports {
		if r.Paid {
			p.Completed = append(p.Completed, r)
		} else {
			p.Pending = append(p.Pending, r)
		}
	}
	p.Tab = "completed"
	if c.QueryParam("tab") == "pending" {
		p.Tab = "pending"
	}
	base := accountPath(c, "/userCenter/reportList")
	p.CompletedHref, p.PendingHref = base, base+"?tab=pending"
	return s.Render(c, http.StatusOK, views.UserReportList(p))
}

// userCenterRights serves /userCenter/rightsInterests: every tier's
// benefits that ship today, each linked to where it is used, the user's
// own tier marked.
func (s *Server) userCenterRights(c echo.Context) error {
	p, err := s.userCenterPage(c, "rights")
	if err != nil {
		return err
	}
	for _, tier := range subscription.Tiers {
		p.Tiers = append(p.Tiers, views.UserTier{Tier: string(tier), Current: string(tier) == p.Tier,
			Benefits: benefitLinks(c, subscription.Offered(tier))})
	}
	return s.Render(c, http.StatusOK, views.UserRights(p))
}

// benefitLinks words benefits, each linked to where it is used on the
// request's site and locale.
func benefitLinks(c echo.Context, bs []subscription.Benefit) []views.UserBenefit {
	t, st := httpx.Tr(c), httpx.State(c)
	out := make([]views.UserBenefit, len(bs))
	for i, b := range bs {
		out[i] = views.UserBenefit{Key: b.Key, Label: t.T("usercenter.benefit." + b.Key), Href: st.LocalPath(b.Path(st.Home.String()))}
	}
	return out
}
