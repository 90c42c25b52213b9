// Package catalogue reads what can be bought and at what price: the SKUs
// of each exam (its reports and its packs) priced for a country, and the
// countries with prices of their own. Prices are set by the server; the
// catalogue calls only show them.
package catalogue

import (
	"context"
	"fmt"

	"selfmap/internal/store"
)

// SKU is a product on sale with the price that applies in a country; its
// Reduced method says which reference price a page may strike through.
type SKU = store.PricedSKU

// Price is a price row: the priced countries are listed as prices.
type Price = store.Price

// Default is the country code that prices where a country has no price of
// its own.
const Default = "*"

// Service reads the catalogue from the store.
type Service struct {
	Store *store.Store
}

// Reports lists the report products of an exam priced for a country (or
// Default), in display order.
func (s *Service) Reports(ctx context.Context, examID int, country string) ([]SKU, error) {
	return s.list(ctx, examID, store.OrderReport, country)
}

// Packs lists the packs of an exam's upsell steps priced for a country (or
// Default), in display order.
func (s *Service) Packs(ctx context.Context, examID int, country string) ([]SKU, error) {
	return s.list(ctx, examID, store.OrderPack, country)
}

func (s *Service) list(ctx context.Context, examID int, kind, country string) ([]SKU, error) {
	out, err := s.Store.ListSKUs(ctx, s.Store.DB, examID, kind, country)
	if err != nil {
		return nil, fmt.Errorf("catalogue: list %s: %w", kind, err)
	}
	return out, nil
}

// SKU reads one product of an exam on sale, priced for a country; an
// unknown id, or one of another exam, is apperr.ErrNotFound.
func (s *Service) SKU(ctx context.Context, examID int, id, country string) (SKU, error) {
	p, err := s.Store.GetSKU(ctx, s.Store.DB, examID, id, country)
	if err != nil {
		return SKU{}, fmt.Errorf("catalogue: sku: %w", err)
	}
	return p, nil
}

// Countries lists the countries with prices of their own and their
// currency, by country code.
func (s *Service) Countries(ctx context.Context) ([]Price, error) {
	out, err := s.Store.PricedCountries(ctx, s.Store.DB)
	if err != nil {
		return nil, fmt.Errorf("catalogue: countries: %w", err)
	}
	return out, nil
}

// ReportPrices is the report each exam sells, priced for a country (or
// Default), by exam id: the first report of the exam's catalogue, as
// checkout sells it. An exam with no report on sale is left out.
func (s *Service) ReportPrices(ctx context.Context, examIDs []int, country string) (map[int]SKU, error) {
	out := make(map[int]SKU, len(examIDs))
	for _, id := range examIDs {
		skus, err := s.Reports(ctx, id, country)
		if err != nil {
			return nil, err
		}
		if len(skus) > 0 {
			out[id] = skus[0]
		}
	}
	return out, nil
}
