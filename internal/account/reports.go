package account

import (
	"context"
	"errors"
	"fmt"

	"selfmap/internal/apperr"
	"selfmap/internal/store"
)

// OwnReport is one of the account's results, as the user centre lists
// them. Paid says its report is open: bought, or unlocked by a plan (the
// rule of result.Service.Unlocked); the list's "completed" tab.
type OwnReport struct {
	Result store.Result
	Paid   bool
}

// Reports lists the account's results, newest first, each with whether its
// report is open (paid for, or unlocked by a plan).
func (s *Service) Reports(ctx context.Context, userID string) ([]OwnReport, error) {
	rs, err := s.Store.UserResults(ctx, s.Store.DB, userID)
	if err != nil {
		return nil, fmt.Errorf("account: reports: %w", err)
	}
	paid, err := s.Store.UserOpenReports(ctx, s.Store.DB, userID)
	if err != nil {
		return nil, fmt.Errorf("account: reports: %w", err)
	}
	out := make([]OwnReport, len(rs))
	for i, r := range rs {
		out[i] = OwnReport{Result: r, Paid: paid[r.ID]}
	}
	return out, nil
}

// OwnsResult reports whether a result has joined the account: its owner
// sees it from any browser they sign in on. A result that does not exist
// is owned by nobody.
func (s *Service) OwnsResult(ctx context.Context, userID, resultID string) (bool, error) {
	if userID == "" {
		return false, nil
	}
	owner, err := s.Store.ResultOwner(ctx, s.Store.DB, resultID)
	if errors.Is(err, apperr.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("account: result owner: %w", err)
	}
	return owner == userID, nil
}

// ClaimResult joins a result this browser just made to the signed-in
// account, when no account holds it yet (a test finished while signed in
// is the member's at once: My Page, the report list and the orders show
// it). owns reports whether the browser holds the result; another
// browser's result joins nothing.
func (s *Service) ClaimResult(ctx context.Context, userID, resultID string, owns func(string) bool) error {
	if userID == "" || !owns(resultID) {
		return nil
	}
	return s.ClaimOwnResults(ctx, userID, []string{resultID})
}
