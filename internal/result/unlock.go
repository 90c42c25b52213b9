package result

import "context"

// Unlocked reports whether a result's report is open to whoever may see the
// result: its report order is paid, or a plan unlocked it (a Premium
// member's own report, a Basic plan's free report). It is the question of
// access every screen asks; Paid stays the question of money (what the
// buyer paid for, and so froze).
func (s *Service) Unlocked(ctx context.Context, resultID string) (bool, error) {
	return s.Store.ReportOpen(ctx, s.Store.DB, resultID)
}
