package httpx

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/apperr"
	"selfmap/internal/i18n"
	"selfmap/internal/web"
	"selfmap/views"
)

// badLanguageError is an hl value that names no locale we offer.
type badLanguageError struct{ Code string }

func (e badLanguageError) Error() string { return "handlers: unknown hl " + e.Code }

// problem is what a failed request shows: a status and translated texts.
type problem struct {
	status         int
	titleID        string
	messageID      string
	data           map[string]any
	offerLanguages bool
}

// classify maps an error to what the visitor sees: a page (path is the one
// asked for) or, for api, the JSON envelope's message. Anything unknown is a
// 500 whose cause is logged, never shown.
func classify(err error, path string, api bool) problem {
	var bad badLanguageError
	var he *echo.HTTPError
	var ae *apperr.Error
	notFound := problem{status: http.StatusNotFound, titleID: "error.not_found_title", messageID: "error.not_found", data: map[string]any{"Path": path}}
	if api {
		notFound = problem{status: http.StatusNotFound, titleID: "error.not_found_title", messageID: "api.not_found"}
	}
	switch {
	case errors.As(err, &ae):
		if ae.Status == http.StatusNotFound && !api {
			// A missing object and a missing page look the same to a visitor.
			return notFound
		}
		return problem{status: ae.Status, titleID: "error.bad_request_title", messageID: ae.ID, data: ae.Data}
	case errors.As(err, &bad):
		if api {
			return problem{status: http.StatusBadRequest, titleID: "error.bad_request_title", messageID: "api.bad_language", data: map[string]any{"Code": bad.Code}}
		}
		return problem{status: http.StatusBadRequest, titleID: "error.bad_request_title", messageID: "error.bad_language",
			data: map[string]any{"Code": bad.Code}, offerLanguages: true}
	case errors.Is(err, web.ErrCSRF):
		return problem{status: http.StatusForbidden, titleID: "error.forbidden_title", messageID: "error.csrf"}
	case errors.As(err, &he):
		switch he.Code {
		case http.StatusNotFound:
			return notFound
		case http.StatusMethodNotAllowed:
			return problem{status: he.Code, titleID: "error.method_title", messageID: "error.method"}
		case http.StatusRequestEntityTooLarge:
			return problem{status: he.Code, titleID: "error.too_large_title", messageID: "error.too_large"}
		case http.StatusTooManyRequests:
			return problem{status: he.Code, titleID: "error.too_many_title", messageID: "error.too_many"}
		case http.StatusUnauthorized:
			return problem{status: he.Code, titleID: "error.forbidden_title", messageID: "account.error.login_required"}
		case http.StatusForbidden:
			return problem{status: he.Code, titleID: "error.forbidden_title", messageID: "error.csrf"}
		case http.StatusBadRequest:
			return problem{status: he.Code, titleID: "error.bad_request_title", messageID: "error.bad_request"}
		}
	}
	return problem{status: http.StatusInternalServerError, titleID: "error.server_title", messageID: "error.server"}
}

// HandleError is echo's error handler: it logs a server error's cause with
// the request id once, then answers with the error page or, under /api, the
// JSON envelope, in the visitor's locale.
func (s *Server) HandleError(err error, c echo.Context) {
	r := c.Request()
	if c.Response().Committed || (errors.Is(err, context.Canceled) && r.Context().Err() != nil) {
		// Nothing more can be said: the answer is out, or the client left.
		return
	}
	st, ok := web.Lookup(r.Context())
	if !ok {
		// The error came before the request state was built (a body too
		// large, a panic in early middleware): build a plain one.
		st = s.newRequestState(c)
		st.Locale, st.Path, _ = i18n.SplitPath(r.URL.Path)
		c.SetRequest(r.WithContext(i18n.WithTranslator(web.With(r.Context(), st), s.Catalog.Translator(st.Locale))))
	}
	p := classify(err, st.LocalPath(st.Path), IsAPIPath(st.Path))
	if p.status >= 500 {
		s.Logger.ErrorContext(r.Context(), "request failed", "request_id", st.RequestID, "method", r.Method, "path", r.URL.Path, "err", err)
	}
	tr := i18n.FromContext(c.Request().Context())
	message := tr.TD(p.messageID, p.data)
	var werr error
	switch {
	case r.Method == http.MethodHead:
		werr = c.NoContent(p.status)
	case IsAPIPath(st.Path):
		werr = c.JSON(p.status, Envelope{Result: p.status, Message: message})
	default:
		c.Response().Header().Set("Cache-Control", "no-store")
		werr = s.Render(c, p.status, views.Error(views.ErrorPage{
			Status: p.status, Title: tr.T(p.titleID), Message: message,
			OfferLanguages: p.offerLanguages, RequestID: st.RequestID,
		}))
	}
	if werr != nil {
		s.Logger.ErrorContext(context.WithoutCancel(r.Context()), "write error response", "request_id", st.RequestID, "err", werr)
	}
}

// NotFound is what a handler returns for a missing or foreign object, so the
// two look exactly alike.
func NotFound() error { return echo.ErrNotFound }
