package api

import (
	"errors"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/content"
	"selfmap/internal/i18n"
)

// apiProtocol is a legal document as the API returns it. Flag says which
// document it is: 1 terms of service, 2 privacy policy, 3 subscription
// terms, 4 cookie policy.
type apiProtocol struct {
	ID        string    `json:"id"`
	Flag      int       `json:"flag"`
	Title     string    `json:"title"`
	Version   string    `json:"version"`
	URL       string    `json:"url"`
	Content   string    `json:"content,omitempty"`
	Locale    string    `json:"locale"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func (s *Server) protocolJSON(c echo.Context, l i18n.Locale, p content.Protocol, withContent bool) apiProtocol {
	st := httpx.State(c)
	out := apiProtocol{ID: p.Slug, Flag: p.Flag, Title: p.Title, Version: p.Version, Locale: p.Locale, UpdatedAt: p.UpdatedAt,
		URL: st.URL(l, httpx.LegalPath(p.Slug, st.Home.String()))}
	if withContent {
		out.Content = p.Body
	}
	return out
}

// apiProtocolList serves GET /api/app/protocol/list/{examId}/{hl}: the
// legal documents of a language, by flag.
func (s *Server) apiProtocolList(c echo.Context) error {
	l, docs, err := s.protocols(c)
	if err != nil {
		return err
	}
	out := make([]apiProtocol, len(docs))
	for i, p := range docs {
		out[i] = s.protocolJSON(c, l, p, false)
	}
	return s.APIOK(c, out)
}

// apiPrivacyAndAgreement serves GET
// /api/app/protocol/getPrivacyAndAgreement/{examId}/{hl}: the privacy policy
// and the terms of service with their texts, which a sign-up or checkout
// form asks the visitor to accept.
func (s *Server) apiPrivacyAndAgreement(c echo.Context) error {
	l, docs, err := s.protocols(c)
	if err != nil {
		return err
	}
	out := map[string]*apiProtocol{"privacy": nil, "agreement": nil}
	for _, p := range docs {
		v := s.protocolJSON(c, l, p, true)
		switch p.Flag {
		case content.FlagPrivacy:
			out["privacy"] = &v
		case content.FlagTerms:
			out["agreement"] = &v
		}
	}
	return s.APIOK(c, out)
}

// apiProtocolInfo serves GET /api/app/protocol/info/{id}: one legal
// document with its text, in the call's language (hl).
func (s *Server) apiProtocolInfo(c echo.Context) error {
	l := httpx.State(c).Locale
	p, err := s.Content.Protocol(c.Request().Context(), c.Param("id"), l.Tag, content.AnyExam)
	if errors.Is(err, apperr.ErrNotFound) {
		return apperr.NotFound("api.not_found")
	}
	if err != nil {
		return err
	}
	return s.APIOK(c, s.protocolJSON(c, l, p, true))
}

func (s *Server) protocols(c echo.Context) (i18n.Locale, []content.Protocol, error) {
	e, err := s.examParam(c, "examId")
	if err != nil {
		return i18n.Locale{}, nil, err
	}
	l, err := langParam(c, "hl")
	if err != nil {
		return i18n.Locale{}, nil, err
	}
	docs, err := s.Content.Protocols(c.Request().Context(), l.Tag, e.ID)
	return l, docs, err
}
