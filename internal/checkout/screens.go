package checkout

import (
	"context"
	"errors"
	"slices"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/ids"
	"selfmap/internal/order"
	"selfmap/internal/packs"
	"selfmap/internal/store"
)

// Flow is what a checkout screen is about: a result the caller may see and
// the report order it opened.
type Flow struct {
	Result store.Result
	Order  Order
}

// Flow finds a result the caller may see and its report order. owns
// reports whether the caller's session holds the result; a foreign id
// answers exactly like a missing one (ErrNotFound).
func (s *Service) Flow(ctx context.Context, resultID string, owns func(string) bool) (Flow, error) {
	if !ids.Valid(resultID) || !owns(resultID) {
		return Flow{}, ErrNotFound
	}
	r, err := s.Store.GetResult(ctx, s.Store.DB, resultID)
	if err != nil {
		return Flow{}, notFoundAs(err)
	}
	o, err := s.Store.OrderForResult(ctx, s.Store.DB, r.ID)
	if err != nil {
		return Flow{}, notFoundAs(err)
	}
	return Flow{Result: r, Order: o}, nil
}

// notFoundAs turns a row that is missing into the service's 404.
func notFoundAs(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return ErrNotFound
	}
	return err
}

// Country is where the flow's orders are priced (order.PriceCountry).
func (f Flow) Country() string { return order.PriceCountry(f.Result) }

// reportOffer finds a flow and, while its report is unpaid, the report
// priced for the buyer's country. A paid report has no SKU: the buyer goes
// to the success screen.
func (s *Service) reportOffer(ctx context.Context, resultID string, owns func(string) bool) (Flow, store.PricedSKU, error) {
	f, err := s.Flow(ctx, resultID, owns)
	if err != nil || f.Order.Paid() {
		return f, store.PricedSKU{}, err
	}
	sku, err := s.ReportSKU(ctx, f.Result.ExamID, f.Country())
	return f, sku, err
}

// ReportSKU is the product that unlocks an exam's full report, priced for
// a country: the first report the catalogue lists for the exam. An exam
// with no report on sale is ErrNotFound.
func (s *Service) ReportSKU(ctx context.Context, examID int, country string) (store.PricedSKU, error) {
	skus, err := s.Store.ListSKUs(ctx, s.Store.DB, examID, store.OrderReport, country)
	if err != nil {
		return store.PricedSKU{}, err
	}
	if len(skus) == 0 {
		return store.PricedSKU{}, ErrNotFound
	}
	return skus[0], nil
}

// Buy is the buy page of a result's report: its price for the buyer and
// figures from the database. For a paid order only Flow is set, and for a
// report a plan opened only Flow and Open.
type Buy struct {
	Flow
	// Open says the report is open without paying (a plan unlocked it):
	// the buyer goes to the report, not to a price.
	Open  bool
	Quote order.Quote
	// UnlockedToday counts the reports paid since midnight UTC; TestsTotal
	// every test completed; Demo says the figures include demo data.
	UnlockedToday, TestsTotal int
	Demo                      bool
}

// Buy prices a result's report for its buyer, with the figures the buy
// page shows beside the price. unlocked is the report service's question
// of access (report.Service.Unlocked for the signed-in member): a report
// it opens is not priced.
func (s *Service) Buy(ctx context.Context, resultID string, owns func(string) bool,
	unlocked func(ctx context.Context, resultID string) (bool, error)) (Buy, error) {
	f, sku, err := s.reportOffer(ctx, resultID, owns)
	if err != nil || f.Order.Paid() {
		return Buy{Flow: f}, err
	}
	b := Buy{Flow: f}
	if b.Open, err = unlocked(ctx, f.Result.ID); err != nil || b.Open {
		return b, err
	}
	now := s.Now()
	if b.Quote, err = order.Price(sku, nil, now); err != nil {
		return Buy{}, err
	}
	if b.UnlockedToday, err = s.Store.CountPaidSince(ctx, s.Store.DB, now.UTC().Truncate(24*time.Hour)); err != nil {
		return Buy{}, err
	}
	if b.TestsTotal, err = s.Store.CountResults(ctx, s.Store.DB); err != nil {
		return Buy{}, err
	}
	if b.Demo, err = s.Store.HasDemoData(ctx, s.Store.DB); err != nil {
		return Buy{}, err
	}
	return b, nil
}

// Payment is the payment page of a result's report: the order as the
// server prices it, with a promo code tried. For a paid order only Flow is
// set.
type Payment struct {
	Flow
	Quote order.Quote
	// Promo is the code as typed, cleaned (so a typo can be fixed), and
	// PromoError the message id of why it does not apply.
	Promo, PromoError string
}

// Applied is the promo code the payment is started with: the code typed,
// when it applies.
func (p Payment) Applied() string {
	if p.PromoError != "" {
		return ""
	}
	return p.Promo
}

// Payment prices a result's report for its buyer with a promo code ("" for
// none). A code that does not apply is named in PromoError and the report
// priced without it.
func (s *Service) Payment(ctx context.Context, resultID, promo string, owns func(string) bool) (Payment, error) {
	f, sku, err := s.reportOffer(ctx, resultID, owns)
	if err != nil || f.Order.Paid() {
		return Payment{Flow: f}, err
	}
	p, now := Payment{Flow: f, Promo: cleanPromo(promo)}, s.Now()
	code, err := s.promo(ctx, p.Promo)
	if err == nil {
		p.Quote, err = order.Price(sku, code, now)
	}
	var ae *apperr.Error
	if errors.As(err, &ae) {
		p.PromoError = ae.ID
		p.Quote, err = order.Price(sku, nil, now)
	}
	if err != nil {
		return Payment{}, err
	}
	return p, nil
}

// PackStepInput is a step of the upsell a buyer asks for.
type PackStepInput struct {
	ResultID string
	Owns     func(string) bool
	Step     string
	// AfterPay says the buyer comes back from paying for the step's pack.
	AfterPay bool
}

// PackStep is a step of the upsell after a paid report. For an unpaid
// report only Flow is set: packs add to a report.
type PackStep struct {
	Flow
	// Plan is the buyer's steps; Step the one shown and Next the one after
	// it ("" after the last).
	Plan       []string
	Step, Next string
	// Moved says the step asked for is not one of the buyer's: they go to
	// Step, the first of theirs.
	Moved bool
	// NoPacks says the result's exam sells no packs (every exam but the
	// 16-type today): after paying, the buyer goes straight to the report.
	NoPacks bool
	// Owned are the packs bought, on the last step (packs.AccessProduct).
	Owned []Order
	// Offer is the step's pack, and State and Failed what its step shows
	// (packs.Offer.State), on the other steps.
	Offer  packs.Offer
	State  packs.State
	Failed bool
}

// PackStep finds a step of the upsell for the buyer of a paid report: each
// step offers one pack; a pack already bought says so; the last step lists
// what the buyer has.
func (s *Service) PackStep(ctx context.Context, in PackStepInput) (PackStep, error) {
	f, err := s.Flow(ctx, in.ResultID, in.Owns)
	if err != nil || !f.Order.Paid() {
		return PackStep{Flow: f}, err
	}
	offers, err := s.Packs.Offers(ctx, f.Result)
	if err != nil {
		return PackStep{}, err
	}
	if len(offers) == 0 {
		return PackStep{Flow: f, NoPacks: true}, nil
	}
	p := PackStep{Flow: f, Plan: offers.Plan(), Step: in.Step}
	if !slices.Contains(p.Plan, p.Step) {
		p.Step, p.Moved = p.Plan[0], true
		return p, nil
	}
	p.Next = packs.Next(p.Plan, p.Step)
	if p.Step == packs.AccessProduct {
		p.Owned, err = s.Packs.Owned(ctx, f.Result.ID)
		return p, err
	}
	p.Offer = offers[p.Step]
	p.State, p.Failed = p.Offer.State(in.AfterPay)
	return p, nil
}

// PackList is what the packs API answers for a report order: the order,
// and the packs offered with it in the order of the steps.
type PackList struct {
	Order  Order
	Offers []packs.Offer
}

// PackList lists the packs offered with a report order of the caller's,
// priced for the buyer, with the buyer's orders of them.
func (s *Service) PackList(ctx context.Context, number string, owns func(string) bool) (PackList, error) {
	o, err := s.Order(ctx, number, owns)
	if err != nil {
		return PackList{}, err
	}
	if o.Kind != store.OrderReport {
		return PackList{}, ErrNotFound
	}
	r, err := s.Store.GetResult(ctx, s.Store.DB, o.ResultID)
	if err != nil {
		return PackList{}, err
	}
	offers, err := s.Packs.Offers(ctx, r)
	if err != nil {
		return PackList{}, err
	}
	out := PackList{Order: o}
	for _, step := range packs.Steps {
		if offer, ok := offers[step]; ok {
			out.Offers = append(out.Offers, offer)
		}
	}
	return out, nil
}
