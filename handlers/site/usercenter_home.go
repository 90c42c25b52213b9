package site

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// flashCancelled carries, from the cancel POST to the home, the date the
// access lasts until ("ended" when it ended at once).
const flashCancelled = "uc_cancelled"

// homeNotices fills the home's notices card: how many the user has not
// opened and the newest they may read.
func (s *Server) homeNotices(c echo.Context, p *views.UserCenterPage) error {
	has := subscription.Tier(p.Tier)
	o, err := s.Notices.Overview(c.Request().Context(), httpx.NoticeReader(c, has))
	if err != nil {
		return err
	}
	p.Unread, p.NoticesHref = o.Unread, httpx.State(c).LocalPath("/userCenter/notification")
	if o.Latest != nil {
		n := httpx.UserNotice(c, *o.Latest, has)
		p.LatestNotice = &n
	}
	return nil
}

// homePlan fills what the home offers for the plan: the way up (plans for
// a free account, the upgrade for basic), the one-click cancel while the
// plan still renews, and what a cancel just did.
func (s *Server) homePlan(c echo.Context, p *views.UserCenterPage) error {
	has := subscription.Tier(p.Tier)
	if has != subscription.TierPremium {
		p.UpgradeHref = httpx.UpgradeHref(c, has)
	}
	if has != subscription.TierGuest && !p.Ending && p.Status != string(subscription.Canceled) {
		p.CancelHref = httpx.State(c).LocalPath("/userCenter/cancel")
		p.CancelProps = cancelProps(c, p.CancelHref, p.ValidUntil)
	}
	until, err := s.TakeFlash(c, flashCancelled)
	if err != nil {
		return err
	}
	if until != "" {
		p.Cancelled, p.CancelledUntil = true, until
		if until == "ended" {
			p.CancelledUntil = ""
		}
	}
	return nil
}

// cancelProps is what the cancel dialog island reads: where to post, the
// CSRF token, the date shown and its messages.
func cancelProps(c echo.Context, action, until string) map[string]any {
	return map[string]any{"action": action, "csrf": httpx.State(c).CSRF, "until": httpx.LongDayOf(c, until), "messages": httpx.Tr(c).Messages("usercenter.cancel.")}
}
