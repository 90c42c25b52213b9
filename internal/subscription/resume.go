package subscription

import (
	"context"
	"database/sql"
	"strconv"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/payment"
	"selfmap/internal/store"
)

// Resume takes back a customer's cancel of a subscription before its
// period ends: it renews again at the period's end, charged to the card on
// file. One that was not cancelled is answered as it is. A subscription
// that has ended (or whose period is over), another customer's, or a
// missing one answers ErrNotFound: nothing is left to resume.
func (s *Service) Resume(ctx context.Context, customerID, id string) (store.Subscription, error) {
	sub, err := s.owned(ctx, customerID, id)
	if err != nil {
		return store.Subscription{}, err
	}
	now := s.now()
	if st := sub.Status; (st != Trialing && st != Active) || !now.Before(sub.CurrentPeriodEnd) {
		return store.Subscription{}, ErrNotFound
	}
	if !sub.CancelAtPeriodEnd {
		return sub, nil
	}
	if b, ok := s.managed(sub); ok {
		setup, ok := b.(payment.CardSetup)
		if !ok || !sub.ProviderRef.Valid {
			return store.Subscription{}, ErrBusy
		}
		// One key per cancel taken back: a later cancel and resume is a new
		// call, a replayed one the same.
		key := "sub_resume_" + sub.ID + "_" + strconv.FormatInt(sub.CanceledAt.Time.UnixMilli(), 10)
		if _, err := setup.Resume(ctx, sub.ProviderRef.String, key); err != nil {
			return store.Subscription{}, err
		}
	}
	err = s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		err := s.update(ctx, tx, id, func(sub *store.Subscription) ([]mailKind, error) {
			if (sub.Status == Trialing || sub.Status == Active) && now.Before(sub.CurrentPeriodEnd) {
				sub.CancelAtPeriodEnd, sub.CanceledAt = false, sql.NullTime{}
			}
			return nil, nil
		})
		if err != nil {
			return err
		}
		if _, ok := s.managed(sub); ok {
			// As after a cancel: an older event still saying "ends" must not
			// take the resume back.
			return s.Store.MarkSubscriptionSynced(ctx, tx, id, now)
		}
		return nil
	})
	if err != nil {
		return store.Subscription{}, err
	}
	sub, err = s.Store.GetSubscription(ctx, s.Store.DB, id)
	if err == nil && sub.CancelAtPeriodEnd {
		// It ended while we wrote (the renewal job came first).
		return store.Subscription{}, ErrNotFound
	}
	return sub, err
}
