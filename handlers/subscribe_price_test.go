package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/store"
	"selfmap/internal/subscription"
)

// getIn opens a page with the browser's language set to lang.
func (b *browser) getIn(path, lang string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Accept-Language", lang)
	return b.Do(req)
}

// submitIn posts a form from its page with the browser's language set to
// lang, as a visitor abroad sends it.
func (b *browser) submitIn(page, lang string, form url.Values) *httptest.ResponseRecorder {
	b.T.Helper()
	form.Set("_csrf", b.CSRFToken(page))
	req := httptest.NewRequest(http.MethodPost, page, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept-Language", lang)
	return b.Do(req)
}

// onlyInvoice is a subscription's one invoice of a kind.
func onlyInvoice(t *testing.T, s *store.Store, subID, kind string) store.Invoice {
	t.Helper()
	invs, err := s.SubscriptionInvoices(context.Background(), s.DB, subID)
	if err != nil {
		t.Fatal(err)
	}
	var found []store.Invoice
	for _, inv := range invs {
		if inv.Kind == kind {
			found = append(found, inv)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s invoices: %+v", len(found), kind, invs)
	}
	return found[0]
}

// A visitor in Japan sees the plans in yen, as the reports, is charged in
// yen, and the upgrade, the success pages and the receipt say yen too.
func TestSubscribeJapanPaysInYen(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		b.register("kei@example.com")
		id := userID(t, s, "kei@example.com")
		ja := "/ja" + landingPage
		page := text(b.getIn(ja, "ja-JP,ja;q=0.9"))
		for _, want := range []string{"7日間のお試し ¥200", "4週間ごとに¥2,980", "毎月¥5,980",
			`class="sub-paynow" data-testid="pay-now">お試しなしで今すぐ¥2,980を支払う（最初の4週間分）`} {
			if !strings.Contains(page, want) {
				t.Errorf("Japanese landing lacks %q", want)
			}
		}
		if strings.Contains(page, "$") {
			t.Errorf("Japanese landing shows dollars: %.6000s", page)
		}
		rec := b.submitIn(ja, "ja-JP,ja;q=0.9", subscribeForm("basic-weekly", "paynow", "4242 4242 4242 4242"))
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("pay now in Japan: %d %.600s", rec.Code, text(rec))
		}
		sub := liveSubs(t, s, id)[0]
		inv := onlyInvoice(t, s, sub.ID, subscription.KindPayNow)
		if sub.Country != "JP" || sub.Currency != "JPY" || sub.Price != 298000 || inv.Currency != "JPY" || inv.Amount != 298000 {
			t.Fatalf("charged %s %d for %s %s %d", inv.Currency, inv.Amount, sub.Country, sub.Currency, sub.Price)
		}
		check := "/ja" + checkPage + "?s=" + sub.ID
		page = text(b.Get(check))
		for _, want := range []string{"2026年11月24日に¥2,980を請求しました。", "2026年12月22日に4週間ごとに¥2,980で更新されます。"} {
			if !strings.Contains(page, want) {
				t.Errorf("Japanese check page lacks %q: %.4000s", want, page)
			}
		}
		if mails := text(newBrowser(t, k.Handler).Get("/dev/mail")); !strings.Contains(mails, "¥2,980") {
			t.Errorf("the receipt quotes no yen")
		}
		up := text(b.Get("/ja" + upgradePage))
		for _, want := range []string{`data-testid="upgrade-today">¥5,980`, `data-testid="upgrade-card">Visa •••• 4242`,
			"ベーシックプランは本日（2026年11月24日）終了し、プレミアムに切り替わります。", "毎月¥5,980で更新され、次回の請求は2026年12月24日です"} {
			if !strings.Contains(up, want) {
				t.Errorf("Japanese upgrade page lacks %q: %.4000s", want, up)
			}
		}
		// A minute on (a period's invoice is keyed by its start), they upgrade.
		k.Clock.Add(time.Minute)
		if rec := b.Submit("/ja"+upgradePage, "/ja"+upgradePage, url.Values{"plan": {"premium-monthly"}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("upgrade in Japan: %d %.600s", rec.Code, text(rec))
		}
		if inv := onlyInvoice(t, s, sub.ID, subscription.KindUpgrade); inv.Currency != "JPY" || inv.Amount != 598000 {
			t.Fatalf("upgrade charged %s %d", inv.Currency, inv.Amount)
		}
		page = text(b.Get(check))
		for _, want := range []string{`data-testid="sub-outcome-upgrade"`, "プレミアムにアップグレードしました", "2026年11月24日に、これまでのプランからプレミアムに切り替わりました。",
			"2026年11月24日にプレミアム料金¥5,980を請求しました。"} {
			if !strings.Contains(page, want) {
				t.Errorf("Japanese upgrade success lacks %q: %.4000s", want, page)
			}
		}
	})
}

// Pay now says what it charges and that it skips the trial, and stays a
// plain choice under the trial; without a trial it is the one button.
func TestSubscribePayNowSaysWhatItCharges(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		b.register("pia@example.com")
		for _, tc := range []struct{ name, path, lang, want string }{
			{"trial", landingPage, "en", `class="sub-paynow" data-testid="pay-now">Skip the trial: pay $19.99 now for the first 4 weeks</button>`},
			{"promo", landingPage + "?plan=basic-weekly&promo=welcome20", "en", `data-testid="pay-now">Skip the trial: pay $15.99 now for the first 4 weeks<`},
			{"german", "/de" + landingPage, "de-DE", `data-testid="pay-now">Ohne Probezeitraum: jetzt €19,99 für die ersten 4 Wochen bezahlen<`},
			{"no trial", landingPage + "?plan=premium-monthly", "en", `class="btn btn-primary btn-block" data-testid="pay-now">Pay $39.99 now</button>`},
		} {
			page := text(b.getIn(tc.path, tc.lang))
			if !strings.Contains(page, tc.want) {
				t.Errorf("%s: lacks %q: %.8000s", tc.name, tc.want, page)
			}
		}
		page := text(b.Get(landingPage))
		trial := strings.Index(page, `data-testid="start-trial"`)
		payNow := strings.Index(page, `data-testid="pay-now"`)
		if trial < 0 || payNow < trial || !strings.Contains(page, `class="btn btn-primary btn-block" data-testid="start-trial"`) {
			t.Errorf("the trial is not the first, primary button")
		}
	})
}

// Upgrading a paid period (no trial): the page says the period ends and is
// not refunded, and the success page says Premium replaced the plan.
func TestSubscribeUpgradeOfAPaidPeriod(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		b.register("max@example.com")
		id := userID(t, s, "max@example.com")
		if rec := b.subscribePost(landingPage, subscribeForm("basic-weekly", "paynow", "4242 4242 4242 4242")); rec.Code != http.StatusSeeOther {
			t.Fatalf("pay now: %d %.400s", rec.Code, text(rec))
		}
		sub := liveSubs(t, s, id)[0]
		page := text(b.Get(checkPage + "?s=" + sub.ID))
		for _, want := range []string{`data-testid="sub-outcome-pay_now"`, "Your subscription has started", "Charged $19.99 on 24 November 2026.",
			"Renews on 22 December 2026 at $19.99 every 4 weeks unless you cancel before."} {
			if !strings.Contains(page, want) {
				t.Errorf("pay-now success lacks %q: %.4000s", want, page)
			}
		}
		up := text(b.Get(upgradePage))
		for _, want := range []string{"Your Basic plan ends today (24 November 2026) and Premium replaces it; the rest of the period already paid is not refunded.",
			`data-testid="upgrade-card">Visa •••• 4242`, `data-testid="upgrade-today">$39.99`} {
			if !strings.Contains(up, want) {
				t.Errorf("upgrade page lacks %q: %.4000s", want, up)
			}
		}
		k.Clock.Add(time.Minute)
		if rec := b.Submit(upgradePage, upgradePage, url.Values{"plan": {"premium-monthly"}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("upgrade: %d %.400s", rec.Code, text(rec))
		}
		page = text(b.Get(checkPage + "?s=" + sub.ID))
		if !strings.Contains(page, "Premium replaced your previous plan on 24 November 2026.") || strings.Contains(page, "Your trial ended") ||
			!strings.Contains(page, "You have upgraded to Premium") {
			t.Errorf("upgrade success of a paid period: %.4000s", page)
		}
	})
}
