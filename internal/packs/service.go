package packs

import (
	"context"

	"selfmap/internal/order"
	"selfmap/internal/store"
)

// Service reads the packs a result's buyer is offered and has bought, so
// the upsell, the report and the API agree on them.
type Service struct {
	Store *store.Store
}

// Offer is a pack of the upsell steps, priced for the buyer, with the
// buyer's order of it when there is one.
type Offer struct {
	SKU   store.PricedSKU
	Order *store.Order
}

// Owned reports whether the buyer has paid for the pack.
func (o Offer) Owned() bool {
	return o.Order != nil && o.Order.Paid()
}

// State is what a pack's step shows its buyer.
type State string

// The states of a pack's step: the card form, the pack bought before, the
// pack just bought, and a payment just made whose outcome is not in yet.
const (
	StateOffer    State = "offer"
	StateOwned    State = "owned"
	StateAdded    State = "added"
	StateChecking State = "checking"
)

// State is what the offer's step shows. afterPay says the buyer comes back
// from paying for it; failed says that payment was declined, so the card
// form says so. A pack once bought (refunded since or not) is not sold
// again.
func (o Offer) State(afterPay bool) (state State, failed bool) {
	if o.Order == nil {
		return StateOffer, false
	}
	switch {
	case o.Order.Bought() && afterPay:
		return StateAdded, false
	case o.Order.Bought():
		return StateOwned, false
	case o.Order.Status == store.OrderPending && afterPay:
		return StateChecking, false
	}
	return StateOffer, afterPay && o.Order.Status == store.OrderFailed
}

// Offers are the packs offered to one buyer, by step.
type Offers map[string]Offer

// Plan is the steps the buyer of these offers walks through (Plan).
func (o Offers) Plan() []string {
	offered := make(map[string]bool, len(o))
	for step := range o {
		offered[step] = true
	}
	return Plan(offered)
}

// Offers lists the packs of a result's exam, priced for its country
// (order.PriceCountry), by step, with the result's orders of them: one
// pack per step, the first in the catalogue's order that has content here.
func (s *Service) Offers(ctx context.Context, r store.Result) (Offers, error) {
	skus, err := s.Store.ListSKUs(ctx, s.Store.DB, r.ExamID, store.OrderPack, order.PriceCountry(r))
	if err != nil {
		return nil, err
	}
	orders, err := s.Store.PackOrders(ctx, s.Store.DB, r.ID)
	if err != nil {
		return nil, err
	}
	out := make(Offers, len(skus))
	for _, sku := range skus {
		if _, taken := out[sku.Step.String]; taken || !Offered(sku.SKU) {
			continue
		}
		offer := Offer{SKU: sku}
		for i := range orders {
			if orders[i].SKUID.String == sku.SKU.ID {
				offer.Order = &orders[i]
			}
		}
		out[sku.Step.String] = offer
	}
	return out, nil
}

// Owned are a result's paid pack orders with content here, oldest first,
// whatever the catalogue sells today.
func (s *Service) Owned(ctx context.Context, resultID string) ([]store.Order, error) {
	orders, err := s.Store.PackOrders(ctx, s.Store.DB, resultID)
	if err != nil {
		return nil, err
	}
	var out []store.Order
	for _, o := range orders {
		if o.Paid() && Name(o.SKUID.String) != "" {
			out = append(out, o)
		}
	}
	return out, nil
}
