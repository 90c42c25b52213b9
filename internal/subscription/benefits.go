package subscription

import "strings"

// Benefit is something a tier lets a customer use. Key names its text
// (usercenter.benefit.<key>); Tier is the least tier that has it. Link is
// where it is used: a path of the site without its locale prefix, where
// "{pair}" stands for the site's home pair. Shipped says it works end to
// end today: a benefit is listed on a plan page only once it ships (we sell
// only what exists); the issue that builds one sets it.
type Benefit struct {
	Key     string
	Tier    Tier
	Link    string
	Shipped bool
}

// Tiers are the tiers from least to most.
var Tiers = []Tier{TierGuest, TierBasic, TierPremium}

// Benefits are the benefits of every tier, from least to most: a tier has
// its own and those of the tiers below it. Premium's are the spec's; most
// do not ship yet.
var Benefits = []Benefit{
	{"free_test", TierGuest, "/answer/question/{pair}", true},
	{"buy_report", TierGuest, "/userCenter/reportList?tab=pending", true},
	{"retrieve", TierGuest, "/report/retrieve/{pair}", true},
	{"report_library", TierBasic, "/userCenter/reportList", true},
	{"free_reports", TierBasic, "/userCenter/reportList?tab=pending", true},
	{"free_tests", TierBasic, "/tests/{pair}", false},
	{"free_courses", TierBasic, "/userCenter/courseList", false},
	{"unlimited_tests", TierPremium, "/tests/{pair}", false},
	{"all_assessments", TierPremium, "/tests/{pair}", true},
	{"full_courses", TierPremium, "/userCenter/courseList", false},
	{"map_profile", TierPremium, "/userCenter/exploreMore", false},
	{"exclusive_reports", TierPremium, "/userCenter/reportList", false},
	{"priority_support", TierPremium, "/support/{pair}", false},
	{"advanced_analytics", TierPremium, "/userCenter/reportList", false},
	{"daily_push", TierPremium, "/userCenter/growthCenter/dailyQuestion", false},
	{"games_articles", TierPremium, "/userCenter/gameCenter", false},
	{"reports_anytime", TierPremium, "/userCenter/reportList", true},
}

// Includes reports whether tier t has what tier o has.
func (t Tier) Includes(o Tier) bool { return t.rank() >= o.rank() }

// BenefitsOf lists the benefits a tier has, shipped or not.
func BenefitsOf(t Tier) []Benefit {
	var out []Benefit
	for _, b := range Benefits {
		if t.Includes(b.Tier) {
			out = append(out, b)
		}
	}
	return out
}

// Offered lists the benefits a tier has that ship today: what a plan page
// may show.
func Offered(t Tier) []Benefit {
	var out []Benefit
	for _, b := range BenefitsOf(t) {
		if b.Shipped {
			out = append(out, b)
		}
	}
	return out
}

// Path is the benefit's link on a site whose home pair is pair ("BMBTI-1807").
func (b Benefit) Path(pair string) string { return strings.ReplaceAll(b.Link, "{pair}", pair) }
