package handlers

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/internal/exam"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// now is the time as the subscription service sees it (its clock is
// injected, so tests walk through renewals and period ends); without that
// service, the account service's clock.
func (s *Server) now() time.Time {
	if s.Subscriptions == nil || s.Subscriptions.Now == nil {
		return s.Accounts.Now().UTC()
	}
	return s.Subscriptions.Now().UTC()
}

// entitlement is the signed-in user's tier now; the user's id is their
// customer id. Without a subscription service everyone is a guest.
func (s *Server) entitlement(c echo.Context) (subscription.Entitlement, error) {
	if s.Subscriptions == nil {
		return subscription.Entitlement{Tier: subscription.TierGuest}, nil
	}
	return s.Subscriptions.Entitlement(c.Request().Context(), user(c).ID, s.now())
}

// userCenterPage fills what every user-centre screen shows: the user, their
// tier and the footer bar.
func (s *Server) userCenterPage(c echo.Context, nav string) (views.UserCenterPage, error) {
	ent, err := s.entitlement(c)
	if err != nil {
		return views.UserCenterPage{}, err
	}
	u, t := user(c), tr(c)
	name := u.Nickname
	if name == "" {
		name = u.Name
	}
	p := views.UserCenterPage{Nav: nav, CSS: s.Assets.URL("static/css/usercenter.css"), Name: name, Tier: string(ent.Tier),
		Ending: ent.CancelAtPeriodEnd, Status: string(ent.Status)}
	if ent.Tier != subscription.TierGuest && !ent.ValidUntil.IsZero() {
		p.ValidUntil = ent.ValidUntil.UTC().Format("2006-01-02")
	}
	for _, n := range []struct{ key, path string }{
		{"home", "/userCenter/home"}, {"reports", "/userCenter/reportList"}, {"notices", "/userCenter/notification"}, {"rights", "/userCenter/rightsInterests"},
		{"settings", "/userCenter/setting"},
	} {
		p.NavLinks = append(p.NavLinks, views.UserNavLink{Key: n.key, Label: t.T("usercenter.nav." + n.key), Href: accountPath(c, n.path)})
	}
	return p, nil
}

// userReports lists the user's results, newest first, each with its links.
func (s *Server) userReports(c echo.Context) ([]views.UserReport, error) {
	own, err := s.Accounts.Reports(c.Request().Context(), user(c).ID)
	if err != nil {
		return nil, err
	}
	st, t := state(c), tr(c)
	out := make([]views.UserReport, 0, len(own))
	for _, o := range own {
		r := o.Result
		letters, _, _ := strings.Cut(r.ResultCode, "-")
		p := exam.Pair{Code: r.PageCode, ExamID: r.ExamID}.String()
		q := "?r=" + urlQueryEscape(r.ID)
		out = append(out, views.UserReport{
			ID: r.ID, Letters: letters, Title: t.T("type." + letters + ".title"), Date: r.CreatedAt.UTC().Format("2006-01-02"),
			Paid:      o.Paid,
			ViewHref:  st.LocalPath("/report/result/"+p) + q,
			PayHref:   st.LocalPath("/paying/buyreport/"+p) + q,
			ShareHref: st.LocalPath("/types/" + p + "/" + strings.ToLower(letters)),
		})
	}
	return out, nil
}

// userCenterHome serves /userCenter and /userCenter/home.
func (s *Server) userCenterHome(c echo.Context) error {
	p, err := s.userCenterPage(c, "home")
	if err != nil {
		return err
	}
	reports, err := s.userReports(c)
	if err != nil {
		return err
	}
	if len(reports) > 0 {
		p.Latest = &reports[0]
	}
	home := state(c).Home.String()
	p.TestHref = accountPath(c, "/answer/question/"+home)
	p.Quick = []views.AccountLink{
		link(c, "usercenter.quick.tests", "/tests/"+home, "quick-tests"),
		link(c, "usercenter.quick.types", "/types/"+home, "quick-types"),
		link(c, "usercenter.quick.retrieve", "/report/retrieve/"+home, "quick-retrieve"),
		link(c, "usercenter.quick.result", "/userCenter/resultReport", "quick-result"),
		link(c, "usercenter.quick.settings", "/userCenter/setting", "quick-settings"),
		link(c, "usercenter.quick.help", "/help/"+home, "quick-help"),
	}
	p.Benefits = benefitTexts(c, subscription.BenefitsOf(subscription.Tier(p.Tier)))
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
	return s.render(c, http.StatusOK, views.UserCenterHome(p))
}

// userCenterReports serves /userCenter/reportList: the tabs completed
// (paid) and pending payment.
func (s *Server) userCenterReports(c echo.Context) error {
	p, err := s.userCenterPage(c, "reports")
	if err != nil {
		return err
	}
	reports, err := s.userReports(c)
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
	return s.render(c, http.StatusOK, views.UserReportList(p))
}

// userCenterRights serves /userCenter/rightsInterests: every tier's
// benefits, the user's own marked.
func (s *Server) userCenterRights(c echo.Context) error {
	p, err := s.userCenterPage(c, "rights")
	if err != nil {
		return err
	}
	for _, tier := range subscription.Tiers {
		p.Tiers = append(p.Tiers, views.UserTier{Tier: string(tier), Current: string(tier) == p.Tier,
			Benefits: benefitTexts(c, subscription.BenefitsOf(tier))})
	}
	return s.render(c, http.StatusOK, views.UserRights(p))
}

func benefitTexts(c echo.Context, bs []subscription.Benefit) []string {
	t := tr(c)
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = t.T("usercenter.benefit." + b.Key)
	}
	return out
}

// apiBenefit is a benefit in the JSON calls.
type apiBenefit struct {
	Key      string `json:"key"`
	Title    string `json:"title"`
	Tier     string `json:"tier"`
	Included bool   `json:"included"`
}

func apiBenefits(c echo.Context, of subscription.Tier) []apiBenefit {
	t := tr(c)
	out := make([]apiBenefit, len(subscription.Benefits))
	for i, b := range subscription.Benefits {
		out[i] = apiBenefit{Key: b.Key, Title: t.T("usercenter.benefit." + b.Key), Tier: string(b.Tier), Included: of.Includes(b.Tier)}
	}
	return out
}

// apiUserPrivilege is GET /api/user/privilege: the user's tier, until when
// and what it includes.
func (s *Server) apiUserPrivilege(c echo.Context) error {
	ent, err := s.entitlement(c)
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
	return s.apiOK(c, out)
}

// apiVipDetail is GET /api/privilege/vip/detail: the benefits of every
// tier, the user's own marked.
func (s *Server) apiVipDetail(c echo.Context) error {
	ent, err := s.entitlement(c)
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
		out.Tiers = append(out.Tiers, tier{Tier: string(t), Current: t == ent.Tier, Title: tr(c).T("usercenter.tier." + string(t)), Benefits: bs})
	}
	return s.apiOK(c, out)
}
