package views

import "selfmap/internal/content"

// UserCenterPage is the view model of the user centre's screens: the home,
// the report list and the benefits. Nav names the navigation's current
// entry (home, reports, notices, rights, settings): a bar under the header
// on wide screens, fixed at the bottom on phones.
type UserCenterPage struct {
	Nav string
	CSS string
	// Name greets the user; Tier is guest, basic or premium, ValidUntil the
	// date it lasts to (YYYY-MM-DD, "" for a guest), Ending says it was
	// cancelled and Renews that it renews on that date.
	Name, Tier, ValidUntil string
	Ending, Renews         bool
	// FreeLeft of FreeOf are a Basic plan's free reports left this period
	// (both 0 for the other tiers).
	FreeLeft, FreeOf int
	// Status is the subscription's state (trialing, active, past_due, ...;
	// "" for a guest).
	Status string
	// UpgradeHref buys more (plans, or the upgrade for basic); "" for
	// premium. CancelHref is the one-click cancel (the no-JavaScript
	// confirmation and the form's action), "" when nothing renews;
	// CancelProps feed its dialog. Cancelled says a cancel just happened,
	// CancelledUntil until when access lasts ("" when it ended at once).
	UpgradeHref, CancelHref string
	CancelProps             any
	Cancelled               bool
	CancelledUntil          string
	// Unread counts the notices not opened yet; LatestNotice is the newest.
	Unread       int
	NoticesHref  string
	LatestNotice *UserNotice
	// Notices: the list's search (and its message), a page of notices and
	// the pagination; Notice is the one opened, Pair the site's home pair
	// for its links, BackHref the way back.
	Search, SearchError string
	Notices             []UserNotice
	Pager               Pager
	Notice              *UserNotice
	Pair, BackHref      string
	// Others are the reports not shown on the result report page.
	Others      []UserReport
	ReportsHref string
	// Latest is the newest report, nil when there is none; TestHref starts
	// a test.
	Latest   *UserReport
	TestHref string
	Quick    []AccountLink
	Benefits []UserBenefit
	// Links are the settings and help links; NavLinks the footer bar's.
	Links    []AccountLink
	NavLinks []UserNavLink
	// Reports: the list's tab (completed or pending) and both lists.
	Tab                        string
	CompletedHref, PendingHref string
	Completed, Pending         []UserReport
	// Tiers are the benefits of every tier.
	Tiers []UserTier
}

// UserReport is one of the user's results.
type UserReport struct {
	ID, Letters, Title, Date string
	Paid                     bool
	// ViewHref opens a paid report, PayHref buys an unpaid one and
	// ShareHref is the public page of the type. UnlockAction is where an
	// unpaid one posts to use a free report of the plan ("" when none is
	// left or the plan has none).
	ViewHref, PayHref, ShareHref, UnlockAction string
	// SelectHref opens it on the result report page.
	SelectHref string
}

// UserNotice is a service notice. A locked one is above the user's plan:
// its Summary says for whom it is, and it has no body.
type UserNotice struct {
	ID, Title, Summary, Date, Href, Audience string
	Read, Locked                             bool
	Blocks                                   []content.Block
}

// Pager is the pagination of a list: page X of Y, Total items.
type Pager struct {
	Page, Pages, Total int
	PrevHref, NextHref string
}

// UserTier is a tier with its benefits; Current marks the user's.
type UserTier struct {
	Tier     string
	Current  bool
	Benefits []UserBenefit
}

// UserBenefit is a benefit that ships, linked to where it is used.
type UserBenefit struct {
	Key, Label, Href string
}

// UserNavLink is an entry of the footer bar.
type UserNavLink struct {
	Key, Label, Href string
}

func navHref(p UserCenterPage, key string) string {
	for _, l := range p.NavLinks {
		if l.Key == key {
			return l.Href
		}
	}
	return ""
}
