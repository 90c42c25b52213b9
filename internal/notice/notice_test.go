package notice

import (
	"slices"
	"testing"

	"selfmap/internal/subscription"
)

// Every locale ships the English notices, and each audience is read by its
// tier and those above it only.
func TestShippedNoticesAndAudiences(t *testing.T) {
	all, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 9 || len(all["en"]) < 3 {
		t.Fatalf("%d locales, %d English notices", len(all), len(all["en"]))
	}
	for _, tc := range []struct {
		tier subscription.Tier
		want []string
	}{
		{subscription.TierGuest, []string{AudienceAll}},
		{subscription.TierBasic, []string{AudienceAll, AudienceBasic}},
		{subscription.TierPremium, []string{AudienceAll, AudienceBasic, AudiencePremium}},
	} {
		if got := For(tc.tier); !slices.Equal(got, tc.want) {
			t.Errorf("For(%s) = %v, want %v", tc.tier, got, tc.want)
		}
	}
	if Required("premium") != subscription.TierPremium || Required("all") != subscription.TierGuest {
		t.Error("Required maps audiences wrongly")
	}
}
