package views

// UserCenterPage is the view model of the user centre's screens: the home,
// the report list and the benefits. Nav names the footer bar's current
// entry (home, reports, rights).
type UserCenterPage struct {
	Nav string
	CSS string
	// Name greets the user; Tier is guest, basic or premium, ValidUntil the
	// date it lasts to (YYYY-MM-DD, "" for a guest) and Ending says it will
	// not renew.
	Name, Tier, ValidUntil string
	Ending                 bool
	// Latest is the newest report, nil when there is none; TestHref starts
	// a test.
	Latest   *UserReport
	TestHref string
	Quick    []AccountLink
	Benefits []string
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
	// ShareHref is the public page of the type.
	ViewHref, PayHref, ShareHref string
}

// UserTier is a tier with its benefits; Current marks the user's.
type UserTier struct {
	Tier     string
	Current  bool
	Benefits []string
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
