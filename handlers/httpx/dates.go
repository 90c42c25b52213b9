package httpx

import (
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/internal/i18n"
)

// Day is a day as machines read it ("2026-12-24", i18n.DayLayout): the
// datetime of a <time> element, a JSON field, a day kept in a flash; views
// show it to a member through their longDayOf. Empty for the zero time.
func Day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(i18n.DayLayout)
}

// LongDay is a day as a member of the request's locale reads it ("24
// December 2026", "2026年12月24日"); empty for the zero time.
func LongDay(c echo.Context, t time.Time) string { return Tr(c).LongDay(t) }

// LongDayOf is a day kept as Day writes it, as LongDay shows it; empty when
// it is not one.
func LongDayOf(c echo.Context, day string) string { return Tr(c).LongDayOf(day) }
