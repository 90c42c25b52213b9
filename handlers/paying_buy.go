package handlers

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/internal/billing"
	"selfmap/internal/checkout"
	"selfmap/internal/money"
	"selfmap/internal/store"
	"selfmap/internal/tracking"
	"selfmap/views"
)

// reportSKU is the product that unlocks an exam's full report.
const reportSKU = "mbti-report"

// payFlow finds the result and order a checkout screen is about; a paid
// order goes straight to its success screen.
func (s *Server) payFlow(c echo.Context) (store.Result, store.Order, error) {
	r, err := s.flowResult(c)
	if err != nil {
		return store.Result{}, store.Order{}, err
	}
	o, err := s.Store.OrderForResult(c.Request().Context(), r.ID)
	if errors.Is(err, store.ErrNotFound) {
		return store.Result{}, store.Order{}, echo.ErrNotFound
	}
	return r, o, err
}

// unpaidReport finds the result and order of a screen that sells the
// report, and the report priced for the buyer's country. An order already
// paid sends the visitor to its success screen instead.
func (s *Server) unpaidReport(c echo.Context) (store.Result, store.Order, store.PricedSKU, error) {
	r, o, err := s.payFlow(c)
	if err != nil {
		return r, o, store.PricedSKU{}, err
	}
	if billing.Status(o.Status) == billing.Paid {
		return r, o, store.PricedSKU{}, redirectError{to: flowURL(c, "/paying/success", r.ID)}
	}
	sku, err := s.Store.GetSKU(c.Request().Context(), r.ExamID, reportSKU, checkout.PriceCountry(r))
	return r, o, sku, err
}

// payingBuy serves /paying/buyreport/{p}: the full report, its price, and
// figures from the database.
func (s *Server) payingBuy(c echo.Context) error {
	r, _, sku, err := s.unpaidReport(c)
	if err != nil {
		return s.payError(c, err)
	}
	ctx := c.Request().Context()
	q, err := billing.Price(sku, nil, s.Checkout.Now())
	if err != nil {
		return err
	}
	day := s.Checkout.Now().UTC().Truncate(24 * time.Hour)
	today, err := s.Store.CountPaidSince(ctx, day)
	if err != nil {
		return err
	}
	total, err := s.Store.CountResults(ctx)
	if err != nil {
		return err
	}
	demo, err := s.Store.HasDemoData(ctx)
	if err != nil {
		return err
	}
	state(c).AdEvents = []tracking.Event{{Name: tracking.ViewContent}}
	p := views.BuyPage{Type: r.ResultCode, Price: mustFormat(q.Total, q.Currency), UnlockedToday: today, TestsTotal: total, Demo: demo,
		PayHref: flowURL(c, "/paying/payment", r.ID)}
	if q.List > 0 {
		p.ListPrice = mustFormat(q.List, q.Currency)
	}
	return s.render(c, http.StatusOK, views.Buy(p))
}

// mustFormat formats an amount of a currency from our own catalogue, whose
// codes are checked by the money tests; an error there is a data bug, shown
// as the plain amount rather than a broken page.
func mustFormat(amount int64, currency string) string {
	out, err := money.Format(amount, currency)
	if err != nil {
		return currency + " " + money.Plain(amount)
	}
	return out
}
