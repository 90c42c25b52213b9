package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
)

// userOrders reads /api/user/order/list.
func (b *browser) userOrders() map[string]struct {
	Status     string
	ReportOpen bool
} {
	b.T.Helper()
	rec := b.Get("/api/user/order/list")
	var body struct {
		Data struct {
			List []struct {
				OrderNumber, Status string
				ReportOpen          bool
			}
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusOK {
		b.T.Fatalf("order list: %d %s", rec.Code, rec.Body.String())
	}
	out := map[string]struct {
		Status     string
		ReportOpen bool
	}{}
	for _, o := range body.Data.List {
		out[o.OrderNumber] = struct {
			Status     string
			ReportOpen bool
		}{o.Status, o.ReportOpen}
	}
	return out
}

// A test finished while signed in is the member's at once; Premium then
// opens its report without a price (page, buy page, free result, list,
// orders), and it stays open once Premium has lapsed. Another member gets
// a missing page.
func TestPremiumOpensTheMembersReports(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		u := k.VerifiedUser(t, "prem@example.com")
		b := newBrowser(t, k.Handler)
		if rec := b.Login(u.Email, apptest.Password); rec.Code != http.StatusSeeOther {
			t.Fatalf("login: %d", rec.Code)
		}
		id, order := b.submitted(b.CSRFToken("/"), 700)
		q := "?r=" + url.QueryEscape(id)
		b.Expect("/answer/submit/BMBTI-1807"+q, http.StatusOK)

		pending := b.Get("/userCenter/reportList?tab=pending").Body.String()
		if !strings.Contains(pending, `data-testid="report-`+id+`"`) {
			t.Fatalf("the signed-in test is not in the report list: %.2000s", pending)
		}
		if o, ok := b.userOrders()[order]; !ok || o.ReportOpen {
			t.Fatalf("the signed-in test's order: %+v %v", o, ok)
		}
		if rec := b.Get("/report/result/BMBTI-1807" + q); rec.Code != http.StatusSeeOther ||
			!strings.Contains(rec.Header().Get("Location"), "/paying/buyreport/") {
			t.Fatalf("an unpaid report without a plan: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		b.Expect("/paying/buyreport/BMBTI-1807"+q, http.StatusOK, `data-testid="buy"`)

		k.ActiveSubscription(t, u.ID, "premium-monthly")
		for _, path := range []string{"/paying/buyreport/BMBTI-1807", "/report/result-free-test/BMBTI-1807"} {
			rec := b.Get(path + q)
			if rec.Code != http.StatusSeeOther || !strings.Contains(rec.Header().Get("Location"), "/report/result/BMBTI-1807") {
				t.Fatalf("%s for premium: %d %s", path, rec.Code, rec.Header().Get("Location"))
			}
		}
		page := b.Expect("/report/result/BMBTI-1807"+q, http.StatusOK, `data-testid="download-pdf"`).Body.String()
		if strings.Contains(page, "/paying/payment") || strings.Contains(page, `data-testid="buy"`) {
			t.Error("premium's report still offers a price")
		}
		completed := b.Get("/userCenter/reportList").Body.String()
		if !strings.Contains(completed, `data-testid="report-`+id+`"`) || !strings.Contains(completed, `data-testid="report-view"`) {
			t.Fatalf("premium's report is not completed: %.2000s", completed)
		}
		if o := b.userOrders()[order]; !o.ReportOpen || o.Status == "paid" {
			t.Fatalf("premium's order: %+v", o)
		}

		// Premium lapses: what it opened stays open.
		k.Clock.Add(120 * 24 * time.Hour)
		b.Expect("/report/result/BMBTI-1807"+q, http.StatusOK, `data-testid="download-pdf"`)

		// Another member, signed in, gets a missing page.
		other := k.VerifiedUser(t, "other@example.com")
		ob := newBrowser(t, k.Handler)
		ob.Login(other.Email, apptest.Password)
		k.ActiveSubscription(t, other.ID, "premium-monthly")
		for _, path := range []string{"/report/result/BMBTI-1807", "/paying/buyreport/BMBTI-1807"} {
			if rec := ob.Get(path + q); rec.Code != http.StatusNotFound {
				t.Errorf("%s of another member: %d", path, rec.Code)
			}
		}
	})
}

// A Basic member uses the period's free report on an unpaid report of
// theirs from the report list; the next one is refused with a message, and
// another member's result answers 404.
func TestBasicUsesAFreeReport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		u := k.VerifiedUser(t, "basic@example.com")
		b := newBrowser(t, k.Handler)
		b.Login(u.Email, apptest.Password)
		token := b.CSRFToken("/")
		first, _ := b.submitted(token, 700)
		b.Get("/answer/submit/BMBTI-1807?r=" + first)
		second, _ := b.submitted(token, 700)
		b.Get("/answer/submit/BMBTI-1807?r=" + second)
		k.ActiveSubscription(t, u.ID, "basic-weekly")

		home := b.Expect("/userCenter", http.StatusOK, `data-testid="uc-free-reports"`, "1 of 1", `data-renews="true"`).Body.String()
		if !strings.Contains(home, "Renews on ") {
			t.Errorf("the home does not say the plan renews: %.2000s", home)
		}
		b.Expect("/userCenter/reportList?tab=pending", http.StatusOK, `data-testid="report-unlock"`)

		rec := b.Submit("/userCenter/reportList?tab=pending", "/userCenter/reportList/unlock", url.Values{"r": {first}})
		if rec.Code != http.StatusSeeOther || !strings.Contains(rec.Header().Get("Location"), "/report/result/") {
			t.Fatalf("use a free report: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		b.Expect("/report/result/BMBTI-1807?r="+first, http.StatusOK, `data-testid="download-pdf"`, "Your full report is open.")
		b.Expect("/userCenter", http.StatusOK, "0 of 1")
		if strings.Contains(b.Get("/userCenter/reportList?tab=pending").Body.String(), `data-testid="report-unlock"`) {
			t.Error("the list still offers a free report with none left")
		}

		rec = b.Submit("/userCenter/reportList?tab=pending", "/userCenter/reportList/unlock", url.Values{"r": {second}})
		if rec.Code != http.StatusSeeOther || !strings.Contains(rec.Header().Get("Location"), "tab=pending") {
			t.Fatalf("a second free report: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		b.Expect("/userCenter/reportList?tab=pending", http.StatusOK, "free report is used")
		if rec := b.Get("/report/result/BMBTI-1807?r=" + second); rec.Code != http.StatusSeeOther {
			t.Fatalf("the refused report opened: %d", rec.Code)
		}

		other := newBrowser(t, k.Handler)
		ou := k.VerifiedUser(t, "basic2@example.com")
		other.Login(ou.Email, apptest.Password)
		k.ActiveSubscription(t, ou.ID, "basic-weekly")
		if rec := other.Submit("/userCenter", "/userCenter/reportList/unlock", url.Values{"r": {second}}); rec.Code != http.StatusNotFound {
			t.Fatalf("another member's report: %d", rec.Code)
		}
		if rec := other.PostForm("/userCenter/reportList/unlock", url.Values{"r": {second}}); rec.Code != http.StatusForbidden {
			t.Errorf("without CSRF: %d", rec.Code)
		}
	})
}
