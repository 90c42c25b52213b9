package api

import (
	"errors"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/catalogue"
	"selfmap/internal/exam"
	"selfmap/internal/geo"
	"selfmap/internal/i18n"
)

// apiSKU is a product as the catalogue calls return it. Amounts are integers
// in hundredths of the currency; the server prices every order itself.
type apiSKU struct {
	SKUID      string `json:"skuId"`
	Product    string `json:"product"`
	Kind       string `json:"kind"`
	Step       string `json:"step,omitempty"`
	Name       string `json:"name"`
	Desc       string `json:"desc"`
	Currency   string `json:"currency"`
	Amount     int64  `json:"amount"`
	ListAmount int64  `json:"listAmount,omitempty"`
}

func skuView(t *i18n.Translator, p catalogue.SKU) apiSKU {
	v := apiSKU{
		SKUID: p.SKU.ID, Product: p.Product, Kind: p.Kind, Step: p.Step.String,
		Name: t.T("sku." + p.SKU.ID + ".name"), Desc: t.T("sku." + p.SKU.ID + ".desc"),
		Currency: p.Currency, Amount: p.Amount,
	}
	if list, ok := p.Reduced(); ok {
		v.ListAmount = list
	}
	return v
}

// countryParam reads an ISO country code; "*" (catalogue.Default) or an
// unknown code prices at the default.
func countryParam(c echo.Context, name string) (string, error) {
	country := strings.ToUpper(c.Param(name))
	if country != catalogue.Default && !geo.Valid(country) {
		return "", httpx.APIInvalid(name)
	}
	return country, nil
}

// hlParam reads the language of a catalogue call from its {hl} segment.
func (s *Server) hlParam(c echo.Context) (*i18n.Translator, error) {
	l, ok := i18n.BySpec(c.Param("hl"))
	if !ok {
		return nil, httpx.APIInvalid("hl")
	}
	return s.Catalog.Translator(l), nil
}

// skuParams reads the {examId}, {country} and {hl} of a catalogue call.
func (s *Server) skuParams(c echo.Context) (exam.Exam, string, *i18n.Translator, error) {
	e, err := s.examParam(c, "examId")
	if err != nil {
		return e, "", nil, err
	}
	country, err := countryParam(c, "country")
	if err != nil {
		return e, "", nil, err
	}
	t, err := s.hlParam(c)
	return e, country, t, err
}

// apiSKUList serves GET /api/exam/sku/list/{examId}/{country}/{hl}: the
// report products of an exam, priced for a country.
func (s *Server) apiSKUList(c echo.Context) error {
	e, country, t, err := s.skuParams(c)
	if err != nil {
		return err
	}
	skus, err := s.Catalogue.Reports(c.Request().Context(), e.ID, country)
	if err != nil {
		return err
	}
	out := make([]apiSKU, len(skus))
	for i, p := range skus {
		out[i] = skuView(t, p)
	}
	return s.APIOK(c, out)
}

// apiSKUInfo serves GET /api/exam/sku/info/{examId}/{skuId}/{country}/{hl}.
func (s *Server) apiSKUInfo(c echo.Context) error {
	e, country, t, err := s.skuParams(c)
	if err != nil {
		return err
	}
	p, err := s.Catalogue.SKU(c.Request().Context(), e.ID, c.Param("skuId"), country)
	if errors.Is(err, apperr.ErrNotFound) {
		return apperr.NotFound("api.not_found")
	}
	if err != nil {
		return err
	}
	return s.APIOK(c, skuView(t, p))
}

// apiPackageList serves GET /api/exam/sku/package/list/{code}: the packs of
// the upsell steps of a page code's exam, priced for ?country= (default
// price without it), in the request's language.
func (s *Server) apiPackageList(c echo.Context) error {
	var examID int
	for _, e := range s.Exams.List() {
		for _, code := range e.Codes {
			if code == c.Param("code") {
				examID = e.ID
			}
		}
	}
	if examID == 0 {
		return apiUnknownExam()
	}
	country := strings.ToUpper(c.QueryParam("country"))
	if country == "" {
		country = catalogue.Default
	} else if !geo.Valid(country) {
		return httpx.APIInvalid("country")
	}
	packs, err := s.Catalogue.Packs(c.Request().Context(), examID, country)
	if err != nil {
		return err
	}
	out := make([]apiSKU, len(packs))
	for i, p := range packs {
		out[i] = skuView(httpx.Tr(c), p)
	}
	return s.APIOK(c, out)
}
