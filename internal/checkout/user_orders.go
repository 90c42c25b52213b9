package checkout

import (
	"context"
	"fmt"
)

// UserOrders lists the orders of a signed-in user's account, newest first:
// only their own, whatever results their browser holds.
func (s *Service) UserOrders(ctx context.Context, userID string) ([]Order, error) {
	orders, err := s.Store.UserOrders(ctx, s.Store.DB, userID)
	if err != nil {
		return nil, fmt.Errorf("checkout: user orders: %w", err)
	}
	return orders, nil
}
