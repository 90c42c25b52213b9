package account_test

import (
	"context"
	"testing"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// The account lists the results joined to it, each with whether its report
// is paid, and owns those and no others.
func TestReportsAndOwnership(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, clk := newService(s)
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r-paid", Code: "INTJ", ResultEmail: "dee@example.com", Report: "paid",
			ReportEmail: "dee@example.com", At: clk.now.Add(-time.Hour)})
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r-free", Code: "ENFP", ResultEmail: "dee@example.com", At: clk.now.Add(-time.Minute)})
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r-other", Code: "ISTP", ResultEmail: "other@example.com", At: clk.now})
		u := register(t, svc, "dee@example.com")
		if _, msg, err := svc.VerifyAddress(ctx, "dee@example.com", lastCode(t, s, "dee@example.com")); msg != "" || err != nil {
			t.Fatal(msg, err)
		}
		own, err := svc.Reports(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(own) != 2 || own[0].Result.ID != "r-free" || own[0].Paid || own[1].Result.ID != "r-paid" || !own[1].Paid {
			t.Fatalf("reports = %+v; want r-free unpaid, then r-paid paid", own)
		}
		for id, want := range map[string]bool{"r-paid": true, "r-free": true, "r-other": false, "no-such-result": false} {
			if got, err := svc.OwnsResult(ctx, u.ID, id); err != nil || got != want {
				t.Errorf("OwnsResult(%s) = %v, %v; want %v", id, got, err, want)
			}
		}
		if got, err := svc.OwnsResult(ctx, "", "r-other"); err != nil || got {
			t.Errorf("nobody owns an unclaimed result: %v, %v", got, err)
		}
	})
}
