package subscription_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

// customer makes an account with a test taken at `at` in country (none
// when ""), as the subscription screens find them.
func (f *fixture) customer(t *testing.T, id, country string, at time.Time) subscription.Visitor {
	t.Helper()
	ctx := context.Background()
	email := id + "@example.com"
	if _, err := f.st.DB.ExecContext(ctx, f.st.DB.Rebind(`INSERT INTO users (id, email, name, password_hash, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`), id, email, id, "x", at, at); err != nil {
		t.Fatal(err)
	}
	resultID := "r-" + id
	storetest.Buy(t, f.st, storetest.Purchase{ResultID: resultID, Code: "INFJ-T", At: at})
	if _, err := f.st.DB.ExecContext(ctx, f.st.DB.Rebind(`UPDATE results SET user_id = ?, country = ? WHERE id = ?`), id,
		store.NullStr{String: country, Valid: country != ""}, resultID); err != nil {
		t.Fatal(err)
	}
	return subscription.Visitor{CustomerID: id, Email: email, Locale: "en"}
}

// unpaid says every report is unpaid, so the newest result is offered the
// trial for its window.
func unpaid(context.Context, string) (bool, error) { return false, nil }

// form is a subscription request with a good card, agreed to.
func form(v subscription.Visitor, plan, mode, number string) subscription.SubscribeInput {
	return subscription.SubscribeInput{Visitor: v, PlanID: plan, Mode: mode, Agreed: true,
		Card: subscription.CardInput{Number: number, Expiry: "12/30", CVC: "123", Name: "Ada Lovelace", Postal: "10115"}}
}

func (f *fixture) landing(t *testing.T, in subscription.LandingInput) subscription.Landing {
	t.Helper()
	l, err := f.svc.Landing(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The trial is offered with an unpaid report for OfferWindow after its
// test: the countdown runs to the result's time plus the window, and from
// that instant on the plans read as pay now and a trial is refused.
func TestReportOfferWindow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		f.svc.ReportPaid = unpaid
		taken := t0.Add(-time.Hour)
		v := f.customer(t, "cody", "US", taken)
		l := f.landing(t, subscription.LandingInput{Visitor: v})
		o := l.ReportOffer
		if o == nil || o.ResultCode != "INFJ-T" || !o.Deadline.Equal(taken.Add(24*time.Hour)) || o.Closed || o.Left != 23*time.Hour {
			t.Fatalf("open offer: %+v", o)
		}
		if !l.TrialsOffered || !l.Trial || !l.Quote.Trial || l.Quote.Amount != trialPrice {
			t.Fatalf("trial while the offer runs: %+v", l)
		}

		f.clock.Set(taken.Add(subscription.OfferWindow - time.Second))
		if l := f.landing(t, subscription.LandingInput{Visitor: v}); l.ReportOffer.Closed || l.ReportOffer.Left != time.Second || !l.Trial {
			t.Fatalf("a second before the end: %+v", l.ReportOffer)
		}
		f.clock.Set(taken.Add(subscription.OfferWindow))
		l = f.landing(t, subscription.LandingInput{Visitor: v})
		if !l.ReportOffer.Closed || l.ReportOffer.Left != 0 || l.TrialsOffered || l.Trial || l.Quote.Trial || l.Quote.Amount != basicPrice {
			t.Fatalf("at the deadline: %+v %+v", l.ReportOffer, l)
		}
		_, errs, err := f.svc.Subscribe(context.Background(), form(v, "basic-weekly", subscription.ModeTrial, "4242424242424242"))
		if err != nil || errs["mode"] != "subscribe.error.offer_closed" {
			t.Fatalf("trial after the offer: %v %v", errs, err)
		}

		// A paid report, or one whose payment cannot be read, has no
		// deadline: the trial is offered.
		for name, paid := range map[string]func(context.Context, string) (bool, error){
			"paid":       func(context.Context, string) (bool, error) { return true, nil },
			"unreadable": func(context.Context, string) (bool, error) { return false, errors.New("down") },
		} {
			f.svc.ReportPaid = paid
			if l := f.landing(t, subscription.LandingInput{Visitor: v}); l.ReportOffer != nil || !l.Trial {
				t.Errorf("%s report: %+v", name, l)
			}
		}
	})
}

// The plans are priced for the country of the newest test, else the
// browser's region, else the default price; the chosen plan is the one
// asked for, else the first; a promo code is priced or refused.
func TestLandingPricesAndChoice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		for _, tc := range []struct {
			name, country, region, currency string
		}{
			{"guest's region", "", "GB", "GBP"},
			{"unknown region", "", "ZZ", "USD"},
			{"test's country first", "DE", "GB", "EUR"},
		} {
			v := subscription.Visitor{Region: tc.region}
			if tc.country != "" {
				v = f.customer(t, "c-"+tc.country, tc.country, t0)
				v.Region = tc.region
			}
			plans, err := f.svc.Plans(ctx, v)
			if err != nil || len(plans) != 2 || plans[0].Currency != tc.currency {
				t.Errorf("%s: %+v %v", tc.name, plans, err)
			}
		}
		// Four weeks and, from 28 March, the coming month.
		plans, err := f.svc.CountryPlans(ctx, "US")
		if err != nil || plans[0].PeriodDays != 28 || plans[1].PeriodDays != 31 {
			t.Fatalf("period days: %+v %v", plans, err)
		}

		v := f.customer(t, "dana", "US", t0)
		if l := f.landing(t, subscription.LandingInput{Visitor: v, PlanID: "premium-monthly"}); l.Chosen.ID != "premium-monthly" || l.Trial ||
			l.Quote.Amount != premium || !l.AskPostal || l.Stripe || l.Live != nil {
			t.Errorf("premium chosen: %+v", l)
		}
		if l := f.landing(t, subscription.LandingInput{Visitor: v, PlanID: "nope"}); l.Chosen.ID != "basic-weekly" {
			t.Errorf("unknown plan: %+v", l.Chosen)
		}
		l := f.landing(t, subscription.LandingInput{Visitor: v, Promo: "WELCOME20"})
		if l.PromoError != "" || l.Quote.Discount != 30 || l.Quote.Amount != trialPrice-30 || l.Promo != "WELCOME20" {
			t.Errorf("promo: %+v", l)
		}
		l = f.landing(t, subscription.LandingInput{Visitor: v, Promo: "NOPE"})
		if l.PromoError != subscription.ErrPromoUnknown.ID || l.Quote.Discount != 0 || l.Quote.Amount != trialPrice {
			t.Errorf("unknown promo: %+v", l)
		}
	})
}

// A request is refused field by field, all at once, before any card is
// saved or charged.
func TestSubscribeRefusesFields(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		v := f.customer(t, "erin", "US", t0)
		in := form(v, "nope", "weekly", "4242424242424241")
		in.Agreed, in.Promo, in.Card.Expiry, in.Card.Name = false, "NOPE", "13/30", ""
		sub, errs, err := f.svc.Subscribe(ctx, in)
		want := map[string]string{"plan": "subscribe.error.plan", "mode": "subscribe.error.mode", "terms": "subscribe.error.terms",
			"number": "checkout.invalid_number", "expiry": "checkout.invalid_expiry"}
		for field, id := range want {
			if errs[field] != id {
				t.Errorf("%s: %q, want %q (%v)", field, errs[field], id, errs)
			}
		}
		if err != nil || sub.ID != "" || errs["name"] == "" {
			t.Fatalf("refused: %+v %v %v", sub, errs, err)
		}
		in = form(v, "basic-weekly", subscription.ModePayNow, "4242424242424242")
		in.Promo = "NOPE"
		if _, errs, err := f.svc.Subscribe(ctx, in); err != nil || errs["promo"] != subscription.ErrPromoUnknown.ID || len(errs) != 1 {
			t.Fatalf("unknown promo: %v %v", errs, err)
		}
		var methods int
		if err := st.DB.Get(&methods, `SELECT COUNT(*) FROM sandbox_payment_methods`); err != nil {
			t.Fatal(err)
		}
		if subs, err := st.CustomerSubscriptions(ctx, st.DB, v.CustomerID); err != nil || len(subs) != 0 || methods != 0 {
			t.Fatalf("a refused request saved a card (%d) or started: %v %v", methods, subs, err)
		}
	})
}

// limiter admits n attempts in all.
type limiter struct{ n int }

func (l *limiter) Allow(string) (bool, error) {
	l.n--
	return l.n >= 0, nil
}

// Each card tried counts against the account: past the limit the card is
// refused before the provider sees it.
func TestSubscribeCardAttempts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		f.svc.CardAttempts = &limiter{n: 1}
		ctx := context.Background()
		v := f.customer(t, "finn", "US", t0)
		declined, errs, err := f.svc.Subscribe(ctx, form(v, "basic-weekly", subscription.ModeTrial, "4000000000000002"))
		if err != nil || errs["card"] != "subscribe.decline.card_declined" || declined.ID == "" || declined.Status != subscription.Expired {
			t.Fatalf("declined: %+v %v %v", declined, errs, err)
		}
		sub, errs, err := f.svc.Subscribe(ctx, form(v, "basic-weekly", subscription.ModeTrial, "4242424242424242"))
		if err != nil || errs["card"] != "subscribe.error.too_many_cards" || sub.ID != "" {
			t.Fatalf("past the limit: %+v %v %v", sub, errs, err)
		}
	})
}

// A start is made once: a second submit answers the running subscription.
// Its check page reads what was charged; another customer's is not found;
// a start declined reads why.
func TestSubscribeAndCheck(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		v := f.customer(t, "gail", "US", t0)
		sub, errs, err := f.svc.Subscribe(ctx, form(v, "basic-weekly", subscription.ModeTrial, "4242424242424242"))
		if err != nil || errs.Any() || sub.Status != subscription.Trialing {
			t.Fatalf("start: %+v %v %v", sub, errs, err)
		}
		again, errs, err := f.svc.Subscribe(ctx, form(v, "premium-monthly", subscription.ModePayNow, "4242424242424242"))
		if err != nil || errs.Any() || again.ID != sub.ID || !equal(f.charges(t, sub.ID, "succeeded"), []int64{trialPrice}) {
			t.Fatalf("second submit: %+v %v %v", again, errs, err)
		}
		c, err := f.svc.Check(ctx, v.CustomerID, sub.ID)
		if err != nil || c.Stage != subscription.StageSuccess || c.Tier != subscription.TierBasic || c.Charged == nil ||
			c.Charged.Amount != trialPrice || !c.ChargedTrial || !c.CanUpgrade {
			t.Fatalf("check: %+v %v", c, err)
		}
		if l := f.landing(t, subscription.LandingInput{Visitor: v}); l.Live == nil || l.Live.ID != sub.ID {
			t.Errorf("landing's running subscription: %+v", l.Live)
		}
		if _, err := f.svc.Check(ctx, "someone-else", sub.ID); !errors.Is(err, subscription.ErrNotFound) {
			t.Errorf("another's check: %v", err)
		}

		w := f.customer(t, "hugo", "US", t0)
		declined, _, err := f.svc.Subscribe(ctx, form(w, "basic-weekly", subscription.ModePayNow, "4000000000000002"))
		if err != nil {
			t.Fatal(err)
		}
		c, err = f.svc.Check(ctx, w.CustomerID, declined.ID)
		if err != nil || c.Stage != subscription.StageDeclined || c.DeclineReason != "subscribe.decline.card_declined" {
			t.Fatalf("declined check: %+v %v", c, err)
		}
	})
}

// The upgrade page offers premium priced for the subscription's country;
// the upgrade takes only a premium plan, and only with a running
// subscription.
func TestUpgradeOfferAndLive(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		v := f.customer(t, "iris", "GB", t0)
		if u, err := f.svc.UpgradeOffer(ctx, v.CustomerID); err != nil || u.Live != nil {
			t.Fatalf("nothing to upgrade: %+v %v", u, err)
		}
		if _, err := f.svc.UpgradeLive(ctx, v.CustomerID, "premium-monthly"); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("upgrade without a subscription: %v", err)
		}
		sub, _, err := f.svc.Subscribe(ctx, form(v, "basic-weekly", subscription.ModeTrial, "4242424242424242"))
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Add(time.Hour)
		u, err := f.svc.UpgradeOffer(ctx, v.CustomerID)
		if err != nil || u.Live.ID != sub.ID || u.Tier != subscription.TierBasic || u.NoPremium || u.Premium.ID != "premium-monthly" ||
			u.Premium.Currency != "GBP" {
			t.Fatalf("offer: %+v %v", u, err)
		}
		if _, err := f.svc.UpgradeLive(ctx, v.CustomerID, "basic-weekly"); !errors.Is(err, subscription.ErrNoPremiumPlan) {
			t.Fatalf("basic as the upgrade: %v", err)
		}
		up, err := f.svc.UpgradeLive(ctx, v.CustomerID, "premium-monthly")
		if err != nil || up.PlanID != "premium-monthly" || up.Status != subscription.Active {
			t.Fatalf("upgrade: %+v %v", up, err)
		}
		if c, err := f.svc.Check(ctx, v.CustomerID, sub.ID); err != nil || c.Tier != subscription.TierPremium || c.CanUpgrade {
			t.Fatalf("check after the upgrade: %+v %v", c, err)
		}
	})
}

// A customer's own cancel keeps the access to the period's end, and says
// the same end when replayed; a guest has nothing to cancel.
func TestCancelOwn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		v := f.customer(t, "jude", "US", t0)
		if e, err := f.svc.CancelOwn(ctx, v.CustomerID); err != nil || !e.None {
			t.Fatalf("guest: %+v %v", e, err)
		}
		sub, _, err := f.svc.Subscribe(ctx, form(v, "basic-weekly", subscription.ModeTrial, "4242424242424242"))
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			e, err := f.svc.CancelOwn(ctx, v.CustomerID)
			if err != nil || e.None || e.Ended || !e.Until.Equal(sub.CurrentPeriodEnd) {
				t.Fatalf("cancel: %+v %v", e, err)
			}
		}
		if n := f.mails(t, "subscription_canceled"); n != 1 {
			t.Errorf("%d cancel mails", n)
		}
	})
}
