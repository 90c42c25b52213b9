package crisis

import (
	"strings"
	"unicode"
)

// How a line is shown, the same on the pages and in the e-mails.

// NameIn is a line's name for a reader of the locale tag: the English name
// for an English reader where the file has one, else the local name.
func (l Line) NameIn(tag string) string {
	if tag == "en" && l.NameEn != "" {
		return l.NameEn
	}
	return l.Name
}

// WebNameIn is the web resource's name for a reader of the locale tag, as
// Line.NameIn.
func (l Lines) WebNameIn(tag string) string {
	if tag == "en" && l.WebNameEn != "" {
		return l.WebNameEn
	}
	return l.WebName
}

// HoursIn is when a line answers as the file words it, for a reader of the
// locale tag: always for an English reader, and for others only when it
// holds no English words ("24시간 (24/7)"), never half in a language they
// did not choose ("" then).
func (l Line) HoursIn(tag string) string {
	if tag == "en" {
		return l.Hours
	}
	if strings.ContainsFunc(l.Hours, func(r rune) bool { return r < 0x80 && unicode.IsLetter(r) }) {
		return ""
	}
	return l.Hours
}

// Dial is the link that calls a number as the file writes it ("tel:" and
// its digits), or texts it where the file notes "(text)" ("sms:").
func Dial(phone string) string {
	number, note, _ := strings.Cut(phone, " (")
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, number)
	if strings.HasPrefix(note, "text") {
		return "sms:" + digits
	}
	return "tel:" + digits
}
