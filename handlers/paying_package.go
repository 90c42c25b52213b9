package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"

	"github.com/labstack/echo/v4"

	"selfmap/internal/billing"
	"selfmap/internal/checkout"
	"selfmap/internal/geo"
	"selfmap/internal/packs"
	"selfmap/internal/store"
	"selfmap/views"
)

// packOffer is a pack of the upsell steps, priced for the buyer, with the
// buyer's order of it when there is one.
type packOffer struct {
	SKU   store.PricedSKU
	Order *store.Order
}

// Owned reports whether the buyer has paid for the pack.
func (p packOffer) Owned() bool {
	return p.Order != nil && billing.Status(p.Order.Status) == billing.Paid
}

// packOffers lists the packs of a result's exam, priced for its country,
// by step, with the result's orders of them.
func (s *Server) packOffers(ctx context.Context, r store.Result) (map[string]packOffer, error) {
	skus, err := s.Store.ListSKUs(ctx, r.ExamID, store.OrderPack, checkout.PriceCountry(r))
	if err != nil {
		return nil, err
	}
	orders, err := s.Store.PackOrders(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]packOffer, len(skus))
	for _, sku := range skus {
		if _, taken := out[sku.Step.String]; taken || !packs.Offered(sku.SKU) {
			// One pack per step: the first in the catalogue's order.
			continue
		}
		offer := packOffer{SKU: sku}
		for i := range orders {
			if orders[i].SKUID.String == sku.SKU.ID {
				offer.Order = &orders[i]
			}
		}
		out[sku.Step.String] = offer
	}
	return out, nil
}

// ownedPacks are a result's paid pack orders with content here, oldest
// first, whatever the catalogue sells today.
func (s *Server) ownedPacks(ctx context.Context, resultID string) ([]store.Order, error) {
	orders, err := s.Store.PackOrders(ctx, resultID)
	if err != nil {
		return nil, err
	}
	var out []store.Order
	for _, o := range orders {
		if billing.Status(o.Status) == billing.Paid && packs.Name(o.SKUID.String) != "" {
			out = append(out, o)
		}
	}
	return out, nil
}

// packageURL is a step of /paying/package for result r.
func packageURL(c echo.Context, resultID, step string) string {
	return flowURL(c, "/paying/package", resultID) + "&step=" + url.QueryEscape(step)
}

// payingPackage serves /paying/package/{p}: the upsell steps after a paid
// report. Each step offers one pack with the card form; a pack already
// bought says so and moves on after 3 seconds; the last step lists what the
// buyer has and opens the report. The skip_trial step offers a paid trial's
// early upgrade and so only appears to subscribers on a trial.
func (s *Server) payingPackage(c echo.Context) error {
	r, o, err := s.payFlow(c)
	if err != nil {
		return s.payError(c, err)
	}
	if billing.Status(o.Status) != billing.Paid {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/buyreport", r.ID))
	}
	ctx := c.Request().Context()
	offers, err := s.packOffers(ctx, r)
	if err != nil {
		return err
	}
	offered := make(map[string]bool, len(offers))
	for step := range offers {
		offered[step] = true
	}
	plan := packs.Plan(offered)
	step := c.QueryParam("step")
	if !slices.Contains(plan, step) {
		// No step, or one this buyer is not offered: the first of theirs.
		return c.Redirect(http.StatusSeeOther, packageURL(c, r.ID, plan[0]))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	reportHref := flowURL(c, "/report/result", r.ID)
	p := views.PackagePage{Step: step, ReportHref: reportHref, ExitProps: exitProps(c, reportHref),
		CSS: s.Assets.URL("static/css/checkout.css")}
	for i, name := range plan {
		p.Plan = append(p.Plan, views.PackageStepLink{Name: name, Current: name == step})
		if name == step {
			p.Index = i + 1
		}
	}
	if next := packs.Next(plan, step); next != "" {
		p.NextHref = packageURL(c, r.ID, next)
	}
	if step == packs.AccessProduct {
		owned, err := s.ownedPacks(ctx, r.ID)
		if err != nil {
			return err
		}
		for _, o := range owned {
			p.Owned = append(p.Owned, tr(c).T("sku."+o.SKUID.String+".name"))
		}
		return s.render(c, http.StatusOK, views.Package(p))
	}
	offer := offers[step]
	name := packs.Name(offer.SKU.SKU.ID)
	t := tr(c)
	p.Offer = views.PackOffer{
		Name: t.T("sku." + offer.SKU.SKU.ID + ".name"), Tagline: t.T("pack." + name + ".tagline"),
		Points: []string{t.T("pack." + name + ".point1"), t.T("pack." + name + ".point2"), t.T("pack." + name + ".point3")},
		Price:  mustFormat(offer.SKU.Amount, offer.SKU.Currency),
	}
	if offer.SKU.ListAmount.Valid && offer.SKU.ListAmount.Int64 > offer.SKU.Amount {
		p.Offer.ListPrice = mustFormat(offer.SKU.ListAmount.Int64, offer.SKU.Currency)
	}
	here := packageURL(c, r.ID, step)
	status := billing.Created
	if offer.Order != nil {
		status = billing.Status(offer.Order.Status)
	}
	switch status {
	case billing.Paid, billing.Refunded:
		p.State = "owned"
		if c.QueryParam("after") == "pay" {
			p.State = "added"
		}
		p.Refresh, p.RefreshURL = 3, p.NextHref
		return s.render(c, http.StatusOK, views.Package(p))
	case billing.Pending:
		if c.QueryParam("after") == "pay" {
			p.State, p.Refresh, p.RefreshURL = "checking", 2, here+"&after=pay"
			return s.render(c, http.StatusOK, views.Package(p))
		}
	case billing.Failed:
		p.Failed = c.QueryParam("after") == "pay"
	}
	p.State, p.Email, p.Stripe = "offer", r.Email.String, s.Checkout.Provider.Name() == "stripe"
	p.Postal = geo.UsesPostalCode(checkout.PriceCountry(r))
	p.Props = s.checkoutProps(c, checkoutPayment{
		OrderNumber: o.OrderNumber, SKUID: offer.SKU.SKU.ID, Email: r.Email.String, Total: p.Offer.Price,
		Amount: offer.SKU.Amount, Currency: offer.SKU.Currency, Country: checkout.PriceCountry(r),
		CreateURL: "/pay/pay/order/payPackage", CheckURL: here + "&after=pay", FailedURL: here + "#method",
	})
	if p.Stripe {
		allowStripe(c)
	}
	return s.render(c, http.StatusOK, views.Package(p))
}

// exitProps is what the exit dialog island reads.
func exitProps(c echo.Context, leaveHref string) map[string]any {
	return map[string]any{"leaveHref": leaveHref, "messages": tr(c).Messages("package.exit.")}
}

// payPackage serves POST /pay/pay/order/payPackage: start paying for a pack.
// orderNumber is the paid report's order; the pack gets an order of its own,
// whose number the answer carries. Any amount in the request is ignored.
func (s *Server) payPackage(c echo.Context) error {
	in, err := bindCreate(c)
	if err != nil {
		return err
	}
	created, err := s.Checkout.CreatePack(c.Request().Context(), in, s.owns(c))
	if err != nil {
		return err
	}
	return s.apiOK(c, createdView(created))
}

// createdView is the answer to a call that starts a payment.
func createdView(created checkout.Created) map[string]any {
	return map[string]any{"orderNumber": created.OrderNumber, "attemptId": created.AttemptID, "provider": created.Provider,
		"clientSecret": created.ClientSecret, "total": created.Total, "currency": created.Currency}
}

// apiExtraPackageList serves GET /api/exam/extra/package/list/{orderNumber}:
// the packs offered with a paid report order, priced for the buyer, and
// whether each is bought.
func (s *Server) apiExtraPackageList(c echo.Context) error {
	ctx := c.Request().Context()
	o, err := s.Checkout.Order(ctx, c.Param("orderNumber"), s.owns(c))
	if err != nil {
		return err
	}
	if o.Kind != store.OrderReport {
		return checkout.ErrNotFound
	}
	r, err := s.Store.GetResult(ctx, o.ResultID)
	if err != nil {
		return err
	}
	offers, err := s.packOffers(ctx, r)
	if err != nil {
		return err
	}
	type item struct {
		apiSKU
		Purchased   bool   `json:"purchased"`
		OrderNumber string `json:"orderNumber,omitempty"`
		Status      string `json:"status,omitempty"`
	}
	out := []item{}
	for _, step := range packs.Steps {
		offer, ok := offers[step]
		if !ok {
			continue
		}
		it := item{apiSKU: skuView(tr(c), offer.SKU), Purchased: offer.Owned()}
		if offer.Order != nil {
			it.OrderNumber, it.Status = offer.Order.OrderNumber, offer.Order.Status
		}
		out = append(out, it)
	}
	return s.apiOK(c, map[string]any{"orderNumber": o.OrderNumber, "reportPaid": o.Status == string(billing.Paid), "packages": out})
}
