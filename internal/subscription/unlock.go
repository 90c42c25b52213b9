package subscription

import (
	"context"
	"errors"
	"net/http"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/apperr"
	"selfmap/internal/ids"
	"selfmap/internal/store"
)

// FreeReportsPerPeriod is how many of the member's own reports a Basic plan
// opens without paying in each billing period (its trial included): enough
// to read one full report a period; every report, at any time, is
// Premium's. The count starts again with each new period.
const FreeReportsPerPeriod = 1

// The refusals of a free report.
var (
	// ErrReportNotFound is a result that does not exist or is not the
	// member's own: it answers exactly like a missing one.
	ErrReportNotFound = apperr.NotFound("api.not_found")
	// ErrNoFreeReportLeft is a Basic member whose period's free reports are
	// used.
	ErrNoFreeReportLeft = &apperr.Error{Status: http.StatusConflict, ID: "usercenter.unlock.none_left"}
	// ErrNoFreeReports is a member whose plan includes no free reports (a
	// free account; Premium opens every report by itself).
	ErrNoFreeReports = &apperr.Error{Status: http.StatusForbidden, ID: "usercenter.unlock.basic_only"}
)

// FreeReports are a Basic plan's free reports in the current period: Left
// of Of. Both are zero for the other tiers.
type FreeReports struct {
	Left, Of int
}

// Membership is a member's entitlement now, with a Basic plan's free
// reports of the period.
type Membership struct {
	Entitlement
	Free FreeReports
}

// Member is the member's entitlement now, applied to their reports. While
// it is Premium, every report of the account that is not open yet is
// unlocked ("your reports anytime"): it stays open after Premium ends. For
// Basic it counts the period's free reports left.
func (s *Service) Member(ctx context.Context, customerID string) (Membership, error) {
	ent, err := s.Entitlement(ctx, customerID, s.now())
	if err != nil {
		return Membership{Entitlement: ent}, err
	}
	m := Membership{Entitlement: ent}
	switch ent.Tier {
	case TierPremium:
		if _, err := s.Store.UnlockUserReports(ctx, s.Store.DB, customerID, ent.SubscriptionID, s.now()); err != nil {
			return m, err
		}
	case TierBasic:
		used, err := s.Store.CountUnlocks(ctx, s.Store.DB, ent.SubscriptionID, store.UnlockBasicFree, ent.PeriodStart)
		if err != nil {
			return m, err
		}
		m.Free = FreeReports{Left: max(0, FreeReportsPerPeriod-used), Of: FreeReportsPerPeriod}
	}
	return m, nil
}

// UseFreeReport opens one of the member's own reports with a free report
// of their Basic plan's period. A report already open stays as it is and
// uses nothing. Another account's result, or an unknown one, is
// ErrReportNotFound; none left is ErrNoFreeReportLeft; a plan without free
// reports ErrNoFreeReports (Premium has them all open already).
func (s *Service) UseFreeReport(ctx context.Context, customerID, resultID string) error {
	if !ids.Valid(resultID) {
		return ErrReportNotFound
	}
	owner, err := s.Store.ResultOwner(ctx, s.Store.DB, resultID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (owner == "" || owner != customerID)) {
		return ErrReportNotFound
	}
	if err != nil {
		return err
	}
	m, err := s.Member(ctx, customerID)
	if err != nil {
		return err
	}
	if open, err := s.Store.ReportOpen(ctx, s.Store.DB, resultID); err != nil || open {
		return err
	}
	if m.Tier != TierBasic {
		return ErrNoFreeReports
	}
	now := s.now()
	return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.Store.HoldSubscription(ctx, tx, m.SubscriptionID); err != nil {
			return err
		}
		used, err := s.Store.CountUnlocks(ctx, tx, m.SubscriptionID, store.UnlockBasicFree, m.PeriodStart)
		if err != nil {
			return err
		}
		if used >= FreeReportsPerPeriod {
			return ErrNoFreeReportLeft
		}
		_, err = s.Store.UnlockReport(ctx, tx, store.ReportUnlock{ResultID: resultID, UserID: customerID, How: store.UnlockBasicFree,
			SubscriptionID: m.SubscriptionID, CreatedAt: now})
		return err
	})
}
