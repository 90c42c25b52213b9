package subscription_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"selfmap/internal/ids"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

// TestPlansOpenTheirMembersReports: Premium opens every own report and what
// it opened stays open once it lapses; Basic opens FreeReportsPerPeriod a
// period and refuses more until the next one; nobody opens another
// member's report.
func TestPlansOpenTheirMembersReports(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		user := func(name string) string {
			t.Helper()
			id := ids.New()
			now := f.clock.Now()
			if err := st.CreateUser(ctx, st.DB, store.User{ID: id, Email: name + "@example.com", Name: name, PasswordHash: "x",
				SessionGen: 1, CreatedAt: now, UpdatedAt: now}); err != nil {
				t.Fatal(err)
			}
			return id
		}
		result := func(owner string) string {
			t.Helper()
			id := ids.New()
			storetest.Buy(t, st, storetest.Purchase{ResultID: id, At: f.clock.Now()})
			if err := st.ClaimResults(ctx, st.DB, owner, []string{id}); err != nil {
				t.Fatal(err)
			}
			return id
		}
		open := func(id string) bool {
			t.Helper()
			ok, err := st.ReportOpen(ctx, st.DB, id)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		member := func(id string) subscription.Membership {
			t.Helper()
			m, err := f.svc.Member(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		subscribe := func(customer, plan string) store.Subscription {
			t.Helper()
			in := f.input(customer, f.card(t, "4242424242424242"))
			in.PlanID = plan
			sub, err := f.svc.PayNow(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			return sub
		}

		// Premium opens the member's reports, and keeps them open after it ends.
		ann := user("ann")
		a1 := result(ann)
		if m := member(ann); m.Tier != subscription.TierGuest || open(a1) {
			t.Fatalf("a free account opened its report: %+v", m)
		}
		subscribe(ann, "premium-monthly")
		if m := member(ann); m.Tier != subscription.TierPremium || !open(a1) || m.Free.Of != 0 {
			t.Fatalf("premium did not open the member's report: %+v", m)
		}
		if u, err := st.GetReportUnlock(ctx, st.DB, a1); err != nil || u.How != store.UnlockPremium || u.UserID != ann {
			t.Fatalf("unlock row: %+v %v", u, err)
		}
		f.clock.Add(120 * 24 * time.Hour)
		if m := member(ann); m.Tier != subscription.TierGuest || !open(a1) {
			t.Fatalf("a lapsed premium lost what it opened: %+v", m)
		}
		a2 := result(ann)
		if member(ann); open(a2) {
			t.Fatal("a lapsed premium opened a new report")
		}
		if err := f.svc.UseFreeReport(ctx, ann, a2); !errors.Is(err, subscription.ErrNoFreeReports) {
			t.Fatalf("a free account used a free report: %v", err)
		}

		// Basic: one free report a period, then refused until the next.
		bob := user("bob")
		b1, b2 := result(bob), result(bob)
		sub := subscribe(bob, "basic-weekly")
		if m := member(bob); m.Free != (subscription.FreeReports{Left: subscription.FreeReportsPerPeriod, Of: subscription.FreeReportsPerPeriod}) {
			t.Fatalf("basic's free reports: %+v", m.Free)
		}
		if open(b1) {
			t.Fatal("basic opened a report by itself")
		}
		if err := f.svc.UseFreeReport(ctx, bob, a2); !errors.Is(err, subscription.ErrReportNotFound) {
			t.Fatalf("another member's report: %v", err)
		}
		if err := f.svc.UseFreeReport(ctx, bob, "no-such-result"); !errors.Is(err, subscription.ErrReportNotFound) {
			t.Fatalf("an unknown report: %v", err)
		}
		if open(a2) {
			t.Fatal("another member's report opened")
		}
		if err := f.svc.UseFreeReport(ctx, bob, b1); err != nil || !open(b1) {
			t.Fatalf("use a free report: %v", err)
		}
		if m := member(bob); m.Free.Left != subscription.FreeReportsPerPeriod-1 {
			t.Fatalf("the counter did not go down: %+v", m.Free)
		}
		if err := f.svc.UseFreeReport(ctx, bob, b1); err != nil {
			t.Fatalf("an open report again: %v", err)
		}
		if err := f.svc.UseFreeReport(ctx, bob, b2); !errors.Is(err, subscription.ErrNoFreeReportLeft) || open(b2) {
			t.Fatalf("a second free report in one period: %v", err)
		}
		f.clock.Set(sub.CurrentPeriodEnd.Add(time.Minute))
		f.run(t)
		if m := member(bob); m.Tier != subscription.TierBasic || m.Free.Left != subscription.FreeReportsPerPeriod {
			t.Fatalf("the next period's free reports: %+v", m)
		}
		if err := f.svc.UseFreeReport(ctx, bob, b2); err != nil || !open(b2) {
			t.Fatalf("the next period's free report: %v", err)
		}
	})
}
