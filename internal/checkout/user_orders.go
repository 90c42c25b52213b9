package checkout

import (
	"context"
	"fmt"
)

// UserOrder is one of the account's orders, with whether the report it is
// about is open (paid for, or unlocked by a plan: the rule of
// result.Service.Unlocked). Its status stays the order's own: an order a
// plan made unnecessary is not paid.
type UserOrder struct {
	Order
	ReportOpen bool
}

// UserOrders lists the orders of a signed-in user's account, newest first:
// only their own, whatever results their browser holds.
func (s *Service) UserOrders(ctx context.Context, userID string) ([]UserOrder, error) {
	orders, err := s.Store.UserOrders(ctx, s.Store.DB, userID)
	if err != nil {
		return nil, fmt.Errorf("checkout: user orders: %w", err)
	}
	open, err := s.Store.UserOpenReports(ctx, s.Store.DB, userID)
	if err != nil {
		return nil, fmt.Errorf("checkout: user orders: %w", err)
	}
	out := make([]UserOrder, len(orders))
	for i, o := range orders {
		out[i] = UserOrder{Order: o, ReportOpen: open[o.ResultID]}
	}
	return out, nil
}
