package handlers_test

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/ids"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

const (
	landingPage = "/paying/premiumSubscriptions/BMBTI-1807"
	checkPage   = "/paying/subscribe/check/BMBTI-1807"
	upgradePage = "/paying/upgrade/BMBTI-1807"
)

// subscribeForm is a filled subscription form with a sandbox card.
func subscribeForm(plan, mode, number string) url.Values {
	return url.Values{"plan": {plan}, "mode": {mode}, "agree": {"1"}, "number": {number}, "expiry": {"12/" + time.Now().AddDate(3, 0, 0).Format("06")},
		"cvc": {"123"}, "name": {"Ada Lovelace"}, "postal": {"10115"}}
}

// subscribePost sends the form from the landing page as a browser does.
func (b *browser) subscribePost(page string, form url.Values) *httptest.ResponseRecorder {
	b.T.Helper()
	return b.Submit(page, page, form)
}

// text is a page's body with its HTML entities decoded.
func text(rec *httptest.ResponseRecorder) string { return html.UnescapeString(rec.Body.String()) }

func liveSubs(t *testing.T, s *store.Store, customer string) []store.Subscription {
	t.Helper()
	subs, err := s.CustomerSubscriptions(context.Background(), s.DB, customer)
	if err != nil {
		t.Fatal(err)
	}
	return subs
}

func countInvoices(t *testing.T, s *store.Store, subID, kind string) int {
	t.Helper()
	invs, err := s.SubscriptionInvoices(context.Background(), s.DB, subID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, inv := range invs {
		if inv.Kind == kind {
			n++
		}
	}
	return n
}

// A guest is sent to log in with "Please login first" and, after
// registering and entering the mailed code (or logging in), comes back to
// the screen asked for.
func TestSubscribeNeedsLoginAndComesBack(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		want := landingPage + "?plan=premium-monthly"
		rec := b.Get(want)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/login?next="+url.QueryEscape(want) {
			t.Fatalf("guest: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		if login := b.Get("/user/login"); !strings.Contains(login.Body.String(), "Please login first") {
			t.Fatalf("no 'Please login first': %.2000s", login.Body.String())
		}
		rec = b.Submit("/user/register", "/user/register", url.Values{"name": {"Ada"}, "email": {"ada@example.com"},
			"password": {"correct horse"}, "confirm": {"correct horse"}, "agree": {"1"}})
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/verify" {
			t.Fatalf("register went to %d %q, want the code's screen", rec.Code, rec.Header().Get("Location"))
		}
		b.verifyWithMailedCode("ada@example.com", want)
		if page := b.Get(want); page.Code != 200 || !strings.Contains(page.Body.String(), `data-testid="subscribe-form"`) {
			t.Fatalf("landing after register: %d", page.Code)
		}
		// Logging in comes back too, from the upgrade screen.
		c := newBrowser(t, b.Handler)
		c.Get("/payinsider/BMBTI-1807")
		if rec := c.Login("ada@example.com", "correct horse"); rec.Header().Get("Location") != "/payinsider/BMBTI-1807" {
			t.Fatalf("login went to %q", rec.Header().Get("Location"))
		}
		// An API call answers 401 instead.
		if rec := newBrowser(t, b.Handler).PostJSON("/api/user/subscribe/create", c.CSRFToken("/"), map[string]any{}); rec.Code != http.StatusUnauthorized &&
			rec.Code != http.StatusForbidden {
			t.Fatalf("guest API: %d", rec.Code)
		}
	})
}

// The plan choice prices the plans for the visitor's country, worded per
// period and per day, and the legacy path moves there.
func TestSubscribeScheme(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		scenario{url: "/paying/scheme/BMBTI-1807", status: 200, contains: []string{`data-testid="plan-basic-weekly"`,
			"7-day trial for $1.49", "then $19.99 every 4 weeks", "That is $0.71 a day.", "$39.99 a month", landingPage + "?plan=premium-monthly"}}.run(t, e)
		scenario{url: "/paying/scheme/BMBTI-1807", headers: map[string]string{"Accept-Language": "en-GB"}, status: 200,
			contains: []string{"£1.29", "£17.99", "£34.99"}}.run(t, e)
		scenario{url: "/fr/paying/scheme/BMBTI-1807", headers: map[string]string{"Accept-Language": "fr-FR"}, status: 200,
			contains: []string{"Essai de 7 jours", "toutes les 4 semaines"}}.run(t, e)
		scenario{url: "/scheme_select/BMBTI-1807?utm_source=x", status: 301, location: "/paying/scheme/BMBTI-1807?utm_source=x"}.run(t, e)
		scenario{url: "/paying/scheme/NOPE-1", status: 404}.run(t, e)
	})
}

// Refused forms keep what was typed (never the card number) and say per
// field what is wrong, in the visitor's language; nothing is charged.
func TestSubscribeFormRefusals(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		b.register("eve@example.com")
		id := userID(t, s, "eve@example.com")
		for _, tc := range []struct {
			name   string
			page   string
			change func(url.Values)
			field  string
			want   string
		}{
			{"terms", landingPage, func(f url.Values) { f.Del("agree") }, "terms", `please check "I have read and agree to the terms" to proceed`},
			{"terms fr", "/fr" + landingPage, func(f url.Values) { f.Del("agree") }, "terms", "veuillez cocher «\u00a0J’ai lu et j’accepte les conditions\u00a0» pour continuer"},
			{"unknown promo", landingPage, func(f url.Values) { f.Set("promo", "nope") }, "promo", "This promo code does not exist for this plan."},
			{"expired promo", landingPage, func(f url.Values) { f.Set("promo", "summer26") }, "promo", "This promo code has expired."},
			{"promo of another plan", landingPage, func(f url.Values) { f.Set("promo", "SUMMER26"); f.Set("plan", "premium-monthly") }, "promo",
				"This promo code does not exist for this plan."},
			{"bad number", landingPage, func(f url.Values) { f.Set("number", "4242 4242 4242 4241") }, "number", ""},
			{"bad expiry", landingPage, func(f url.Values) { f.Set("expiry", "13/30") }, "expiry", ""},
			{"short code", landingPage, func(f url.Values) { f.Set("cvc", "12") }, "cvc", "Enter 3 digits."},
			{"short amex code fr", "/fr" + landingPage, func(f url.Values) { f.Set("number", "3782 822463 10005"); f.Set("cvc", "123") }, "cvc",
				"Saisissez 4\u00a0chiffres."},
			{"unknown plan", landingPage, func(f url.Values) { f.Set("plan", "gold") }, "plan", "Please choose a plan."},
			{"no mode", landingPage, func(f url.Values) { f.Del("mode") }, "mode", ""},
		} {
			form := subscribeForm("basic-weekly", "trial", "4242 4242 4242 4242")
			tc.change(form)
			rec := b.subscribePost(tc.page, form)
			body := text(rec)
			if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="error-`+tc.field+`"`) || !strings.Contains(body, tc.want) {
				t.Errorf("%s: %d, want 422 with %s error %q: %.400s", tc.name, rec.Code, tc.field, tc.want, body)
			}
			if !strings.Contains(body, `value="Ada Lovelace"`) || strings.Contains(body, "4242 4242 4242 424") {
				t.Errorf("%s: the name is not kept or the card number is", tc.name)
			}
		}
		if subs := liveSubs(t, s, id); len(subs) != 0 {
			t.Fatalf("refused forms started %d subscriptions", len(subs))
		}
		// The promo is priced by the server before anything is sent.
		page := text(b.Get(landingPage + "?plan=basic-weekly&promo=welcome20"))
		if !strings.Contains(page, `data-testid="sub-discount">−$0.30`) || !strings.Contains(page, `data-testid="sub-first">$1.19`) ||
			!strings.Contains(page, "Code WELCOME20 applied") {
			t.Errorf("promo not priced: %.6000s", page)
		}
		// No CSRF token: refused.
		if rec := b.PostForm(landingPage, subscribeForm("basic-weekly", "trial", "4242424242424242")); rec.Code != http.StatusForbidden {
			t.Errorf("no token: %d", rec.Code)
		}
	})
}

// Start a trial, submit again, upgrade twice: one subscription, one trial
// charge, one upgrade charge.
func TestSubscribeTrialDoubleSubmitAndUpgrade(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)
		b.register("tia@example.com")
		id := userID(t, s, "tia@example.com")
		form := subscribeForm("basic-weekly", "trial", "4242 4242 4242 4242")
		rec := b.subscribePost(landingPage, form)
		if rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), checkPage+"?s=") {
			t.Fatalf("start: %d %s %.400s", rec.Code, rec.Header().Get("Location"), text(rec))
		}
		check := rec.Header().Get("Location")
		again := b.subscribePost(landingPage, form)
		if again.Header().Get("Location") != check {
			t.Fatalf("second submit went to %q, not the first's %q", again.Header().Get("Location"), check)
		}
		subs := liveSubs(t, s, id)
		if len(subs) != 1 || subs[0].Status != "trialing" || countInvoices(t, s, subs[0].ID, "trial") != 1 {
			t.Fatalf("after a double submit: %+v", subs)
		}
		page := text(b.Get(check))
		next := localDay("en", subs[0].CurrentPeriodEnd)
		for _, want := range []string{`data-testid="sub-success"`, `data-testid="sub-outcome-trial"`, "Your trial has started", "Your plan: Basic (trial)",
			"Charged $1.49 on 24 November 2026 for your trial.", "Your trial ends on " + next + "; then $19.99 every 4 weeks unless you cancel before.", upgradePage} {
			if !strings.Contains(page, want) {
				t.Errorf("check page lacks %q: %.3000s", want, page)
			}
		}
		// The landing now points to the subscription instead of a form.
		if l := b.Get(landingPage).Body.String(); !strings.Contains(l, `data-testid="already-subscribed"`) || strings.Contains(l, `data-testid="subscribe-form"`) {
			t.Errorf("landing of a subscriber shows the form")
		}
		// Another user's subscription answers as a missing one.
		other := newBrowser(t, e)
		other.register("mallory@example.com")
		if rec := other.Get(check); rec.Code != http.StatusNotFound {
			t.Errorf("foreign check page: %d", rec.Code)
		}
		if rec := other.Get(checkPage + "?s=" + ids.New()); rec.Code != http.StatusNotFound {
			t.Errorf("missing check page: %d", rec.Code)
		}

		// Before confirming, the upgrade page says what it charges today, to
		// which card, what becomes of the trial and when Premium renews.
		up := text(b.Get(upgradePage))
		for _, want := range []string{`data-testid="current-plan">Basic`, `data-testid="premium-price">$39.99 a month`, `data-testid="upgrade-today">$39.99`,
			`data-testid="upgrade-card">Visa •••• 4242`, "Your trial ends today (24 November 2026) and Premium replaces it.",
			"Premium then renews at $39.99 a month, next on 24 December 2026, until you cancel.", "Upgrade and pay $39.99 now",
			`href="/userCenter/home" data-testid="upgrade-back"`} {
			if !strings.Contains(up, want) {
				t.Errorf("upgrade page lacks %q: %.4000s", want, up)
			}
		}
		// A minute into the trial, the customer upgrades.
		k.Clock.Add(time.Minute)
		bad := b.Submit(upgradePage, upgradePage, url.Values{"plan": {"basic-weekly"}})
		if bad.Code != http.StatusUnprocessableEntity || !strings.Contains(text(bad), "no premium plan found") {
			t.Errorf("upgrade to basic: %d", bad.Code)
		}
		for range 2 {
			rec := b.Submit("/payinsider/BMBTI-1807", "/payinsider/BMBTI-1807", url.Values{"plan": {"premium-monthly"}})
			if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != check {
				t.Fatalf("upgrade: %d %s %.400s", rec.Code, rec.Header().Get("Location"), text(rec))
			}
		}
		subs = liveSubs(t, s, id)
		if subs[0].PlanID != "premium-monthly" || subs[0].Status != "active" || countInvoices(t, s, subs[0].ID, "upgrade") != 1 {
			t.Fatalf("after two upgrades: %+v, %d upgrade invoices", subs[0], countInvoices(t, s, subs[0].ID, "upgrade"))
		}
		// The success page says what happened: an upgrade, not a start.
		page = text(b.Get(check))
		for _, want := range []string{`data-testid="sub-outcome-upgrade"`, "You have upgraded to Premium", "Your plan: Premium (active)",
			"Your trial ended on 24 November 2026 and Premium replaced it.", "Charged $39.99 on 24 November 2026 for Premium.",
			"Renews on 24 December 2026 at $39.99 a month unless you cancel before."} {
			if !strings.Contains(page, want) {
				t.Errorf("check after upgrade lacks %q: %.4000s", want, page)
			}
		}
		if strings.Contains(page, "has started") {
			t.Errorf("an upgrade reads as a start")
		}
		if page := b.Get("/payinsider/BMBTI-1807").Body.String(); !strings.Contains(page, `data-testid="already-premium"`) {
			t.Errorf("payinsider of a premium user: %.3000s", page)
		}
		if page := text(b.Get("/zh-cn" + upgradePage)); !strings.Contains(page, "你已经订阅了高级版。") {
			t.Errorf("upgrade page in Chinese: %.2000s", page)
		}
	})
}

// A trial is had once: after a paid trial has ended, the landing offers
// pay now only and says why, and a trial sent anyway is refused.
func TestSubscribeTrialOnlyOnce(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)
		b.register("uma@example.com")
		id := userID(t, s, "uma@example.com")
		if l := b.Get(landingPage).Body.String(); !strings.Contains(l, `data-testid="start-trial"`) || strings.Contains(l, `data-testid="trial-used"`) {
			t.Fatal("a new customer is not offered the trial")
		}
		if rec := b.subscribePost(landingPage, subscribeForm("basic-weekly", "trial", "4242424242424242")); rec.Code != http.StatusSeeOther {
			t.Fatalf("trial: %d %.400s", rec.Code, text(rec))
		}
		// A week and a day later, the trial has ended without renewal
		// (cancelled in time).
		k.Clock.Add(8 * 24 * time.Hour)
		subs := liveSubs(t, s, id)
		if _, err := s.DB.Exec(s.DB.Rebind(`UPDATE subscriptions SET status = 'expired', ended_at = ? WHERE id = ?`), k.Clock.Now().UTC(), subs[0].ID); err != nil {
			t.Fatal(err)
		}
		l := text(b.Get(landingPage))
		if strings.Contains(l, `data-testid="start-trial"`) || !strings.Contains(l, "You have already had a trial") || !strings.Contains(l, `data-testid="pay-now"`) {
			t.Fatalf("landing after a trial: %.3000s", l)
		}
		if strings.Contains(l, "7-day trial for $1.49") {
			t.Errorf("the plan still reads as a trial it no longer offers")
		}
		rec := b.subscribePost(landingPage, subscribeForm("basic-weekly", "trial", "4242424242424242"))
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(text(rec), "You have already had a trial") {
			t.Fatalf("a second trial: %d %.2000s", rec.Code, text(rec))
		}
		if rec := b.subscribePost(landingPage, subscribeForm("basic-weekly", "paynow", "4242424242424242")); rec.Code != http.StatusSeeOther {
			t.Fatalf("pay now after a trial: %d %.400s", rec.Code, text(rec))
		}
		subs = liveSubs(t, s, id)
		if subs[0].Status != "active" || countInvoices(t, s, subs[0].ID, subscription.KindPayNow) != 1 {
			t.Fatalf("after pay now: %+v", subs[0])
		}
	})
}

// An account may try five cards, then one every ten minutes, whatever
// address it comes from: a card tester gets a few tries, not a list's
// worth. The refused try reaches no payment provider.
func TestSubscribeCardAttemptsPerAccount(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		b := newBrowser(t, e)
		b.register("tess@example.com")
		id := userID(t, s, "tess@example.com")
		for i := range 5 {
			if rec := b.subscribePost(landingPage, subscribeForm("basic-weekly", "trial", "4000 0000 0000 0002")); rec.Code != http.StatusPaymentRequired {
				t.Fatalf("declined card %d: %d %.400s", i+1, rec.Code, text(rec))
			}
		}
		rec := b.subscribePost(landingPage, subscribeForm("basic-weekly", "trial", "4242 4242 4242 4242"))
		if body := text(rec); rec.Code == http.StatusSeeOther || !strings.Contains(body, "Too many cards were tried on this account") ||
			!strings.Contains(body, `value="Ada Lovelace"`) {
			t.Fatalf("sixth card: %d %.600s", rec.Code, body)
		}
		if subs := liveSubs(t, s, id); len(subs) != 5 {
			t.Fatalf("%d subscriptions after the refused try, want the 5 declined", len(subs))
		}
		// Another account is not held back by this one.
		other := newBrowser(t, e)
		other.register("ulla@example.com")
		if rec := other.subscribePost(landingPage, subscribeForm("basic-weekly", "trial", "4242 4242 4242 4242")); rec.Code != http.StatusSeeOther {
			t.Fatalf("another account: %d %.400s", rec.Code, text(rec))
		}
	})
}

// A declined card keeps the form with the bank's reason; no access is
// given and another card then works. Pay now with a promo charges the
// discounted plan price.
func TestSubscribeDeclinedThenPayNowWithPromo(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		b.register("dee@example.com")
		id := userID(t, s, "dee@example.com")
		rec := b.subscribePost(landingPage, subscribeForm("basic-weekly", "trial", "4000 0000 0000 0002"))
		body := text(rec)
		if rec.Code != http.StatusPaymentRequired || !strings.Contains(body, "Your card was declined. Please try another card.") ||
			!strings.Contains(body, `data-testid="subscribe-form"`) || !strings.Contains(body, `value="Ada Lovelace"`) {
			t.Fatalf("declined: %d %.600s", rec.Code, body)
		}
		subs := liveSubs(t, s, id)
		if len(subs) != 1 || subs[0].Status != "expired" {
			t.Fatalf("declined start left %+v", subs)
		}
		if page := text(b.Get(checkPage + "?s=" + subs[0].ID)); !strings.Contains(page, `data-testid="sub-declined"`) || !strings.Contains(page, "Your card was declined") {
			t.Errorf("check of a declined start: %.2000s", page)
		}
		form := subscribeForm("basic-weekly", "paynow", "4242424242424242")
		form.Set("promo", "welcome20")
		if rec := b.subscribePost(landingPage, form); rec.Code != http.StatusSeeOther {
			t.Fatalf("pay now: %d %.500s", rec.Code, text(rec))
		}
		var paid *store.Subscription
		for _, sub := range liveSubs(t, s, id) {
			if sub.Status == "active" {
				paid = &sub
			}
		}
		if paid == nil {
			t.Fatal("no active subscription after pay now")
		}
		invs, err := s.SubscriptionInvoices(context.Background(), s.DB, paid.ID)
		if err != nil || len(invs) != 1 || invs[0].Kind != "pay_now" || invs[0].Amount != 1599 || paid.Price != 1999 {
			t.Fatalf("pay now with WELCOME20: %+v %v (price %d)", invs, err, paid.Price)
		}
		// Once ended (here by the renewal job's hand), a paid subscription's
		// check page says so instead of showing a decline.
		if _, err := s.DB.ExecContext(context.Background(), s.DB.Rebind(`UPDATE subscriptions SET status = 'expired' WHERE id = ?`), paid.ID); err != nil {
			t.Fatal(err)
		}
		if page := text(b.Get(checkPage + "?s=" + paid.ID)); !strings.Contains(page, "This subscription has ended") || strings.Contains(page, "declined") {
			t.Errorf("check of an ended subscription: %.2000s", page)
		}
	})
}

// The countdown counts to the unpaid result's time plus the offer window;
// once passed, the trial is no longer offered for it (pay now is).
func TestSubscribeReportOfferCountdown(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		s, b := k.Store, newBrowser(t, k.Handler)
		b.register("cody@example.com")
		id := userID(t, s, "cody@example.com")
		resultID := ids.New()
		at := k.Clock.Now().Add(-time.Hour).UTC().Truncate(time.Second)
		storetest.Buy(t, s, storetest.Purchase{ResultID: resultID, Code: "INFJ-T", At: at})
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE results SET user_id = ? WHERE id = ?`), id, resultID); err != nil {
			t.Fatal(err)
		}
		// A minute on, the customer opens the plans.
		k.Clock.Add(time.Minute)
		page := text(b.Get(landingPage))
		deadline := at.Add((24 * time.Hour)).Format(time.RFC3339)
		if !strings.Contains(page, `data-testid="countdown"`) || !strings.Contains(page, `datetime="`+deadline+`"`) ||
			!strings.Contains(page, "22 h") || !strings.Contains(page, `data-testid="start-trial"`) {
			t.Fatalf("open countdown (deadline %s): %.5000s", deadline, page)
		}
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE results SET created_at = ? WHERE id = ?`), at.Add(-(24 * time.Hour)), resultID); err != nil {
			t.Fatal(err)
		}
		page = text(b.Get(landingPage))
		if !strings.Contains(page, "The trial offer for your INFJ-T report has ended") || strings.Contains(page, `data-testid="start-trial"`) {
			t.Fatalf("closed countdown: %.5000s", page)
		}
		rec := b.subscribePost(landingPage, subscribeForm("basic-weekly", "trial", "4242424242424242"))
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(text(rec), "The trial is no longer offered for your report.") {
			t.Fatalf("trial after the offer: %d", rec.Code)
		}
	})
}

// The JSON calls: the plan list, create and change, with the envelope,
// CSRF and per-field messages.
func TestSubscribeAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		var list struct {
			Result int
			Data   []struct {
				ID         string
				Currency   string
				Price      int64
				TrialPrice *int64
			}
		}
		rec := newBrowser(t, e).Get("/api/secondPhase/plan/sku/list/1807/GB")
		if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil || list.Result != 200 || len(list.Data) != 2 ||
			list.Data[0].Currency != "GBP" || list.Data[0].Price != 1799 || *list.Data[0].TrialPrice != 129 || list.Data[1].TrialPrice != nil {
			t.Fatalf("plan list: %v %s", err, rec.Body.String())
		}
		scenario{url: "/api/secondPhase/plan/sku/list/1807/XX", status: 400}.run(t, e)
		scenario{url: "/api/secondPhase/plan/sku/list/999/US", status: 404}.run(t, e)

		b := newBrowser(t, e)
		b.register("api@example.com")
		token := b.CSRFToken("/")
		if rec := b.PostJSON("/api/user/subscribe/create", "", map[string]any{"planId": "basic-weekly"}); rec.Code != http.StatusForbidden {
			t.Errorf("no CSRF: %d", rec.Code)
		}
		req := map[string]any{"planId": "basic-weekly", "mode": "trial", "number": "4242424242424242", "expiry": "12/40", "cvc": "123",
			"name": "Api", "postalCode": "10115"}
		rec = b.PostJSON("/api/user/subscribe/create", token, req)
		var env struct {
			Result  int
			Message string
			Data    struct {
				ID, Status, CheckURL string
				Field                string
			}
		}
		if json.Unmarshal(rec.Body.Bytes(), &env); rec.Code != 400 || env.Message != `please check "I have read and agree to the terms" to proceed` {
			t.Fatalf("no terms: %d %s", rec.Code, rec.Body.String())
		}
		req["agreed"] = true
		rec = b.PostJSON("/api/user/subscribe/create", token, req)
		if json.Unmarshal(rec.Body.Bytes(), &env); rec.Code != 200 || env.Result != 200 || env.Data.Status != "trialing" ||
			!strings.HasPrefix(env.Data.CheckURL, checkPage+"?s=") {
			t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
		}
		first := env.Data.ID
		if rec = b.PostJSON("/api/user/subscribe/create", token, req); json.Unmarshal(rec.Body.Bytes(), &env) != nil || env.Data.ID != first {
			t.Fatalf("second create: %s", rec.Body.String())
		}
		// A minute into the trial, the customer upgrades.
		k.Clock.Add(time.Minute)
		rec = b.PostJSON("/pay/subscription/changeSubscription", token, map[string]any{"planId": "gold"})
		if json.Unmarshal(rec.Body.Bytes(), &env); rec.Code != 400 || env.Message != "no premium plan found" {
			t.Fatalf("change to gold: %d %s", rec.Code, rec.Body.String())
		}
		rec = b.PostJSON("/pay/subscription/changeSubscription", token, map[string]any{"planId": "premium-monthly"})
		if json.Unmarshal(rec.Body.Bytes(), &env); rec.Code != 200 || env.Data.Status != "active" || env.Data.ID != first {
			t.Fatalf("change: %d %s", rec.Code, rec.Body.String())
		}
		if rec := newBrowser(t, e).PostJSON("/pay/subscription/changeSubscription", token, map[string]any{"planId": "premium-monthly"}); rec.Code == 200 {
			t.Errorf("a guest changed a subscription")
		}
	})
}

// With the stripe provider the plans are shown and priced by the server,
// the landing mounts Stripe's Payment Element (its publishable key, never
// a card field of ours), and a start without a PaymentMethod made by
// Stripe.js is refused before anything is charged.
func TestSubscribeWithStripeTakesOnlyAPaymentMethod(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		scenario{url: "/paying/scheme/BMBTI-1807", status: 200, contains: []string{"7-day trial for $1.49"}}.run(t, e)
		b := newBrowser(t, e)
		b.register("stripe@example.com")
		page := b.Get(landingPage).Body.String()
		if strings.Contains(page, `data-testid="subscribe-unavailable"`) || strings.Contains(page, `name="number"`) ||
			!strings.Contains(page, "pk_test_public") || strings.Contains(page, "sk_test_secret") {
			t.Fatalf("stripe landing: %.3000s", page)
		}
		token := b.CSRFToken("/")
		for _, pm := range []string{"", "4242424242424242", "tok_visa"} {
			rec := b.PostJSON("/api/user/subscribe/create", token, map[string]any{"planId": "basic-weekly", "mode": "trial", "agreed": true,
				"paymentMethod": pm})
			if rec.Code != http.StatusBadRequest {
				t.Fatalf("create with %q: %d %s", pm, rec.Code, rec.Body.String())
			}
		}
		// A promo code is not offered with Stripe, and one sent anyway is
		// refused before anything reaches Stripe.
		if page := b.Get(landingPage + "?promo=WELCOME20").Body.String(); strings.Contains(page, `data-testid="promo-form"`) ||
			strings.Contains(page, `data-testid="promo-applied"`) || strings.Contains(page, `name="promo" value="WELCOME20"`) {
			t.Errorf("the stripe landing offers or applies a promo code")
		}
		rec := b.PostJSON("/api/user/subscribe/create", token, map[string]any{"planId": "basic-weekly", "mode": "trial", "agreed": true,
			"paymentMethod": "pm_card_visa", "promoCode": "WELCOME20"})
		if rec.Code != http.StatusBadRequest && rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("create with a promo code under stripe: %d %s", rec.Code, rec.Body.String())
		}
		var n int
		if err := s.DB.Get(&n, `SELECT COUNT(*) FROM subscriptions`); err != nil || n != 0 {
			t.Fatalf("subscriptions written: %d %v", n, err)
		}
	}, apptest.WithEnv(map[string]string{"PAYMENT_PROVIDER": "stripe", "STRIPE_SECRET_KEY": "sk_test_secret",
		"STRIPE_WEBHOOK_SECRET": "whsec_test", "STRIPE_PUBLISHABLE_KEY": "pk_test_public"}))
}
