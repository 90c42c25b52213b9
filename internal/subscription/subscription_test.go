package subscription_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

func TestStateMachine(t *testing.T) {
	cases := []struct {
		from, to subscription.Status
		ok       bool
	}{
		{subscription.Incomplete, subscription.Trialing, true},
		{subscription.Incomplete, subscription.Active, true},
		{subscription.Incomplete, subscription.Expired, true},
		{subscription.Trialing, subscription.Active, true},
		{subscription.Trialing, subscription.PastDue, true},
		{subscription.Trialing, subscription.Expired, true},
		{subscription.Active, subscription.PastDue, true},
		{subscription.Active, subscription.Expired, true},
		{subscription.PastDue, subscription.Active, true},
		{subscription.PastDue, subscription.Canceled, true},

		{subscription.Incomplete, subscription.PastDue, false},
		{subscription.Incomplete, subscription.Canceled, false},
		{subscription.Trialing, subscription.Incomplete, false},
		{subscription.Trialing, subscription.Canceled, false},
		{subscription.Active, subscription.Trialing, false},
		{subscription.Active, subscription.Canceled, false},
		{subscription.PastDue, subscription.Trialing, false},
		{subscription.PastDue, subscription.Expired, false},
		{subscription.Canceled, subscription.Active, false},
		{subscription.Canceled, subscription.Trialing, false},
		{subscription.Expired, subscription.Active, false},
		{subscription.Expired, subscription.Trialing, false},
	}
	for _, c := range cases {
		if got := subscription.CanMove(c.from, c.to); got != c.ok {
			t.Errorf("CanMove(%s, %s) = %v, want %v", c.from, c.to, got, c.ok)
		}
	}
}

func TestAddPeriod(t *testing.T) {
	at := time.Date(2026, 1, 31, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		interval string
		n        int
		want     time.Time
	}{
		{subscription.Day, 3, time.Date(2026, 2, 3, 9, 0, 0, 0, time.UTC)},
		{subscription.Week, 1, time.Date(2026, 2, 7, 9, 0, 0, 0, time.UTC)},
		{subscription.Month, 1, time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC)},
		{subscription.Year, 1, time.Date(2027, 1, 31, 9, 0, 0, 0, time.UTC)},
	} {
		got, err := subscription.AddPeriod(at, c.interval, c.n)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("AddPeriod(%s, %d) = %v, %v; want %v", c.interval, c.n, got, err, c.want)
		}
	}
	if _, err := subscription.AddPeriod(at, "FORTNIGHT", 1); err == nil {
		t.Error("an unknown interval was accepted")
	}
	if _, err := subscription.AddPeriod(at, subscription.Week, 0); err == nil {
		t.Error("a period of 0 was accepted")
	}
}

// t0 is when every test's customer subscribes: late in a month, so a card
// expiring this month is good for the trial and expired at its end.
var t0 = time.Date(2026, 3, 28, 10, 0, 0, 0, time.UTC)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *clock) Set(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = at
}

type fixture struct {
	st      *store.Store
	clock   *clock
	sandbox *payment.Sandbox
	svc     *subscription.Service
}

func setup(t *testing.T, st *store.Store) *fixture {
	c := &clock{now: t0}
	sb := storetest.Sandbox(st, c.Now)
	return &fixture{st: st, clock: c, sandbox: sb, svc: &subscription.Service{Store: st, Provider: sb,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: c.Now}}
}

// card saves a test card good until the end of 2030, or of expiry.
func (f *fixture) card(t *testing.T, number string, expiry ...time.Time) payment.SavedCard {
	t.Helper()
	exp := time.Date(2030, 12, 1, 0, 0, 0, 0, time.UTC)
	if len(expiry) > 0 {
		exp = expiry[0]
	}
	c, err := f.sandbox.SaveCard(context.Background(), payment.Card{Number: number, ExpMonth: int(exp.Month()), ExpYear: exp.Year()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fixture) input(customer string, card payment.SavedCard) subscription.StartInput {
	return subscription.StartInput{CustomerID: customer, Email: customer + "@example.com", Locale: "en", Country: "US",
		PlanID: "basic-weekly", Method: card}
}

func (f *fixture) run(t *testing.T) int {
	t.Helper()
	n, err := f.svc.RenewDue(context.Background())
	if err != nil {
		t.Fatalf("renew: %v", err)
	}
	return n
}

func (f *fixture) sub(t *testing.T, id string) store.Subscription {
	t.Helper()
	s, err := f.st.GetSubscription(context.Background(), f.st.DB, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// charges lists the amounts the sandbox took for a subscription, in order.
func (f *fixture) charges(t *testing.T, subID, state string) []int64 {
	t.Helper()
	var out []int64
	if err := f.st.DB.Select(&out, f.st.DB.Rebind(`SELECT amount FROM sandbox_payments WHERE ref LIKE ? AND state = ?
		ORDER BY created_at, ref`), "sbx_sub_"+subID+"_%", state); err != nil {
		t.Fatal(err)
	}
	return out
}

func (f *fixture) mails(t *testing.T, kind string) int {
	t.Helper()
	var n int
	if err := f.st.DB.Get(&n, f.st.DB.Rebind(`SELECT COUNT(*) FROM mail_outbox WHERE kind = ?`), kind); err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *fixture) invoices(t *testing.T, subID string) []store.Invoice {
	t.Helper()
	inv, err := f.st.SubscriptionInvoices(context.Background(), f.st.DB, subID)
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

func (f *fixture) tier(t *testing.T, customer string, at time.Time) subscription.Entitlement {
	t.Helper()
	e, err := f.svc.Entitlement(context.Background(), customer, at)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

const (
	trialPrice = 149
	basicPrice = 1999
	premium    = 3999
	week       = 7 * 24 * time.Hour
	// period is the basic plan's: billed every four weeks (0.71 a day).
	period = 4 * week
	day    = 24 * time.Hour
)

// The trial charges its trial price; a reminder goes out before it ends;
// at its end the plan's price is charged for a period (four weeks), and
// every period after.
func TestTrialThenRenewals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		if e := f.tier(t, "ann", t0); e.Tier != subscription.TierGuest {
			t.Fatalf("before subscribing: %+v", e)
		}
		sub, err := f.svc.StartTrial(ctx, f.input("ann", f.card(t, "4242424242424242")))
		if err != nil {
			t.Fatal(err)
		}
		if sub.Status != subscription.Trialing || !sub.TrialEnd.Valid || !sub.TrialEnd.Time.Equal(t0.Add(week)) ||
			!sub.CurrentPeriodEnd.Equal(t0.Add(week)) || sub.Price != basicPrice || sub.Currency != "USD" || sub.CardLast4.String != "4242" {
			t.Fatalf("after the trial started: %+v", sub)
		}
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice}) {
			t.Fatalf("trial charges %v", got)
		}
		if e := f.tier(t, "ann", t0.Add(time.Hour)); e.Tier != subscription.TierBasic || !e.ValidUntil.Equal(t0.Add(week)) {
			t.Fatalf("during the trial: %+v", e)
		}
		if f.mails(t, "subscription_receipt") != 1 {
			t.Fatal("no receipt for the trial")
		}

		f.clock.Add(5*day + time.Hour)
		if n := f.run(t); n != 0 {
			t.Fatalf("%d charges before the trial ended", n)
		}
		f.run(t)
		if n := f.mails(t, "subscription_reminder"); n != 1 {
			t.Fatalf("%d reminders before the trial's end", n)
		}

		f.clock.Set(t0.Add(week))
		if n := f.run(t); n != 1 {
			t.Fatalf("%d charges at the trial's end", n)
		}
		f.run(t)
		sub = f.sub(t, sub.ID)
		if sub.Status != subscription.Active || !sub.CurrentPeriodStart.Equal(t0.Add(week)) || !sub.CurrentPeriodEnd.Equal(t0.Add(week+period)) {
			t.Fatalf("after the first renewal: %+v", sub)
		}
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice, basicPrice}) {
			t.Fatalf("charges %v", got)
		}
		inv := f.invoices(t, sub.ID)
		if len(inv) != 2 || inv[1].Kind != subscription.KindRenewal || inv[1].Status != store.InvoicePaid || inv[1].Amount != basicPrice {
			t.Fatalf("invoices %+v", inv)
		}
		if f.mails(t, "subscription_receipt") != 2 {
			t.Fatal("no receipt for the renewal")
		}

		f.clock.Set(t0.Add(week + period))
		f.run(t)
		f.run(t)
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice, basicPrice, basicPrice}) {
			t.Fatalf("charges after the second period %v", got)
		}
		if e := f.tier(t, "ann", f.clock.Now()); e.Tier != subscription.TierBasic || !e.ValidUntil.Equal(t0.Add(week+2*period)) {
			t.Fatalf("after two renewals: %+v", e)
		}
	})
}

// A declined renewal is retried after a day and after three more; access
// lasts until the last retry; then the subscription is canceled.
func TestDeclinedRenewalRetriesThenCancels(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		// Good until the end of March: the trial is paid, the renewal on 4
		// April is declined as an expired card.
		sub, err := f.svc.StartTrial(ctx, f.input("bob", f.card(t, "4242424242424242", t0)))
		if err != nil {
			t.Fatal(err)
		}
		end := t0.Add(week)
		f.clock.Set(end)
		f.run(t)
		sub = f.sub(t, sub.ID)
		inv := f.invoices(t, sub.ID)
		if sub.Status != subscription.PastDue || len(inv) != 2 || inv[1].Status != store.InvoicePending ||
			inv[1].Attempts != 1 || inv[1].FailureCode.String != "expired_card" || !inv[1].NextAttemptAt.Equal(end.Add(day)) {
			t.Fatalf("after the first decline: %+v %+v", sub, inv)
		}
		if e := f.tier(t, "bob", end.Add(time.Hour)); e.Tier != subscription.TierBasic || !e.ValidUntil.Equal(end.Add(4*day)) {
			t.Fatalf("past due: %+v", e)
		}
		f.run(t) // not yet due again
		f.clock.Set(end.Add(day))
		f.run(t)
		if inv := f.invoices(t, sub.ID)[1]; inv.Attempts != 2 || inv.Status != store.InvoicePending || !inv.NextAttemptAt.Equal(end.Add(4*day)) {
			t.Fatalf("after the second decline: %+v", inv)
		}
		f.clock.Set(end.Add(4 * day))
		f.run(t)
		f.run(t)
		sub = f.sub(t, sub.ID)
		inv = f.invoices(t, sub.ID)
		if sub.Status != subscription.Canceled || inv[1].Status != store.InvoiceFailed || inv[1].Attempts != 3 {
			t.Fatalf("after the last retry: %+v %+v", sub, inv)
		}
		if got := f.charges(t, sub.ID, "failed"); !equal(got, []int64{basicPrice, basicPrice, basicPrice}) {
			t.Fatalf("declined attempts %v", got)
		}
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice}) {
			t.Fatalf("charges %v", got)
		}
		if e := f.tier(t, "bob", f.clock.Now()); e.Tier != subscription.TierGuest {
			t.Fatalf("canceled: %+v", e)
		}
		if f.mails(t, "subscription_payment_failed") != 2 || f.mails(t, "subscription_ended_unpaid") != 1 {
			t.Fatal("missing failure notices")
		}
		// Ended: the customer may subscribe again, but without a second
		// trial, under their account or a new one for the same address.
		if _, err := f.svc.StartTrial(ctx, f.input("bob", f.card(t, "4242424242424242"))); !errors.Is(err, subscription.ErrTrialUsed) {
			t.Fatalf("a second trial: %v", err)
		}
		again := f.input("bob-new-account", f.card(t, "4242424242424242"))
		again.Email = "bob@example.com"
		if _, err := f.svc.StartTrial(ctx, again); !errors.Is(err, subscription.ErrTrialUsed) {
			t.Fatalf("a second trial under a new account: %v", err)
		}
		if _, err := f.svc.PayNow(ctx, f.input("bob", f.card(t, "4242424242424242"))); err != nil {
			t.Fatalf("subscribing again: %v", err)
		}
	})
}

// Cancelling stops the renewal; access lasts to the period's end, then the
// subscription expires. Cancelling twice, or someone else's, changes
// nothing.
func TestCancelAtPeriodEnd(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		sub, err := f.svc.StartTrial(ctx, f.input("cat", f.card(t, "4242424242424242")))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Cancel(ctx, "mallory", sub.ID); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("another customer cancelled: %v", err)
		}
		f.clock.Add(2 * day)
		c1, err := f.svc.Cancel(ctx, "cat", sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Add(time.Hour)
		c2, err := f.svc.Cancel(ctx, "cat", sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !c1.CancelAtPeriodEnd || c1.Status != subscription.Trialing || !c2.CanceledAt.Time.Equal(c1.CanceledAt.Time) ||
			f.mails(t, "subscription_canceled") != 1 {
			t.Fatalf("cancel: %+v then %+v", c1, c2)
		}
		end := t0.Add(week)
		if e := f.tier(t, "cat", end.Add(-time.Second)); e.Tier != subscription.TierBasic || !e.ValidUntil.Equal(end) || !e.CancelAtPeriodEnd {
			t.Fatalf("before the end: %+v", e)
		}
		if e := f.tier(t, "cat", end); e.Tier != subscription.TierGuest {
			t.Fatalf("at the end: %+v", e)
		}
		f.clock.Add(4 * day)
		f.run(t)
		if f.mails(t, "subscription_reminder") != 0 {
			t.Fatal("a cancelled subscription was reminded of its renewal")
		}
		f.clock.Set(end.Add(time.Minute))
		f.run(t)
		sub = f.sub(t, sub.ID)
		if sub.Status != subscription.Expired || !sub.EndedAt.Time.Equal(end) || len(f.invoices(t, sub.ID)) != 1 {
			t.Fatalf("after the end: %+v", sub)
		}
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice}) {
			t.Fatalf("charges %v", got)
		}
		if _, err := f.svc.Cancel(ctx, "cat", sub.ID); err != nil || f.sub(t, sub.ID).Status != subscription.Expired {
			t.Fatalf("cancel after the end: %v", err)
		}
	})
}

// Upgrading during the trial ends it, charges premium at once and replaces
// the plan; replayed or concurrent upgrades charge once; premium renews
// monthly.
func TestUpgradeDuringTrial(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		sub, err := f.svc.StartTrial(ctx, f.input("dan", f.card(t, "4242424242424242")))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Upgrade(ctx, "dan", sub.ID, "basic-weekly"); err != nil {
			t.Fatalf("upgrade to the same plan: %v", err)
		}
		if _, err := f.svc.Upgrade(ctx, "dan", sub.ID, "nope"); !errors.Is(err, subscription.ErrNoPremiumPlan) {
			t.Fatalf("upgrade to an unknown plan: %v", err)
		}
		f.clock.Add(2 * day)
		at := f.clock.Now()
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = f.svc.Upgrade(ctx, "dan", sub.ID, "premium-monthly")
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil && !errors.Is(err, subscription.ErrBusy) {
				t.Fatalf("concurrent upgrade: %v", err)
			}
		}
		if errs[0] != nil && errs[1] != nil && errs[2] != nil {
			t.Fatal("no upgrade went through")
		}
		f.clock.Add(time.Hour)
		again, err := f.svc.Upgrade(ctx, "dan", sub.ID, "premium-monthly")
		if err != nil {
			t.Fatal(err)
		}
		monthEnd := at.AddDate(0, 1, 0)
		if again.PlanID != "premium-monthly" || again.Status != subscription.Active || again.Price != premium ||
			!again.TrialEnd.Time.Equal(at) || !again.CurrentPeriodStart.Equal(at) || !again.CurrentPeriodEnd.Equal(monthEnd) {
			t.Fatalf("after the upgrade: %+v", again)
		}
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice, premium}) {
			t.Fatalf("charges %v", got)
		}
		if e := f.tier(t, "dan", f.clock.Now()); e.Tier != subscription.TierPremium || !e.ValidUntil.Equal(monthEnd) {
			t.Fatalf("premium: %+v", e)
		}
		// The trial's end passes without a basic renewal.
		f.clock.Set(t0.Add(week))
		f.run(t)
		if got := f.charges(t, sub.ID, "succeeded"); len(got) != 2 {
			t.Fatalf("charged at the old trial end: %v", got)
		}
		f.clock.Set(monthEnd)
		f.run(t)
		sub = f.sub(t, sub.ID)
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice, premium, premium}) ||
			!sub.CurrentPeriodEnd.Equal(monthEnd.AddDate(0, 1, 0)) || sub.Status != subscription.Active {
			t.Fatalf("after a month: %v %+v", got, sub)
		}
		inv := f.invoices(t, sub.ID)
		if len(inv) != 3 || inv[1].Kind != subscription.KindUpgrade || inv[2].Kind != subscription.KindRenewal || inv[2].Amount != premium {
			t.Fatalf("invoices %+v", inv)
		}
	})
}

// A declined upgrade leaves the basic plan as it was.
func TestDeclinedUpgrade(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		sub, err := f.svc.StartTrial(ctx, f.input("eve", f.card(t, "4242424242424242", t0)))
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Set(time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)) // the card has expired
		if _, err := f.svc.Upgrade(ctx, "eve", sub.ID, "premium-monthly"); !errors.Is(err, subscription.ErrUpgradeFailed) {
			t.Fatalf("upgrade with an expired card: %v", err)
		}
		if got := f.sub(t, sub.ID); got.PlanID != "basic-weekly" || got.Status != subscription.Trialing || !got.CurrentPeriodEnd.Equal(t0.Add(week)) {
			t.Fatalf("after a declined upgrade: %+v", got)
		}
	})
}

// Pay now skips the trial and charges the plan at once; a double submit
// starts one subscription; a declined first charge ends it.
func TestPayNow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		card := f.card(t, "4242424242424242")
		sub, err := f.svc.PayNow(ctx, f.input("fay", card))
		if err != nil {
			t.Fatal(err)
		}
		if sub.Status != subscription.Active || sub.TrialEnd.Valid || !sub.CurrentPeriodEnd.Equal(t0.Add(period)) {
			t.Fatalf("after pay now: %+v", sub)
		}
		if _, err := f.svc.StartTrial(ctx, f.input("fay", card)); !errors.Is(err, subscription.ErrAlreadySubscribed) {
			t.Fatalf("double submit: %v", err)
		}
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{basicPrice}) {
			t.Fatalf("charges %v", got)
		}
		if inv := f.invoices(t, sub.ID); len(inv) != 1 || inv[0].Kind != subscription.KindPayNow {
			t.Fatalf("invoices %+v", inv)
		}

		declined, err := f.svc.StartTrial(ctx, f.input("gus", f.card(t, "4000000000000002")))
		if !errors.Is(err, subscription.ErrDeclined) || declined.Status != subscription.Expired {
			t.Fatalf("declined trial: %+v %v", declined, err)
		}
		if e := f.tier(t, "gus", t0); e.Tier != subscription.TierGuest {
			t.Fatalf("declined: %+v", e)
		}
		if _, err := f.svc.StartTrial(ctx, f.input("gus", f.card(t, "4242424242424242"))); err != nil {
			t.Fatalf("after a declined card: %v", err)
		}
	})
}

// Renewal runs that overlap (several instances) charge a period once.
func TestConcurrentRenewalRunsChargeOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		var subs []store.Subscription
		for _, c := range []string{"h1", "h2", "h3"} {
			sub, err := f.svc.StartTrial(ctx, f.input(c, f.card(t, "4242424242424242")))
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, sub)
		}
		f.clock.Set(t0.Add(week))
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := f.svc.RenewDue(ctx); err != nil {
					t.Errorf("renew: %v", err)
				}
			}()
		}
		wg.Wait()
		f.run(t)
		for _, sub := range subs {
			if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice, basicPrice}) {
				t.Fatalf("%s charged %v", sub.CustomerID, got)
			}
			if got := f.sub(t, sub.ID); got.Status != subscription.Active || !got.CurrentPeriodEnd.Equal(t0.Add(week+period)) {
				t.Fatalf("%+v", got)
			}
		}
		if n := f.mails(t, "subscription_receipt"); n != 6 {
			t.Fatalf("%d receipts", n)
		}
	})
}

// crashing charges through the sandbox and then fails as a process would
// that died before committing the outcome.
type crashing struct {
	*payment.Sandbox
}

func (c crashing) ChargeSaved(ctx context.Context, method string, r payment.Request) (payment.Charge, error) {
	if _, err := c.Sandbox.ChargeSaved(ctx, method, r); err != nil {
		return payment.Charge{}, err
	}
	return payment.Charge{}, errors.New("connection reset after the charge")
}

// A renewal whose runner died after the provider charged and before the
// outcome was committed is finished by a later run, with no second charge.
func TestRenewalCrashIsFinishedWithoutASecondCharge(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		sub, err := f.svc.StartTrial(ctx, f.input("ida", f.card(t, "4242424242424242")))
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Set(t0.Add(week))
		crashed := *f.svc
		crashed.Provider = crashing{f.sandbox}
		if _, err := crashed.RenewDue(ctx); err == nil {
			t.Fatal("the crash was not reported")
		}
		inv := f.invoices(t, sub.ID)
		if len(inv) != 2 || inv[1].Status != store.InvoicePending || !inv[1].AttemptOpen || inv[1].Attempts != 1 {
			t.Fatalf("after the crash: %+v", inv)
		}
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice, basicPrice}) {
			t.Fatalf("charges after the crash %v", got)
		}
		f.run(t) // the dead runner's lease still holds
		if got := f.sub(t, sub.ID); got.Status != subscription.Trialing {
			t.Fatalf("settled during the lease: %+v", got)
		}
		f.clock.Add(subscription.DefaultLease)
		if n := f.run(t); n != 1 {
			t.Fatalf("%d settled after the lease", n)
		}
		sub = f.sub(t, sub.ID)
		inv = f.invoices(t, sub.ID)
		if sub.Status != subscription.Active || !sub.CurrentPeriodEnd.Equal(t0.Add(week+period)) || inv[1].Status != store.InvoicePaid || inv[1].Attempts != 1 {
			t.Fatalf("after the next run: %+v %+v", sub, inv)
		}
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice, basicPrice}) {
			t.Fatalf("charged twice: %v", got)
		}
		if n := f.mails(t, "subscription_receipt"); n != 2 {
			t.Fatalf("%d receipts", n)
		}
	})
}

// A trial start whose request died after the charge is finished by the
// renewal job, not charged again.
func TestStartCrashIsFinishedByTheJob(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		crashed := *f.svc
		crashed.Provider = crashing{f.sandbox}
		if _, err := crashed.StartTrial(ctx, f.input("jo", f.card(t, "4242424242424242"))); err == nil {
			t.Fatal("the crash was not reported")
		}
		subs, err := st.CustomerSubscriptions(ctx, st.DB, "jo")
		if err != nil || len(subs) != 1 || subs[0].Status != subscription.Incomplete {
			t.Fatalf("after the crash: %+v %v", subs, err)
		}
		if e := f.tier(t, "jo", t0); e.Tier != subscription.TierGuest {
			t.Fatalf("incomplete gives access: %+v", e)
		}
		f.clock.Add(subscription.DefaultLease)
		f.run(t)
		sub := f.sub(t, subs[0].ID)
		if sub.Status != subscription.Trialing {
			t.Fatalf("after the job: %+v", sub)
		}
		if got := f.charges(t, sub.ID, "succeeded"); !equal(got, []int64{trialPrice}) {
			t.Fatalf("charges %v", got)
		}
	})
}

// A past-due subscription cancelled stops its retries at once.
func TestCancelPastDue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := setup(t, st)
		ctx := context.Background()
		sub, err := f.svc.StartTrial(ctx, f.input("kit", f.card(t, "4242424242424242", t0)))
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Set(t0.Add(week))
		f.run(t)
		if got := f.sub(t, sub.ID); got.Status != subscription.PastDue {
			t.Fatalf("%+v", got)
		}
		got, err := f.svc.Cancel(ctx, "kit", sub.ID)
		if err != nil || got.Status != subscription.Canceled {
			t.Fatalf("cancel past due: %+v %v", got, err)
		}
		f.clock.Add(5 * day)
		f.run(t)
		inv := f.invoices(t, sub.ID)
		if inv[1].Status != store.InvoiceVoid || inv[1].Attempts != 1 {
			t.Fatalf("retried after cancel: %+v", inv[1])
		}
	})
}

func TestBenefitsGrowWithTheTier(t *testing.T) {
	guest, basic, premium := subscription.BenefitsOf(subscription.TierGuest), subscription.BenefitsOf(subscription.TierBasic),
		subscription.BenefitsOf(subscription.TierPremium)
	if len(guest) == 0 || len(basic) <= len(guest) || len(premium) != len(subscription.Benefits) {
		t.Fatalf("benefits: guest %d, basic %d, premium %d of %d", len(guest), len(basic), len(premium), len(subscription.Benefits))
	}
	if subscription.TierBasic.Includes(subscription.TierPremium) || !subscription.TierPremium.Includes(subscription.TierBasic) {
		t.Error("tiers do not include the ones below them only")
	}
}
