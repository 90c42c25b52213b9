package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/app"
	"selfmap/internal/config"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// newAppServer is newServer on a clock the test moves (set; the wall
// clock until then).
func newAppServer(t *testing.T, s *store.Store) (e *echo.Echo, set func(time.Time)) {
	t.Helper()
	newServer(t, s) // the site and the built-in content
	cfg, err := config.Load(func(k string) string {
		return map[string]string{"DATA_DIR": t.TempDir(), "BASE_URL": "http://selfmap.test"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	var at atomic.Pointer[time.Time]
	now := func() time.Time {
		if p := at.Load(); p != nil {
			return *p
		}
		return time.Now()
	}
	a, err := app.New(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), s, app.WithClock(now))
	if err != nil {
		t.Fatal(err)
	}
	return a.Handler, func(t time.Time) { at.Store(&t) }
}

// One-click cancel from the home: the button opens a confirmation (the
// dialog, or this page without JavaScript), the POST needs the CSRF token,
// cancels the user's own subscription at the period's end and says until
// when; replayed, nothing changes. When the clock passes that date, the
// user is a free account again.
func TestUserCenterCancel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e, setClock := newAppServer(t, s)
		b := newBrowser(t, e)
		b.register("cai@example.com")
		if home := b.expect("/userCenter", http.StatusOK, `href="/paying/scheme/BMBTI-1807"`, "Choose a plan", "All notices").Body.String(); strings.Contains(home, "uc-cancel") {
			t.Fatal("a free account is offered a cancel")
		}
		b.expect("/userCenter/cancel", http.StatusSeeOther)
		id := userID(t, s, "cai@example.com")
		_, sub := subscribeUser(t, s, id, "basic-weekly")
		until := sub.CurrentPeriodEnd.UTC().Format("2006-01-02")
		b.expect("/userCenter", http.StatusOK, `data-testid="uc-cancel"`, `data-island="cancel"`, `id="cancel-props"`,
			`href="/paying/upgrade/BMBTI-1807"`, "Upgrade to Premium", "Cancel subscription")
		b.expect("/userCenter/cancel", http.StatusOK, `data-testid="uc-cancel-confirm"`, "You keep access until "+until, `name="_csrf"`)

		// A stranger cannot cancel it: without the token nothing happens,
		// and another user's POST cancels only their own (none).
		if rec := b.postForm("/userCenter/cancel", url.Values{}); rec.Code != http.StatusForbidden {
			t.Fatalf("cancel without CSRF: %d", rec.Code)
		}
		c := newBrowser(t, e)
		c.register("dan@example.com")
		if rec := c.submit("/userCenter", "/userCenter/cancel", url.Values{}); rec.Code != http.StatusSeeOther {
			t.Fatalf("another user's cancel: %d", rec.Code)
		}
		if got, _ := s.GetSubscription(ctx, s.DB, sub.ID); got.CancelAtPeriodEnd {
			t.Fatal("another user's POST cancelled the subscription")
		}

		rec := b.submit("/userCenter", "/userCenter/cancel", url.Values{})
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/userCenter/home" {
			t.Fatalf("cancel: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		done := b.expect("/userCenter/home", http.StatusOK, `data-testid="uc-cancelled"`,
			"Your subscription is cancelled. You keep access until "+until+", and nothing more will be charged.").Body.String()
		if strings.Contains(done, `data-testid="uc-cancel"`) {
			t.Error("the cancel button is still offered")
		}
		first, _ := s.GetSubscription(ctx, s.DB, sub.ID)
		if !first.CancelAtPeriodEnd || first.Status != "active" || !first.CanceledAt.Valid {
			t.Fatalf("after cancel: %+v", first)
		}
		// Replayed: the same answer, nothing changed.
		rec = b.submit("/userCenter", "/userCenter/cancel", url.Values{})
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("replayed cancel: %d", rec.Code)
		}
		again, _ := s.GetSubscription(ctx, s.DB, sub.ID)
		if again.Version != first.Version || !again.CanceledAt.Time.Equal(first.CanceledAt.Time) {
			t.Fatalf("the replay changed the subscription: %+v", again)
		}
		b.expect("/userCenter/home", http.StatusOK, "basic", "Valid until "+until)

		// The day after the period, by the one clock: a free account.
		setClock(sub.CurrentPeriodEnd.Add(24 * time.Hour))
		if m := tierOf.FindStringSubmatch(b.get("/userCenter").Body.String()); m == nil || m[1] != "guest" {
			t.Fatalf("after the period the tier is %v", m)
		}
	})
}

// The other user-centre screens answer on both paths, and the calls carry
// only the user's own objects.
func TestUserCenterScreensAndCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		e := newServer(t, s)
		a := newBrowser(t, e)
		resultID, _ := a.paidReport(a.csrfToken("/"))
		a.register("rae@example.com")
		a.expect("/userCenter/resultReport", http.StatusOK, "My result report", "All my reports", `data-testid="report-`+resultID+`"`, "/report/result/BMBTI-1807?r="+resultID,
			`data-testid="report-share"`)
		a.expect("/userCenter/resultReport?r="+resultID, http.StatusOK, "report-"+resultID)
		a.expect("/userCenter/resultReport?r=nope", http.StatusNotFound)
		for _, path := range []string{"/userCenter/setting", "/user/setting"} {
			a.expect(path, http.StatusOK, `data-testid="delete-form"`, `data-testid="logout"`, `data-testid="export"`,
				`data-testid="link-edit-password"`, `data-testid="link-avatar"`, `href="/help/BMBTI-1807"`, `href="/legal/privacy/BMBTI-1807"`,
				`href="/legal/terms/BMBTI-1807"`)
		}
		a.expect("/userCenter/user-info", http.StatusOK, `name="nickname"`)
		// No screen shows a message id in place of its text.
		rawID := regexp.MustCompile(`>\s*(usercenter|account)\.[a-z_.]+\s*<`)
		for _, path := range []string{"/userCenter", "/userCenter/resultReport", "/userCenter/notification", "/userCenter/setting",
			"/userCenter/reportList", "/userCenter/rightsInterests", "/ko/userCenter", "/zh-hk/userCenter/notification"} {
			if m := rawID.FindString(a.get(path).Body.String()); m != "" {
				t.Errorf("%s shows %s", path, m)
			}
		}
		a.expect("/userCenter/user-info?x=1", http.StatusOK, `name="nickname"`)

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
		if err := json.Unmarshal(a.get("/api/user/center/data").Body.Bytes(), &data); err != nil || data.Result != 200 ||
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
		if err := json.Unmarshal(a.get("/api/user/order/list").Body.Bytes(), &orders); err != nil || orders.Result != 200 ||
			len(orders.Data.List) == 0 || orders.Data.List[0].ResultID != resultID {
			t.Fatalf("order list: %v %+v", err, orders)
		}
		var latest struct {
			Result int
			Data   *struct{ OrderNumber, ResultID string }
		}
		if err := json.Unmarshal(a.get("/api/user/order/laster").Body.Bytes(), &latest); err != nil || latest.Data == nil ||
			latest.Data.ResultID != resultID {
			t.Fatalf("latest order: %v %+v", err, latest)
		}

		b := newBrowser(t, e)
		b.register("sol@example.com")
		b.expect("/userCenter/resultReport?r="+resultID, http.StatusNotFound)
		b.expect("/userCenter/resultReport", http.StatusOK, "You have no reports yet.")
		if body := b.get("/api/user/order/list").Body.String(); strings.Contains(body, resultID) || !strings.Contains(body, `"list":[]`) {
			t.Errorf("another user's orders: %s", body)
		}
		if body := b.get("/api/user/order/laster").Body.String(); !strings.Contains(body, `"data":null`) {
			t.Errorf("another user's latest order: %s", body)
		}
		if body := b.get("/api/user/center/data").Body.String(); strings.Contains(body, resultID) {
			t.Errorf("another user's centre data: %s", body)
		}
		anon := newBrowser(t, e)
		for _, path := range []string{"/api/user/center/data", "/api/user/order/list", "/api/user/order/laster"} {
			if rec := anon.get(path); rec.Code != http.StatusUnauthorized {
				t.Errorf("%s for a visitor: %d", path, rec.Code)
			}
		}
		for _, path := range []string{"/userCenter/resultReport", "/userCenter/setting", "/userCenter/user-info", "/userCenter/notification"} {
			if rec := anon.get(path); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/login" {
				t.Errorf("%s for a visitor: %d", path, rec.Code)
			}
		}
	})
}
