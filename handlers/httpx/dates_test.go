package httpx_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/i18n"
	"selfmap/locales"
)

// A handler shows a day in the request's locale and keeps the machine's
// form for attributes and flashes.
func TestDates(t *testing.T) {
	c, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC)
	for tag, want := range map[string]string{"en": "1 December 2026", "fr": "1er décembre 2026", "ko": "2026년 12월 1일"} {
		l, _ := i18n.ByTag(tag)
		req := httptest.NewRequest("GET", "/", nil)
		req = req.WithContext(i18n.WithTranslator(req.Context(), c.Translator(l)))
		ec := echo.New().NewContext(req, httptest.NewRecorder())
		if got := httpx.LongDay(ec, day); got != want {
			t.Errorf("%s: LongDay %q, want %q", tag, got, want)
		}
		if got := httpx.LongDayOf(ec, httpx.Day(day)); got != want {
			t.Errorf("%s: LongDayOf(Day) %q, want %q", tag, got, want)
		}
		if got := httpx.LongDayOf(ec, "ended"); got != "" {
			t.Errorf("%s: a flash that is not a day: %q", tag, got)
		}
	}
	if got := httpx.Day(day.In(time.FixedZone("JST", 9*3600))); got != "2026-12-01" {
		t.Errorf("Day is UTC's: %q", got)
	}
	if httpx.Day(time.Time{}) != "" {
		t.Error("the zero time has a day")
	}
}
