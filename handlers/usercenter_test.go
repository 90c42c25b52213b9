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
	"selfmap/internal/ids"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

func userID(t *testing.T, s *store.Store, email string) string {
	t.Helper()
	u, err := s.GetUserByEmail(context.Background(), s.DB, email)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

type privilege struct {
	Result int
	Data   struct {
		Tier       string
		Vip        bool
		ValidUntil *time.Time
		Benefits   []struct {
			Key      string
			Included bool
		}
	}
}

func (b *browser) privilege() privilege {
	b.T.Helper()
	rec := b.Get("/api/user/privilege")
	var p privilege
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &p) != nil || p.Result != 200 {
		b.T.Fatalf("privilege: %d %s", rec.Code, rec.Body.String())
	}
	return p
}

func included(p privilege) int {
	n := 0
	for _, b := range p.Data.Benefits {
		if b.Included {
			n++
		}
	}
	return n
}

// A visitor who is not signed in is sent to log in, told why; the calls
// answer 401 in the envelope.
func TestUserCenterNeedsLogin(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		b := newBrowser(t, e)
		for _, path := range []string{"/userCenter", "/userCenter/home", "/userCenter/reportList", "/userCenter/rightsInterests"} {
			rec := b.Get(path)
			if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/login?next="+url.QueryEscape(path) {
				t.Fatalf("%s: %d %s", path, rec.Code, rec.Header().Get("Location"))
			}
			if page := b.Get("/user/login"); !strings.Contains(page.Body.String(), "Please login first") {
				t.Fatalf("%s: the log-in page does not say why", path)
			}
		}
		if rec := b.Get("/fr/userCenter"); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/fr/user/login?next=%2Ffr%2FuserCenter" {
			t.Fatalf("/fr/userCenter: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		for _, path := range []string{"/api/user/privilege", "/api/privilege/vip/detail"} {
			rec := b.Get(path)
			if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), `"result":401`) ||
				!strings.Contains(rec.Body.String(), "Please login first") {
				t.Fatalf("%s: %d %s", path, rec.Code, rec.Body.String())
			}
		}
	})
}

var tierOf = regexp.MustCompile(`data-testid="uc-status" data-tier="(\w+)"`)

// The home and the benefits follow the user's entitlement: guest, then
// basic, then premium, with the date it is valid until.
func TestUserCenterTiers(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)
		b.register("uma@example.com")
		id := userID(t, s, "uma@example.com")
		tier := func() string {
			rec := b.Get("/userCenter")
			m := tierOf.FindStringSubmatch(rec.Body.String())
			if rec.Code != http.StatusOK || m == nil {
				t.Fatalf("/userCenter: %d %.600s", rec.Code, rec.Body.String())
			}
			return m[1]
		}
		if got := tier(); got != "guest" {
			t.Fatalf("a new account is %s", got)
		}
		home := b.Get("/userCenter/home").Body.String()
		for _, want := range []string{"Hello, Ada Lovelace", "You have no reports yet.", `data-testid="quick-tests"`, `data-testid="quick-types"`,
			`data-testid="quick-retrieve"`, `data-testid="quick-settings"`, `data-testid="quick-help"`, "Take the free personality test",
			`data-testid="uc-footer"`, "css/usercenter."} {
			if !strings.Contains(home, want) {
				t.Errorf("guest home lacks %q", want)
			}
		}
		if strings.Contains(home, "Unlimited tests") || strings.Contains(home, "uc-valid-until") {
			t.Error("a guest is shown premium benefits or a date")
		}
		guest := b.privilege()
		if guest.Data.Tier != "guest" || guest.Data.ValidUntil != nil || guest.Data.Vip {
			t.Fatalf("guest privilege: %+v", guest.Data)
		}

		sub := k.ActiveSubscription(t, id, "basic-weekly")
		if got := tier(); got != "basic" {
			t.Fatalf("after subscribing to basic: %s", got)
		}
		home = b.Get("/userCenter").Body.String()
		until := localDay("en", k.Clock.Now().AddDate(0, 0, 28))
		if !strings.Contains(home, "Renews on "+until) || !strings.Contains(home, "All your reports in one place") ||
			strings.Contains(home, "Unlimited tests") {
			t.Errorf("basic home: %.3000s", home)
		}
		basic := b.privilege()
		if basic.Data.Tier != "basic" || basic.Data.ValidUntil == nil || basic.Data.Vip || included(basic) <= included(guest) {
			t.Fatalf("basic privilege: %+v", basic.Data)
		}
		rights := b.Get("/userCenter/rightsInterests").Body.String()
		if !regexp.MustCompile(`data-testid="tier-basic"[^>]*aria-current="true"`).MatchString(rights) ||
			regexp.MustCompile(`data-testid="tier-premium"[^>]*aria-current`).MatchString(rights) ||
			!strings.Contains(rights, "Your reports anytime") || strings.Contains(rights, "Priority support") {
			t.Errorf("rights of a basic user: %.3000s", rights)
		}

		k.Clock.Add(time.Minute)
		if _, err := k.App.Subscriptions.Upgrade(context.Background(), id, sub.ID, "premium-monthly"); err != nil {
			t.Fatalf("upgrade: %v", err)
		}
		if got := tier(); got != "premium" {
			t.Fatalf("after subscribing to premium: %s", got)
		}
		if home := b.Get("/userCenter").Body.String(); !strings.Contains(home, "Your reports anytime") || strings.Contains(home, "Unlimited tests") {
			t.Error("premium home lacks the premium benefits, or lists one that does not ship")
		}
		premium := b.privilege()
		if premium.Data.Tier != "premium" || !premium.Data.Vip || included(premium) != len(subscription.Offered(subscription.TierPremium)) {
			t.Fatalf("premium privilege: %+v", premium.Data)
		}
		rec := b.Get("/api/privilege/vip/detail")
		var detail struct {
			Result int
			Data   struct {
				Current string
				Tiers   []struct {
					Tier     string
					Current  bool
					Benefits []struct{ Key string }
				}
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &detail); err != nil || detail.Result != 200 || detail.Data.Current != "premium" ||
			len(detail.Data.Tiers) != 3 || !detail.Data.Tiers[2].Current || len(detail.Data.Tiers[2].Benefits) == 0 {
			t.Fatalf("vip detail: %d %s", rec.Code, rec.Body.String())
		}
		if fr := b.Get("/fr/userCenter/rightsInterests").Body.String(); !strings.Contains(fr, "Droits et avantages") ||
			!strings.Contains(fr, `<html lang="fr">`) {
			t.Errorf("French rights page: %.600s", fr)
		}
	})
}

// The report list splits the user's results into paid (view) and unpaid
// (pay); both share the type's public page. The owner opens their report
// from another browser; another user cannot.
func TestUserCenterReports(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		s, e := k.Store, k.Handler
		r := k.PaidReport(t)
		a, resultID := &browser{r.Owner}, r.ResultID
		a.register("ola@example.com")
		id := userID(t, s, "ola@example.com")
		pendingID := ids.New()
		storetest.Buy(t, s, storetest.Purchase{ResultID: pendingID, Code: "ENTP-A", At: k.Clock.Now().Add(-time.Hour)})
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE results SET user_id = ? WHERE id = ?`), id, pendingID); err != nil {
			t.Fatal(err)
		}

		b := newBrowser(t, e)
		if rec := b.Login("ola@example.com", "correct horse"); rec.Code != http.StatusSeeOther {
			t.Fatalf("login: %d", rec.Code)
		}
		list := b.Get("/userCenter/reportList")
		body := list.Body.String()
		if list.Code != http.StatusOK || !strings.Contains(body, `data-testid="list-completed"`) || !strings.Contains(body, "report-"+resultID) ||
			strings.Contains(body, "report-"+pendingID) || !strings.Contains(body, "/report/result/BMBTI-1807?r="+resultID) ||
			!strings.Contains(body, "Completed (1)") || !strings.Contains(body, "Pending payment (1)") {
			t.Fatalf("completed tab: %d %.3000s", list.Code, body)
		}
		pending := b.Get("/userCenter/reportList?tab=pending").Body.String()
		if !strings.Contains(pending, `data-testid="list-pending"`) || !strings.Contains(pending, "report-"+pendingID) ||
			strings.Contains(pending, "report-"+resultID) || !strings.Contains(pending, "/paying/buyreport/BMBTI-1807?r="+pendingID) ||
			!strings.Contains(pending, `href="/types/BMBTI-1807/entp"`) {
			t.Fatalf("pending tab: %.3000s", pending)
		}
		if home := b.Get("/userCenter").Body.String(); !strings.Contains(home, "/report/result/BMBTI-1807?r="+resultID) {
			t.Errorf("the home does not link the latest report: %.3000s", home)
		}

		// The owner, signed in on a browser that did not take the test.
		if rec := b.Get("/report/result/BMBTI-1807?r=" + resultID); rec.Code != http.StatusOK {
			t.Fatalf("the owner's report from a second browser: %d", rec.Code)
		}
		if rec := b.Get("/paying/buyreport/BMBTI-1807?r=" + pendingID); rec.Code != http.StatusOK {
			t.Errorf("the owner's pay link from a second browser: %d %.300s", rec.Code, rec.Body.String())
		}
		// Signed out, the same link opens nothing.
		anon := newBrowser(t, e)
		if rec := anon.Get("/report/result/BMBTI-1807?r=" + resultID); rec.Code != http.StatusNotFound {
			t.Errorf("a stranger's browser opened the report: %d", rec.Code)
		}
		// Another user sees neither the report nor it in their list.
		k.VerifiedUser(t, "pia@example.com")
		c := newBrowser(t, e)
		if rec := c.Login("pia@example.com", apptest.Password); rec.Code != http.StatusSeeOther {
			t.Fatalf("another user's login: %d", rec.Code)
		}
		if rec := c.Get("/report/result/BMBTI-1807?r=" + resultID); rec.Code != http.StatusNotFound {
			t.Errorf("another user opened the report: %d", rec.Code)
		}
		if rec := c.Get("/userCenter/reportList"); strings.Contains(rec.Body.String(), resultID) || !strings.Contains(rec.Body.String(), "Completed (0)") {
			t.Errorf("another user's list: %.2000s", rec.Body.String())
		}
	})
}
