package httpx

import (
	"log/slog"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

func (s *Server) logPanic(c echo.Context, err error, stack []byte) error {
	s.Logger.ErrorContext(c.Request().Context(), "panic",
		"request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err, "stack", string(stack))
	return err
}

// requestLog writes one structured line per request.
func (s *Server) requestLog() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogRequestID: true, LogRemoteIP: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= 500 {
				level = slog.LevelError
			}
			attrs := []slog.Attr{
				slog.String("method", v.Method), slog.String("uri", loggedURI(c.Request().URL)), slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency), slog.String("request_id", v.RequestID), slog.String("ip", v.RemoteIP),
			}
			if logid := c.Request().Header.Get("logid"); logid != "" && len(logid) <= 64 {
				attrs = append(attrs, slog.String("logid", logid))
			}
			s.Logger.LogAttrs(c.Request().Context(), level, "request", attrs...)
			return nil
		},
	})
}

// secretParam reports whether a query parameter's value stays out of the log.
func secretParam(name string) bool {
	name = strings.ToLower(name)
	if slices.Contains(secretNames, name) {
		return true
	}
	return slices.ContainsFunc(secretParts, func(part string) bool { return strings.Contains(name, part) })
}

// loggedURI is a request's path and query as the log keeps them. The raw
// query is read pair by pair, whatever a parser would make of it: an
// escaped name (%74 is t), a ';' separator or a pair that does not decode
// would otherwise carry a secret into the log unread. A pair that does not
// decode is kept without its value.
func loggedURI(u *url.URL) string {
	pairs := strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' })
	redacted := false
	for i, pair := range pairs {
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, nameErr := url.QueryUnescape(rawName)
		value, valueErr := url.QueryUnescape(rawValue)
		if nameErr != nil {
			name = rawName
		}
		if nameErr != nil || valueErr != nil || secretParam(name) {
			value, redacted = "redacted", true
		}
		pairs[i] = url.QueryEscape(name) + "=" + url.QueryEscape(value)
	}
	if !redacted {
		return u.RequestURI()
	}
	return u.EscapedPath() + "?" + strings.Join(pairs, "&")
}
