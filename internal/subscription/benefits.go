package subscription

// Benefit is something a tier lets a customer use. Key names its text
// (usercenter.benefit.<key>); Tier is the least tier that has it.
type Benefit struct {
	Key  string
	Tier Tier
}

// Tiers are the tiers from least to most.
var Tiers = []Tier{TierGuest, TierBasic, TierPremium}

// Benefits are the benefits of every tier, from least to most: a tier has
// its own and those of the tiers below it. Premium's are the spec's.
var Benefits = []Benefit{
	{"free_test", TierGuest},
	{"buy_report", TierGuest},
	{"retrieve", TierGuest},
	{"report_library", TierBasic},
	{"free_tests", TierBasic},
	{"free_courses", TierBasic},
	{"unlimited_tests", TierPremium},
	{"all_assessments", TierPremium},
	{"full_courses", TierPremium},
	{"map_profile", TierPremium},
	{"exclusive_reports", TierPremium},
	{"priority_support", TierPremium},
	{"advanced_analytics", TierPremium},
	{"daily_push", TierPremium},
	{"games_articles", TierPremium},
	{"reports_anytime", TierPremium},
}

// Includes reports whether tier t has what tier o has.
func (t Tier) Includes(o Tier) bool { return t.rank() >= o.rank() }

// BenefitsOf lists the benefits a tier has.
func BenefitsOf(t Tier) []Benefit {
	var out []Benefit
	for _, b := range Benefits {
		if t.Includes(b.Tier) {
			out = append(out, b)
		}
	}
	return out
}
