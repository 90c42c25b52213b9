package httpx

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"selfmap/internal/ids"
	"selfmap/internal/pagecache"
	"selfmap/internal/web"
)

// Render writes a templ component as the response. It renders into a buffer
// first, so a failing component becomes a clean error page instead of half a
// page.
func (s *Server) Render(c echo.Context, status int, page templ.Component) error {
	var buf bytes.Buffer
	if err := page.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// Envelope is the JSON API's answer shape, kept from the spec: result is 200
// on success and the HTTP status otherwise.
type Envelope struct {
	Result  int    `json:"result"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

// APIOK answers an API call with data.
func (s *Server) APIOK(c echo.Context, data any) error {
	return c.JSON(http.StatusOK, Envelope{Result: http.StatusOK, Message: Tr(c).T("api.success"), Data: data})
}

// Sentinels stand for the per-visitor values while a public page is
// rendered for the page cache; they are random per process, so no text a
// page shows (a review) can be one.
var (
	nonceSentinel = "nonce" + ids.New()
	csrfSentinel  = "csrf" + ids.New()
)

// RenderPublic writes a page that is the same for every visitor of its
// host, locale, path and consent state, but for the CSP nonce and the CSRF
// token: from the page cache (gzip included) when the visit allows it, and
// otherwise as render does. A visit with a query (an ad's click ids, which
// the page's links keep), a flash message or consented third-party scripts
// is rendered for itself. vary names whatever else the page depends on
// (the visitor's region for the landing counters).
func (s *Server) RenderPublic(c echo.Context, vary string, page func() templ.Component) error {
	st := State(c)
	r := c.Request()
	if s.pages == nil || (r.Method != http.MethodGet && r.Method != http.MethodHead) || st.Query != "" || st.Flash != "" || len(st.Tracking) > 0 {
		var buf bytes.Buffer
		if err := page().Render(r.Context(), &buf); err != nil {
			return err
		}
		return s.writeHTML(c, buf.Bytes())
	}
	// Taken before rendering: templ keeps its nonce in a value the
	// sentinel's context shares.
	values := []string{templ.GetNonce(r.Context()), st.CSRF}
	// A host without a site of its own shares the default site's pages, so
	// made-up Host headers cannot fill the cache.
	host := ""
	if st.FromSite {
		host = strings.ToLower(r.Host)
	}
	choice := "undecided"
	if st.Consent.Decided {
		choice = st.Consent.String()
	}
	signed := "out"
	if st.SignedIn {
		signed = "in"
	}
	key := host + "|" + st.Locale.Tag + "|" + st.Path + "|" + choice + "|" + signed + "|" + vary
	p, ok := s.pages.Get(key)
	if !ok {
		model := *st
		model.CSRF = csrfSentinel
		ctx := templ.WithNonce(web.With(r.Context(), &model), nonceSentinel)
		var buf bytes.Buffer
		err := page().Render(ctx, &buf)
		// templ keeps the nonce in a value both contexts share: put the
		// response's own back.
		templ.WithNonce(r.Context(), values[0])
		if err != nil {
			return err
		}
		compiled, err := pagecache.Compile(buf.Bytes(), []string{nonceSentinel, csrfSentinel}, s.pages.Now())
		if err != nil {
			return err
		}
		s.pages.Put(key, compiled)
		p = compiled
	}
	res := c.Response()
	publicHeaders(res.Header())
	if acceptsGzip(c) {
		res.Header().Set(echo.HeaderContentEncoding, "gzip")
		res.WriteHeader(http.StatusOK)
		if r.Method == http.MethodHead {
			return nil
		}
		return p.WriteGzip(res, values)
	}
	res.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	return p.WriteTo(res, values)
}

// publicHeaders are those of a public page: HTML that varies by encoding,
// and private to the visitor (it carries their CSRF token).
func publicHeaders(h http.Header) {
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
	h.Set("Cache-Control", "private, no-cache")
}

// acceptsGzip reports whether this handler compresses its own answer: the
// client takes gzip and the gzip middleware left the page to it
// (skipCompression).
func acceptsGzip(c echo.Context) bool {
	_, wrapped := c.Response().Writer.(interface{ Unwrap() http.ResponseWriter })
	return !wrapped && strings.Contains(c.Request().Header.Get(echo.HeaderAcceptEncoding), "gzip")
}

// writeHTML writes a public page rendered for this visit, gzipped here when
// the middleware left it to the handler.
func (s *Server) writeHTML(c echo.Context, body []byte) error {
	publicHeaders(c.Response().Header())
	if !acceptsGzip(c) {
		return c.HTMLBlob(http.StatusOK, body)
	}
	res := c.Response()
	res.Header().Set(echo.HeaderContentEncoding, "gzip")
	res.WriteHeader(http.StatusOK)
	zw := getGzip(res)
	_, err := zw.Write(body)
	if cerr := putGzip(zw); err == nil {
		err = cerr
	}
	return err
}
