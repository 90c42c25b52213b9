// Package order prices orders and keeps their states honest. The server
// computes every amount from the SKU, the country and the promo code; a
// client never sends one. (Recurring subscription charges, "billing" in
// Stripe's sense, are internal/subscription's.)
package order

import (
	"fmt"
	"slices"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/store"
)

// transitions lists where each order state may go. A decline or a failed
// 3-D Secure step leaves the order payable again (failed -> pending); money
// that arrives after a failure still pays it (failed -> paid); paid is
// final but for a refund.
var transitions = map[store.OrderStatus][]store.OrderStatus{
	store.OrderCreated: {store.OrderPending, store.OrderExpired},
	store.OrderPending: {store.OrderPaid, store.OrderFailed, store.OrderExpired},
	store.OrderFailed:  {store.OrderPending, store.OrderPaid, store.OrderExpired},
	store.OrderPaid:    {store.OrderRefunded},
}

// CanMove reports whether an order may go from one state to another.
func CanMove(from, to store.OrderStatus) bool {
	return slices.Contains(transitions[from], to)
}

// PriceCountry is where a result's orders are priced: the country the
// test-taker gave with their details, or the default price ("*").
func PriceCountry(r store.Result) string {
	if r.Country.Valid && r.Country.String != "" {
		return r.Country.String
	}
	return "*"
}

// Quote is the server's price of one SKU for one buyer.
type Quote struct {
	SKUID    string
	Currency string
	// List is the crossed-out price, when there is one.
	List     int64
	Subtotal int64
	Discount int64
	// Tax is included in the prices; it is shown as part of the total.
	Tax   int64
	Total int64
	Promo string
}

// Price quotes a SKU, with a promo code when one is given. A promo that
// does not apply is an error with a message for the buyer; promo codes are
// for the report, never for a pack (docs/payments.md).
func Price(sku store.PricedSKU, promo *store.Promo, now time.Time) (Quote, error) {
	q := Quote{SKUID: sku.SKU.ID, Currency: sku.Currency, Subtotal: sku.Amount}
	if sku.ListAmount.Valid && sku.ListAmount.Int64 > sku.Amount {
		q.List = sku.ListAmount.Int64
	}
	if promo != nil && sku.Kind == store.OrderPack {
		return Quote{}, apperr.BadRequest("pay.promo.packs", nil)
	}
	if promo != nil {
		d, err := promoDiscount(*promo, q, now)
		if err != nil {
			return Quote{}, err
		}
		q.Discount, q.Promo = d, promo.Code
	}
	q.Total = q.Subtotal - q.Discount
	return q, nil
}

// PromoHold is how long a payment holds a use of its promo code: long
// enough to type a card and pass 3-D Secure; a payment left open longer
// gives the use back.
const PromoHold = 30 * time.Minute

// HoldUntil is when a use of a promo code held by a payment started at now
// ends: after PromoHold, and never after the code's own end.
func HoldUntil(p store.Promo, now time.Time) time.Time {
	until := now.Add(PromoHold)
	if p.ValidUntil.Valid && p.ValidUntil.Time.Before(until) {
		until = p.ValidUntil.Time
	}
	return until.UTC()
}

// PromoOpen reports whether a promo code is in its window at a time.
func PromoOpen(p store.Promo, at time.Time) bool {
	return !at.Before(p.ValidFrom) && (!p.ValidUntil.Valid || at.Before(p.ValidUntil.Time))
}

func promoDiscount(p store.Promo, q Quote, now time.Time) (int64, error) {
	switch {
	case !PromoOpen(p, now):
		return 0, apperr.BadRequest("pay.promo.expired", nil)
	case p.MaxUses.Valid && int64(p.Uses) >= p.MaxUses.Int64:
		return 0, apperr.BadRequest("pay.promo.used_up", nil)
	}
	var d int64
	switch p.Kind {
	case "percent":
		if p.Value < 1 || p.Value > 100 {
			return 0, fmt.Errorf("order: promo %s has percent %d", p.Code, p.Value)
		}
		d = (q.Subtotal*p.Value + 50) / 100
	case "fixed":
		if !p.Currency.Valid || p.Currency.String != q.Currency {
			return 0, apperr.BadRequest("pay.promo.currency", nil)
		}
		d = p.Value
	default:
		return 0, fmt.Errorf("order: promo %s has kind %q", p.Code, p.Kind)
	}
	return min(d, q.Subtotal), nil
}
