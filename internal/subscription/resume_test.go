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

// A cancel is taken back before the period ends, and the subscription
// renews; once it has ended, and for another customer, Resume answers
// ErrNotFound and changes nothing.
func TestResume(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		f := setup(t, st)
		sub, err := f.svc.PayNow(ctx, f.input("ann", f.card(t, "4242424242424242")))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := f.svc.Resume(ctx, "ann", sub.ID); err != nil || got.Version != sub.Version {
			t.Fatalf("resume of one not cancelled wrote: %+v, %v", got, err)
		}
		if _, err := f.svc.Cancel(ctx, "ann", sub.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Resume(ctx, "bob", sub.ID); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("another customer's resume: %v", err)
		}
		got, err := f.svc.Resume(ctx, "ann", sub.ID)
		if err != nil || got.CancelAtPeriodEnd || got.CanceledAt.Valid {
			t.Fatalf("resume: %+v, %v", got, err)
		}
		// It renews at the period's end, as if never cancelled.
		f.clock.Set(sub.CurrentPeriodEnd.Add(time.Minute))
		f.run(t)
		if got := f.sub(t, sub.ID); got.Status != subscription.Active || !got.CurrentPeriodStart.Equal(sub.CurrentPeriodEnd) {
			t.Fatalf("after the period: %s from %v", got.Status, got.CurrentPeriodStart)
		}

		// Cancelled again and past its end: ended, and not resumed.
		if _, err := f.svc.Cancel(ctx, "ann", sub.ID); err != nil {
			t.Fatal(err)
		}
		end := f.sub(t, sub.ID).CurrentPeriodEnd
		f.clock.Set(end.Add(time.Minute))
		if _, err := f.svc.Resume(ctx, "ann", sub.ID); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("resume after the period's end: %v", err)
		}
		f.run(t)
		before := f.sub(t, sub.ID)
		if !before.Ended() {
			t.Fatalf("not ended: %s", before.Status)
		}
		if _, err := f.svc.Resume(ctx, "ann", sub.ID); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("resume of an ended subscription: %v", err)
		}
		if after := f.sub(t, sub.ID); after.Version != before.Version {
			t.Fatal("a refused resume wrote")
		}
	})
}

// The sandbox's card form replaces the card; checks and owners as the
// form's.
func TestReplaceCard(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		f := setup(t, st)
		sub, err := f.svc.PayNow(ctx, f.input("ann", f.card(t, "4242424242424242")))
		if err != nil {
			t.Fatal(err)
		}
		good := subscription.CardInput{Number: "4000 0000 0000 9995", Expiry: "12/30", CVC: "123"}
		if _, _, err := f.svc.ReplaceCard(ctx, "bob", sub.ID, good); !errors.Is(err, subscription.ErrNotFound) {
			t.Fatalf("another customer's card: %v", err)
		}
		_, errs, err := f.svc.ReplaceCard(ctx, "ann", sub.ID, subscription.CardInput{Number: "1234", Expiry: "01/20", CVC: "x"})
		if err != nil || !errs.Has("number") || !errs.Has("expiry") || !errs.Has("cvc") {
			t.Fatalf("a bad card: %v, %v", errs, err)
		}
		if f.sub(t, sub.ID).Version != sub.Version {
			t.Fatal("refused cards wrote")
		}
		got, errs, err := f.svc.ReplaceCard(ctx, "ann", sub.ID, good)
		if err != nil || errs.Any() || got.CardBrand.String != "visa" || got.CardLast4.String != "9995" || got.PaymentMethodRef == sub.PaymentMethodRef {
			t.Fatalf("replace: %+v, %v, %v", got, errs, err)
		}
		changes, err := st.CardChangesOf(ctx, st.DB, "ann")
		if err != nil || len(changes) != 1 || changes[0].OldLast4.String != "4242" || changes[0].NewLast4.String != "9995" {
			t.Fatalf("card changes: %+v, %v", changes, err)
		}
		// The next renewal is charged to the new card (this test card
		// declines: the renewal fails and is retried).
		f.clock.Set(sub.CurrentPeriodEnd.Add(time.Minute))
		f.run(t)
		if got := f.sub(t, sub.ID); got.Status != subscription.PastDue {
			t.Fatalf("renewal on the new declining card: %s", got.Status)
		}
	})
}
