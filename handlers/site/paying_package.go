package site

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/checkout"
	"selfmap/internal/geo"
	"selfmap/internal/packs"
	"selfmap/views"
)

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
	id, err := s.flowID(c)
	if err != nil {
		return s.payError(c, err)
	}
	ps, err := s.Checkout.PackStep(c.Request().Context(), checkout.PackStepInput{ResultID: id, Owns: s.Owns(c),
		Step: c.QueryParam("step"), AfterPay: c.QueryParam("after") == "pay"})
	if err != nil {
		return s.payError(c, err)
	}
	r := ps.Result
	switch {
	case !ps.Order.Paid():
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/paying/buyreport", r.ID))
	case ps.NoPacks:
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/report/result", r.ID))
	case ps.Moved:
		// No step, or one this buyer is not offered: the first of theirs.
		return c.Redirect(http.StatusSeeOther, packageURL(c, r.ID, ps.Step))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	reportHref := flowURL(c, "/report/result", r.ID)
	p := views.PackagePage{Step: ps.Step, ReportHref: reportHref, ExitProps: exitProps(c, reportHref),
		CSS: s.Assets.URL("static/css/checkout.css")}
	for i, name := range ps.Plan {
		p.Plan = append(p.Plan, views.PackageStepLink{Name: name, Current: name == ps.Step})
		if name == ps.Step {
			p.Index = i + 1
		}
	}
	if ps.Next != "" {
		p.NextHref = packageURL(c, r.ID, ps.Next)
	}
	if ps.Step == packs.AccessProduct {
		for _, o := range ps.Owned {
			p.Owned = append(p.Owned, httpx.Tr(c).T("sku."+o.SKUID.String+".name"))
		}
		return s.Render(c, http.StatusOK, views.Package(p))
	}
	s.packOffer(c, &p, ps)
	return s.Render(c, http.StatusOK, views.Package(p))
}

// packOffer fills a pack's step of the upsell: the pack, and what its
// state shows (packs.Offer.State): the card form, or a wait that moves on.
func (s *Server) packOffer(c echo.Context, p *views.PackagePage, ps checkout.PackStep) {
	offer, t := ps.Offer, httpx.Tr(c)
	name := packs.Name(offer.SKU.SKU.ID)
	p.Offer = views.PackOffer{
		Name: t.T("sku." + offer.SKU.SKU.ID + ".name"), Tagline: t.T("pack." + name + ".tagline"),
		Points: []string{t.T("pack." + name + ".point1"), t.T("pack." + name + ".point2"), t.T("pack." + name + ".point3")},
		Price:  httpx.MustFormat(offer.SKU.Amount, offer.SKU.Currency),
	}
	if offer.SKU.ListAmount.Valid && offer.SKU.ListAmount.Int64 > offer.SKU.Amount {
		p.Offer.ListPrice = httpx.MustFormat(offer.SKU.ListAmount.Int64, offer.SKU.Currency)
	}
	here := packageURL(c, ps.Result.ID, ps.Step)
	p.State, p.Failed = string(ps.State), ps.Failed
	switch ps.State {
	case packs.StateOwned, packs.StateAdded:
		p.Refresh, p.RefreshURL = 3, p.NextHref
		return
	case packs.StateChecking:
		p.Refresh, p.RefreshURL = 2, here+"&after=pay"
		return
	}
	r := ps.Result
	p.Email, p.Stripe, p.Postal = r.Email.String, s.Checkout.Provider.Name() == "stripe", geo.UsesPostalCode(ps.Country())
	p.Props = s.checkoutProps(c, checkoutPayment{
		OrderNumber: ps.Order.OrderNumber, SKUID: offer.SKU.SKU.ID, Email: r.Email.String, Total: p.Offer.Price,
		Amount: offer.SKU.Amount, Currency: offer.SKU.Currency, Country: ps.Country(),
		CreateURL: "/pay/pay/order/payPackage", CheckURL: here + "&after=pay", FailedURL: here + "#method",
	})
	if p.Stripe {
		httpx.AllowStripe(c)
	}
}

// exitProps is what the exit dialog island reads.
func exitProps(c echo.Context, leaveHref string) map[string]any {
	return map[string]any{"leaveHref": leaveHref, "messages": httpx.Tr(c).Messages("package.exit.")}
}
