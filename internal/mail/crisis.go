package mail

import (
	htmltemplate "html/template"

	"selfmap/internal/exam/crisis"
)

// Crisis is the crisis block of an e-mail about a screen's result whose
// answers call for it (report/screen's Builder.CrisisFor decides, as for
// the pages): the lines of the result's country and why they are shown,
// worded. The e-mail starts with it, before any score.
type Crisis struct {
	Lines  crisis.Lines
	Reason string
}

// crisisBlock is the crisis block as the templates show it, every string
// in the e-mail's language (the crisis.* messages of the pages).
type crisisBlock struct {
	Title, Reason string
	// International: the country has no row; Local and Directory ask the
	// reader to call their local emergency number and point to the
	// international directory at WebURL.
	International    bool
	Local, Directory string
	// Now leads the numbers: the emergency number, then the crisis lines.
	Now       string
	Emergency crisisNumber
	Lines     []crisisNumber
	// WebLabel names the web resource WebName at WebURL.
	WebLabel, WebName, WebURL string
	Talk, Checked             string
	// Sep separates a label from its value (view.Sep).
	Sep string
}

// crisisNumber is a number to call, labelled, with its tel: (or sms:) link
// and, where the reader can read them, its hours.
type crisisNumber struct {
	Label, Number, Hours string
	Href                 htmltemplate.URL
}

// CrisisBlock words the e-mail's crisis block; the templates show it only
// when Crisis is set.
func (v view) CrisisBlock() crisisBlock {
	c, tag := v.Crisis, v.Lang
	if c == nil {
		return crisisBlock{}
	}
	l := c.Lines
	b := crisisBlock{Title: v.T("crisis.title"), Reason: c.Reason, International: l.International(),
		Local: v.T("crisis.local_emergency"), Directory: v.T("crisis.directory"), Now: v.T("crisis.now"),
		WebLabel: v.T("crisis.web"), WebName: l.WebNameIn(tag), WebURL: l.WebURL, Talk: v.T("crisis.talk"),
		Checked: v.tr.TD("crisis.checked", map[string]any{"Date": v.tr.LongDay(l.Checked)}), Sep: v.Sep()}
	if b.International {
		return b
	}
	b.Emergency = crisisNumber{Label: v.T("crisis.emergency"), Number: l.Emergency, Href: dial(l.Emergency)}
	for _, line := range []crisis.Line{l.Line, l.Alt} {
		if line.Phone != "" {
			b.Lines = append(b.Lines, crisisNumber{Label: line.NameIn(tag), Number: line.Phone, Hours: line.HoursIn(tag), Href: dial(line.Phone)})
		}
	}
	return b
}

// dial is a number's tel: or sms: link; html/template would refuse the
// scheme as an unsafe URL otherwise, and crisis.Dial makes it of digits.
func dial(phone string) htmltemplate.URL { return htmltemplate.URL(crisis.Dial(phone)) }

// Sep separates a label from its value in the e-mail's language, as the
// pages do: "：" in Chinese and Japanese, a no-break space and ": " in
// French, ": " elsewhere.
func (v view) Sep() string {
	switch v.Lang {
	case "zh-CN", "zh-HK", "ja":
		return "："
	case "fr":
		return "\u00a0: "
	}
	return ": "
}
