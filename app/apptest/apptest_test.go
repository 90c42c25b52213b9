package apptest_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/store"
)

// The clock stands at its instant until moved, reads the wall clock until
// set when asked to, and is read and moved from many goroutines at once.
func TestClock(t *testing.T) {
	c := apptest.NewClock(apptest.Epoch)
	if !c.Now().Equal(apptest.Epoch) {
		t.Fatalf("a new clock shows %s, want the epoch", c.Now())
	}
	if got := c.Add(time.Hour); !got.Equal(apptest.Epoch.Add(time.Hour)) || !c.Now().Equal(got) {
		t.Fatalf("after an hour: %s", c.Now())
	}
	wall := apptest.WallClock()
	if d := time.Since(wall.Now()); d < 0 || d > time.Minute {
		t.Fatalf("the wall clock is %s off", d)
	}
	wall.Set(apptest.Epoch)
	if !wall.Now().Equal(apptest.Epoch) {
		t.Fatalf("a set wall clock shows %s", wall.Now())
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				c.Add(time.Second)
				c.Now()
			}
		})
	}
	wg.Wait()
	if want := apptest.Epoch.Add(time.Hour + 800*time.Second); !c.Now().Equal(want) {
		t.Errorf("after 800 seconds from 8 goroutines: %s, want %s", c.Now(), want)
	}
}

// The kit's rows are the product's: a verified user signs in with the kit's
// password, a paid report opens for its owner, and subscriptions start on
// the app's sandbox at the kit's time, on both databases.
func TestKit(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		if !k.Clock.Now().Equal(apptest.Epoch) || k.Sandbox(t) == nil {
			t.Fatalf("kit clock %s", k.Clock.Now())
		}
		u := k.VerifiedUser(t, "Kit@Example.com")
		if !u.Verified() || u.Email != "kit@example.com" || !u.CreatedAt.Equal(apptest.Epoch) {
			t.Fatalf("verified user: %+v", u)
		}
		b := k.Browser(t)
		if rec := b.Login("kit@example.com", apptest.Password); rec.Code != http.StatusSeeOther {
			t.Fatalf("log-in: %d", rec.Code)
		}
		b.Expect("/user/info", http.StatusOK, apptest.UserName)

		r := k.PaidReport(t)
		r.Owner.Expect("/report/result/BMBTI-1807?r="+r.ResultID, http.StatusOK, `data-testid="report"`)
		if o, err := k.Store.GetOrderByNumber(ctx, k.Store.DB, r.OrderNumber); err != nil || o.Status != store.OrderPaid {
			t.Fatalf("the report's order: %+v %v", o, err)
		}

		sub := k.ActiveSubscription(t, u.ID, "basic-weekly")
		if sub.Status != "active" || sub.CustomerID != u.ID || sub.Email != u.Email || !sub.CurrentPeriodStart.Equal(apptest.Epoch) {
			t.Fatalf("active subscription: %+v", sub)
		}
		b.Expect("/userCenter", http.StatusOK, `data-tier="basic"`)
		trial := k.TrialSubscription(t, "guest@example.com", "basic-weekly")
		if trial.Status != "trialing" || trial.CustomerID != "guest@example.com" {
			t.Fatalf("trial: %+v", trial)
		}
	})
}
