package apptest

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"selfmap/internal/account"
	"selfmap/internal/ids"
	"selfmap/internal/payment"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

// Password is the password of every user the kit makes.
const Password = "correct horse"

// UserName is the name of every user the kit makes.
const UserName = "Ada Lovelace"

// VerifiedUser stores an account whose address is verified, with Password,
// as registering and entering the mailed code leave it (without the mails):
// a browser signs in with Browser.Login.
func (k *Kit) VerifiedUser(t testing.TB, email string) account.User {
	t.Helper()
	ctx := context.Background()
	now := k.Clock.Now().UTC()
	u := store.User{ID: ids.New(), Email: email, Name: UserName, PasswordHash: account.HashPassword(Password), SessionGen: 1,
		CreatedAt: now, UpdatedAt: now}
	if err := k.Store.CreateUser(ctx, k.Store.DB, u); err != nil {
		t.Fatalf("apptest: create user %s: %v", email, err)
	}
	if err := k.Store.MarkUserVerified(ctx, k.Store.DB, u.ID, now); err != nil {
		t.Fatalf("apptest: verify user %s: %v", email, err)
	}
	u, err := k.Store.GetUser(ctx, k.Store.DB, u.ID)
	if err != nil {
		t.Fatalf("apptest: read user %s: %v", email, err)
	}
	return u
}

// ActiveSubscription puts a user on a plan through the app's subscription
// service and sandbox, paid now for a first full period, as the checkout
// does for the user's account and address.
func (k *Kit) ActiveSubscription(t testing.TB, userID, planID string) subscription.Subscription {
	t.Helper()
	u, err := k.Store.GetUser(context.Background(), k.Store.DB, userID)
	if err != nil {
		t.Fatalf("apptest: subscribe user %s: %v", userID, err)
	}
	return Subscribe(t, k.subscriptions(t), subscription.StartInput{CustomerID: u.ID, Email: u.Email, PlanID: planID}, false)
}

// TrialSubscription starts a plan's paid trial for a guest known by an
// e-mail address alone, as the checkout does for a visitor without an
// account.
func (k *Kit) TrialSubscription(t testing.TB, email, planID string) subscription.Subscription {
	t.Helper()
	return Subscribe(t, k.subscriptions(t), subscription.StartInput{CustomerID: email, Email: email, PlanID: planID}, true)
}

func (k *Kit) subscriptions(t testing.TB) *subscription.Service {
	t.Helper()
	if k.App.Subscriptions == nil {
		t.Fatal("apptest: the app's payment provider runs no subscriptions")
	}
	return k.App.Subscriptions
}

// Subscriptions is the subscription service on the sandbox, over a store
// and a clock, for a test with no app in its process (the browser tests
// drive the real binary).
func Subscriptions(st *store.Store, now func() time.Time) *subscription.Service {
	return &subscription.Service{Store: st, Provider: storetest.Sandbox(st, now), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: now}
}

// Subscribe starts a subscription on svc, whose provider is the sandbox,
// paying with the test card that always succeeds: the plan's paid trial
// when trial, else a first full period paid now. The locale and country
// default to en and US. Any error fails the test.
func Subscribe(t testing.TB, svc *subscription.Service, in subscription.StartInput, trial bool) subscription.Subscription {
	t.Helper()
	sb, ok := svc.Provider.(*payment.Sandbox)
	if !ok {
		t.Fatalf("apptest: subscribe on %s, not the sandbox", svc.Provider.Name())
	}
	in.Method = storetest.GoodCard(t, sb)
	if in.Locale == "" {
		in.Locale = "en"
	}
	if in.Country == "" {
		in.Country = "US"
	}
	start := svc.PayNow
	if trial {
		start = svc.StartTrial
	}
	sub, err := start(context.Background(), in)
	if err != nil {
		t.Fatalf("apptest: subscribe %s to %s: %v", in.CustomerID, in.PlanID, err)
	}
	return sub
}

// Report is a test taken and its report paid for, with the browser that
// did both: the report's owner.
type Report struct {
	ResultID, OrderNumber string
	Owner                 *Browser
}

// PaidReport takes the 16-type test and pays for its report with the
// sandbox's good card through the API, as the islands do, in a new
// browser.
func (k *Kit) PaidReport(t testing.TB) Report {
	t.Helper()
	b := k.Browser(t)
	result, order := b.PaidReport(b.CSRFToken("/"))
	return Report{ResultID: result, OrderNumber: order, Owner: b}
}
