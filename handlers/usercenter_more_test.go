package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
)

// One-click cancel from the home: the button opens a confirmation (the
// dialog, or this page without JavaScript), the POST needs the CSRF token,
// cancels the user's own subscription at the period's end and says until
// when; replayed, nothing changes. When the clock passes that date, the
// user is a free account again.
func TestUserCenterCancel(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)
		b.register("cai@example.com")
		if home := b.Expect("/userCenter", http.StatusOK, `href="/paying/scheme/BMBTI-1807"`, "Choose a plan", "All notices").Body.String(); strings.Contains(home, "uc-cancel") {
			t.Fatal("a free account is offered a cancel")
		}
		b.Expect("/userCenter/cancel", http.StatusSeeOther)
		id := userID(t, s, "cai@example.com")
		sub := k.ActiveSubscription(t, id, "basic-weekly")
		until := localDay("en", sub.CurrentPeriodEnd)
		b.Expect("/userCenter", http.StatusOK, `data-testid="uc-cancel"`, `data-island="cancel"`, `id="cancel-props"`,
			`href="/paying/upgrade/BMBTI-1807"`, "Upgrade to Premium", "Cancel subscription")
		b.Expect("/userCenter/cancel", http.StatusOK, `data-testid="uc-cancel-confirm"`, "You keep access until "+until, `name="_csrf"`)

		// A stranger cannot cancel it: without the token nothing happens,
		// and another user's POST cancels only their own (none).
		if rec := b.PostForm("/userCenter/cancel", url.Values{}); rec.Code != http.StatusForbidden {
			t.Fatalf("cancel without CSRF: %d", rec.Code)
		}
		c := newBrowser(t, e)
		c.register("dan@example.com")
		if rec := c.Submit("/userCenter", "/userCenter/cancel", url.Values{}); rec.Code != http.StatusSeeOther {
			t.Fatalf("another user's cancel: %d", rec.Code)
		}
		if got, _ := s.GetSubscription(ctx, s.DB, sub.ID); got.CancelAtPeriodEnd {
			t.Fatal("another user's POST cancelled the subscription")
		}

		rec := b.Submit("/userCenter", "/userCenter/cancel", url.Values{})
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/userCenter/home" {
			t.Fatalf("cancel: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		done := b.Expect("/userCenter/home", http.StatusOK, `data-testid="uc-cancelled"`,
			"Your subscription is cancelled. You keep access until "+until+"; it will not renew, and nothing more will be charged.").Body.String()
		if strings.Contains(done, `data-testid="uc-cancel"`) {
			t.Error("the cancel button is still offered")
		}
		first, _ := s.GetSubscription(ctx, s.DB, sub.ID)
		if !first.CancelAtPeriodEnd || first.Status != "active" || !first.CanceledAt.Valid {
			t.Fatalf("after cancel: %+v", first)
		}
		// Replayed: the same answer, nothing changed.
		rec = b.Submit("/userCenter", "/userCenter/cancel", url.Values{})
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("replayed cancel: %d", rec.Code)
		}
		again, _ := s.GetSubscription(ctx, s.DB, sub.ID)
		if again.Version != first.Version || !again.CanceledAt.Time.Equal(first.CanceledAt.Time) {
			t.Fatalf("the replay changed the subscription: %+v", again)
		}
		b.Expect("/userCenter/home", http.StatusOK, "basic", "Ends on "+until+", will not renew")

		// The day after the period, by the one clock: a free account.
		k.Clock.Set(sub.CurrentPeriodEnd.Add(24 * time.Hour))
		if m := tierOf.FindStringSubmatch(b.Get("/userCenter").Body.String()); m == nil || m[1] != "guest" {
			t.Fatalf("after the period the tier is %v", m)
		}
	})
}

// The other user-centre screens answer on both paths, and the calls carry
// only the user's own objects.
func TestUserCenterScreensAndCalls(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		r := k.PaidReport(t)
		a, resultID := &browser{r.Owner}, r.ResultID
		a.register("rae@example.com")
		a.Expect("/userCenter/resultReport", http.StatusOK, "My result report", "All my reports", `data-testid="report-`+resultID+`"`, "/report/result/BMBTI-1807?r="+resultID,
			`data-testid="report-share"`)
		a.Expect("/userCenter/resultReport?r="+resultID, http.StatusOK, "report-"+resultID)
		a.Expect("/userCenter/resultReport?r=nope", http.StatusNotFound)
		for _, path := range []string{"/userCenter/setting", "/user/setting"} {
			a.Expect(path, http.StatusOK, `data-testid="delete-form"`, `data-testid="logout"`, `data-testid="export"`,
				`data-testid="link-edit-password"`, `data-testid="link-avatar"`, `href="/help/BMBTI-1807"`, `href="/legal/privacy/BMBTI-1807"`,
				`href="/legal/terms/BMBTI-1807"`)
		}
		a.Expect("/userCenter/user-info", http.StatusOK, `name="nickname"`)
		// No screen shows a message id in place of its text.
		rawID := regexp.MustCompile(`>\s*(usercenter|account)\.[a-z_.]+\s*<`)
		for _, path := range []string{"/userCenter", "/userCenter/resultReport", "/userCenter/notification", "/userCenter/setting",
			"/userCenter/reportList", "/userCenter/rightsInterests", "/ko/userCenter", "/zh-hk/userCenter/notification"} {
			if m := rawID.FindString(a.Get(path).Body.String()); m != "" {
				t.Errorf("%s shows %s", path, m)
			}
		}
		a.Expect("/userCenter/user-info?x=1", http.StatusOK, `name="nickname"`)

		var data struct {
			Result int
			Data   struct {
				Tier             string
				UnreadNotices    int
				CompletedReports int
				LatestReport     *struct{ ID string }
				UpgradeURL       string
			}
		}
		if err := json.Unmarshal(a.Get("/api/user/center/data").Body.Bytes(), &data); err != nil || data.Result != 200 ||
			data.Data.Tier != "guest" || data.Data.CompletedReports != 1 || data.Data.LatestReport == nil ||
			data.Data.LatestReport.ID != resultID || data.Data.UpgradeURL != "/paying/scheme/BMBTI-1807" {
			t.Fatalf("center data: %v %+v", err, data)
		}
		var orders struct {
			Result int
			Data   struct {
				List []struct{ OrderNumber, ResultID, Status string }
			}
		}
		if err := json.Unmarshal(a.Get("/api/user/order/list").Body.Bytes(), &orders); err != nil || orders.Result != 200 ||
			len(orders.Data.List) == 0 || orders.Data.List[0].ResultID != resultID {
			t.Fatalf("order list: %v %+v", err, orders)
		}
		var latest struct {
			Result int
			Data   *struct{ OrderNumber, ResultID string }
		}
		if err := json.Unmarshal(a.Get("/api/user/order/laster").Body.Bytes(), &latest); err != nil || latest.Data == nil ||
			latest.Data.ResultID != resultID {
			t.Fatalf("latest order: %v %+v", err, latest)
		}

		b := newBrowser(t, e)
		b.register("sol@example.com")
		b.Expect("/userCenter/resultReport?r="+resultID, http.StatusNotFound)
		b.Expect("/userCenter/resultReport", http.StatusOK, "You have no reports yet.")
		if body := b.Get("/api/user/order/list").Body.String(); strings.Contains(body, resultID) || !strings.Contains(body, `"list":[]`) {
			t.Errorf("another user's orders: %s", body)
		}
		if body := b.Get("/api/user/order/laster").Body.String(); !strings.Contains(body, `"data":null`) {
			t.Errorf("another user's latest order: %s", body)
		}
		if body := b.Get("/api/user/center/data").Body.String(); strings.Contains(body, resultID) {
			t.Errorf("another user's centre data: %s", body)
		}
		anon := newBrowser(t, e)
		for _, path := range []string{"/api/user/center/data", "/api/user/order/list", "/api/user/order/laster"} {
			if rec := anon.Get(path); rec.Code != http.StatusUnauthorized {
				t.Errorf("%s for a visitor: %d", path, rec.Code)
			}
		}
		for _, path := range []string{"/userCenter/resultReport", "/userCenter/setting", "/userCenter/user-info", "/userCenter/notification"} {
			if rec := anon.Get(path); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/login?next="+url.QueryEscape(path) {
				t.Errorf("%s for a visitor: %d", path, rec.Code)
			}
		}
	})
}
