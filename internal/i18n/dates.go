package i18n

import (
	"fmt"
	"time"
)

// DayLayout is how a day is written for machines: the datetime attribute of
// a <time> element, JSON fields, a day kept in a flash or a form.
const DayLayout = time.DateOnly

// LongDay writes a day as a member of the translator's locale reads it in a
// sentence ("24 December 2026", "1er décembre 2026", "2026年12月1日"), from
// the messages date.*: the locale's pattern date.long, its month names
// date.month.mNN, and date.first for the first of a month where a language
// writes it apart (French "1er", Portuguese "1º"). The day is that of UTC,
// like every time the service stores; the zero time is empty. golang.org/x/text
// formats numbers, not dates, so the patterns are messages.
func (t *Translator) LongDay(d time.Time) string {
	if d.IsZero() {
		return ""
	}
	d = d.UTC()
	day := fmt.Sprint(d.Day())
	if d.Day() == 1 {
		day = t.T("date.first")
	}
	return t.TD("date.long", map[string]any{"Day": day, "Month": int(d.Month()), "Year": d.Year(),
		"MonthName": t.T(fmt.Sprintf("date.month.m%02d", int(d.Month())))})
}

// LongDayOf writes a day kept in DayLayout as LongDay does; empty when day
// is not one.
func (t *Translator) LongDayOf(day string) string {
	d, err := time.Parse(DayLayout, day)
	if err != nil {
		return ""
	}
	return t.LongDay(d)
}
