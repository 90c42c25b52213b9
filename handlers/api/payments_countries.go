package api

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/geo"
)

// apiPaymentList serves GET /api/app/payment/list/{examId}/{country}: the
// payment methods offered. Cards go through the configured provider.
func (s *Server) apiPaymentList(c echo.Context) error {
	if _, err := s.examParam(c, "examId"); err != nil {
		return err
	}
	if _, err := countryParam(c, "country"); err != nil {
		return err
	}
	return s.APIOK(c, []map[string]any{{
		"code": "card", "name": httpx.Tr(c).T("pay.method.card"), "provider": s.Config.PaymentProvider,
		"brands": []string{"visa", "mastercard", "amex", "discover", "jcb", "unionpay"},
	}})
}

// apiCountryList serves GET /api/exam/order/country/list: the countries with
// prices of their own, named in the request's language, and their currency.
func (s *Server) apiCountryList(c echo.Context) error {
	priced, err := s.Catalogue.Countries(c.Request().Context())
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, country := range geo.Countries(httpx.State(c).Locale.Tag) {
		names[country.Code] = country.Name
	}
	out := make([]map[string]string, 0, len(priced))
	for _, p := range priced {
		out = append(out, map[string]string{"country": p.Country, "name": names[p.Country], "currency": p.Currency})
	}
	return s.APIOK(c, out)
}
