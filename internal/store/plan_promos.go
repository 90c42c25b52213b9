package store

import (
	"context"
	"database/sql"
)

// PlanPromo is a promo code of one subscription plan: a percentage off the
// plan's first charge, valid from StartsOn to EndsOn (UTC dates, ISO,
// EndsOn exclusive and empty when open).
type PlanPromo struct {
	Code       string         `db:"code"`
	PlanID     string         `db:"plan_id"`
	PercentOff int64          `db:"percent_off"`
	StartsOn   string         `db:"starts_on"`
	EndsOn     sql.NullString `db:"ends_on"`
}

// GetPlanPromo reads a promo code of a plan; ErrNotFound when the code
// does not exist for that plan.
func (s *Store) GetPlanPromo(ctx context.Context, db Querier, code, planID string) (PlanPromo, error) {
	var p PlanPromo
	err := db.GetContext(ctx, &p, db.Rebind(`SELECT code, plan_id, percent_off, starts_on, ends_on
		FROM plan_promos WHERE code = ? AND plan_id = ?`), code, planID)
	if err != nil {
		return PlanPromo{}, notFound("get plan promo", err)
	}
	return p, nil
}
