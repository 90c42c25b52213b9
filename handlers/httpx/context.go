package httpx

import (
	"github.com/labstack/echo/v4"

	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/web"
)

// State returns the request state the platform middleware built.
func State(c echo.Context) *web.Request { return web.From(c.Request().Context()) }

// Tr returns the request's translator.
func Tr(c echo.Context) *i18n.Translator { return i18n.FromContext(c.Request().Context()) }

// PairKey is where RequirePair leaves the parsed pair.
const PairKey = "pair"

// RequirePair validates the {code}-{examId} route parameter: an unknown code
// or exam answers the 404 page.
func (s *Server) RequirePair(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p, ok := s.Exams.ParsePair(c.Param("pair"))
		if !ok {
			return NotFound()
		}
		c.Set(PairKey, p)
		return next(c)
	}
}

// Pair returns the pair RequirePair validated.
func Pair(c echo.Context) exam.Pair {
	p, _ := c.Get(PairKey).(exam.Pair)
	return p
}
