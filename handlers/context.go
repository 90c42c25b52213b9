package handlers

import (
	"github.com/labstack/echo/v4"

	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/web"
)

// state returns the request state the platform middleware built.
func state(c echo.Context) *web.Request { return web.From(c.Request().Context()) }

// tr returns the request's translator.
func tr(c echo.Context) *i18n.Translator { return i18n.FromContext(c.Request().Context()) }

// pairKey is where requirePair leaves the parsed pair.
const pairKey = "pair"

// requirePair validates the {code}-{examId} route parameter: an unknown code
// or exam answers the 404 page.
func (s *Server) requirePair(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p, ok := s.Exams.ParsePair(c.Param("pair"))
		if !ok {
			return notFound()
		}
		c.Set(pairKey, p)
		return next(c)
	}
}

// pair returns the pair requirePair validated.
func pair(c echo.Context) exam.Pair {
	p, _ := c.Get(pairKey).(exam.Pair)
	return p
}
