package site

import (
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/unsubscribe"
	"selfmap/views"
)

// cancelDay writes a day as the request's locale writes dates (the message
// cancel.date with its month names, cancel.date_first for the first of a
// month: French writes "1er"); empty for the zero time. Days are
// those of UTC, like the rest of the subscription pages.
func cancelDay(c echo.Context, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.UTC()
	tr := httpx.Tr(c)
	id := "cancel.date"
	if t.Day() == 1 {
		id = "cancel.date_first"
	}
	return tr.TD(id, map[string]any{"Year": t.Year(), "Month": int(t.Month()), "Day": t.Day(),
		"MonthName": tr.T("cancel.month." + strconv.Itoa(int(t.Month())))})
}

// cancelDayOf writes a day kept as httpx.Day wrote it; empty when it is
// not one.
func cancelDayOf(c echo.Context, day string) string {
	t, err := time.Parse("2006-01-02", day)
	if err != nil {
		return ""
	}
	return cancelDay(c, t)
}

// cancelEnding is how a subscription's access ends, for the cancel pages.
func cancelEnding(c echo.Context, e unsubscribe.Ending) views.CancelEnding {
	return views.CancelEnding{Until: cancelDay(c, e.Until), Ended: e.Ended}
}
