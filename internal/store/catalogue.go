package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// SKU is something that can be bought for an exam.
type SKU struct {
	ID      string         `db:"id"`
	ExamID  int            `db:"exam_id"`
	Product string         `db:"product"`
	Kind    string         `db:"kind"`
	Step    sql.NullString `db:"step"`
	Sort    int            `db:"sort"`
}

// Price is a SKU's price in one country ("*" for everywhere else).
type Price struct {
	SKUID    string `db:"sku_id"`
	Country  string `db:"country"`
	Currency string `db:"currency"`
	Amount   int64  `db:"amount"`
	// ListAmount is the reference price of a reduction: the lowest price of
	// the SKU actually paid in its currency in the ReferenceWindow before
	// the current amount took effect (NULL: none was paid, or the price
	// never changed). A page strikes it through only when it is above
	// Amount (the EU rule for price reductions; migration 0018).
	ListAmount sql.NullInt64 `db:"list_amount"`
}

// Reduced is the reference price to strike through beside Amount: only a
// reference above the current amount is a reduction (the EU rule).
func (p Price) Reduced() (int64, bool) {
	if p.ListAmount.Valid && p.ListAmount.Int64 > p.Amount {
		return p.ListAmount.Int64, true
	}
	return 0, false
}

// ReferenceWindow is how far before a price change the reference price of
// a reduction is looked for.
const ReferenceWindow = 30 * 24 * time.Hour

// PricedSKU is a SKU with the price that applies.
type PricedSKU struct {
	SKU
	Price
}

const pricedSKUColumns = `s.id, s.exam_id, s.product, s.kind, s.step, s.sort, p.sku_id, p.country, p.currency, p.amount,
	(SELECT MIN(o.subtotal) FROM orders o WHERE o.sku_id = p.sku_id AND o.currency = p.currency AND o.status = 'paid'
		AND o.updated_at >= p.reference_from AND o.updated_at < p.price_since) AS list_amount`

// pricedSKUs selects active SKUs with the price of the country, or the
// default price where the country has none.
const pricedSKUs = `SELECT ` + pricedSKUColumns + ` FROM skus s
	JOIN sku_prices p ON p.sku_id = s.id AND p.country = COALESCE(
		(SELECT c.country FROM sku_prices c WHERE c.sku_id = s.id AND c.country = ?), '*')
	WHERE s.active = 1`

// ListSKUs returns the active SKUs of an exam and kind, priced for a
// country, in display order.
func (s *Store) ListSKUs(ctx context.Context, db Querier, examID int, kind, country string) ([]PricedSKU, error) {
	var out []PricedSKU
	err := db.SelectContext(ctx, &out, db.Rebind(pricedSKUs+` AND s.exam_id = ? AND s.kind = ? ORDER BY s.sort, s.id`), country, examID, kind)
	if err != nil {
		return nil, fmt.Errorf("store: list skus: %w", err)
	}
	return out, nil
}

// SKUByID returns a SKU whether or not it is still on sale: what an order
// bought stays what it was.
func (s *Store) SKUByID(ctx context.Context, db Querier, id string) (SKU, error) {
	var out SKU
	err := db.GetContext(ctx, &out, db.Rebind(`SELECT id, exam_id, product, kind, step, sort FROM skus WHERE id = ?`), id)
	if err != nil {
		return SKU{}, notFound("sku by id", err)
	}
	return out, nil
}

// GetSKU returns one active SKU of an exam, priced for a country.
func (s *Store) GetSKU(ctx context.Context, db Querier, examID int, id, country string) (PricedSKU, error) {
	if !storable(id) {
		return PricedSKU{}, ErrNotFound
	}
	var out PricedSKU
	err := db.GetContext(ctx, &out, db.Rebind(pricedSKUs+` AND s.exam_id = ? AND s.id = ?`), country, examID, id)
	if err != nil {
		return PricedSKU{}, notFound("get sku", err)
	}
	return out, nil
}

// SetPrice changes a SKU's price in a country from now on, recording when
// it took effect so that a reduction can name the lowest price paid in the
// ReferenceWindow before it.
func (s *Store) SetPrice(ctx context.Context, db Querier, skuID, country, currency string, amount int64, now time.Time) error {
	if !validCurrency(currency) {
		return fmt.Errorf("store: set price of %s in %s: currency %q is not an ISO 4217 code", skuID, country, currency)
	}
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE sku_prices SET currency = ?, amount = ?, price_since = ?, reference_from = ?
		WHERE sku_id = ? AND country = ?`), currency, amount, now.UTC(), now.UTC().Add(-ReferenceWindow), skuID, country)
	if err != nil {
		return fmt.Errorf("store: set price: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		_, err = db.ExecContext(ctx, db.Rebind(`INSERT INTO sku_prices (sku_id, country, currency, amount, price_since, reference_from)
			VALUES (?, ?, ?, ?, ?, ?)`), skuID, country, currency, amount, now.UTC(), now.UTC().Add(-ReferenceWindow))
		if err != nil {
			return fmt.Errorf("store: add price: %w", err)
		}
	}
	return nil
}

// CheckPrices refuses a catalogue with a price row whose currency is not a
// three-letter code or whose amount is not positive: serve stops at start
// naming the row rather than showing a bare number.
func (s *Store) CheckPrices(ctx context.Context, db Querier) error {
	var rows []Price
	if err := db.SelectContext(ctx, &rows, `SELECT sku_id, country, currency, amount FROM sku_prices ORDER BY sku_id, country`); err != nil {
		return fmt.Errorf("store: check prices: %w", err)
	}
	var plans []Price
	if err := db.SelectContext(ctx, &plans, `SELECT plan_id AS sku_id, country, currency, price AS amount FROM plan_prices ORDER BY plan_id, country`); err != nil {
		return fmt.Errorf("store: check plan prices: %w", err)
	}
	for i, p := range append(rows, plans...) {
		table := "sku_prices"
		if i >= len(rows) {
			table = "plan_prices"
		}
		if !validCurrency(p.Currency) || p.Amount <= 0 {
			return fmt.Errorf("store: the price of %s in %s (table %s) has currency %q and amount %d: every price needs an ISO 4217 currency and a positive amount", p.SKUID, p.Country, table, p.Currency, p.Amount)
		}
	}
	return nil
}

func validCurrency(c string) bool {
	if len(c) != 3 {
		return false
	}
	for _, r := range c {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// PricedCountries lists the countries with prices of their own.
func (s *Store) PricedCountries(ctx context.Context, db Querier) ([]Price, error) {
	var out []Price
	err := db.SelectContext(ctx, &out, `SELECT DISTINCT '' AS sku_id, country, currency, 0 AS amount, NULL AS list_amount
		FROM sku_prices WHERE country <> '*' ORDER BY country`)
	if err != nil {
		return nil, fmt.Errorf("store: priced countries: %w", err)
	}
	return out, nil
}

// Promo is a promo code.
type Promo struct {
	Code       string         `db:"code"`
	Kind       string         `db:"kind"`
	Value      int64          `db:"value"`
	Currency   sql.NullString `db:"currency"`
	ValidFrom  time.Time      `db:"valid_from"`
	ValidUntil sql.NullTime   `db:"valid_until"`
	MaxUses    sql.NullInt64  `db:"max_uses"`
	Uses       int            `db:"uses"`
}

// GetPromo reads a promo code.
func (s *Store) GetPromo(ctx context.Context, db Querier, code string) (Promo, error) {
	if !storable(code) {
		return Promo{}, ErrNotFound
	}
	var p Promo
	err := db.GetContext(ctx, &p, db.Rebind(`SELECT code, kind, value, currency, valid_from, valid_until, max_uses, uses
		FROM promo_codes WHERE code = ?`), code)
	if err != nil {
		return Promo{}, notFound("get promo", err)
	}
	return p, nil
}

// SavePromo creates or replaces a promo code.
func (s *Store) SavePromo(ctx context.Context, db Querier, p Promo) error {
	_, err := db.NamedExecContext(ctx, `INSERT INTO promo_codes (code, kind, value, currency, valid_from, valid_until, max_uses, uses)
		VALUES (:code, :kind, :value, :currency, :valid_from, :valid_until, :max_uses, :uses)
		ON CONFLICT (code) DO UPDATE SET kind = excluded.kind, value = excluded.value, currency = excluded.currency,
		valid_from = excluded.valid_from, valid_until = excluded.valid_until, max_uses = excluded.max_uses`, p)
	if err != nil {
		return fmt.Errorf("store: save promo: %w", err)
	}
	return nil
}

// UsePromo counts one use of a promo code unless its limit is reached; it
// reports whether the use was counted.
// The check and the count are one statement, so two buyers cannot both take
// the last use.
func (s *Store) UsePromo(ctx context.Context, db Querier, code string) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE promo_codes SET uses = uses + 1
		WHERE code = ? AND (max_uses IS NULL OR uses < max_uses)`), code)
	if err != nil {
		return false, fmt.Errorf("store: use promo: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
