package mail

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
	"time"

	"selfmap/internal/i18n"
)

// The kinds of e-mail the service sends; each has a subject message
// mail.<kind>.subject, a heading mail.<kind>.heading and a template pair
// templates/<kind>.html and templates/<kind>.txt.
const (
	KindReceipt     = "receipt"
	KindReportReady = "report_ready"
	KindRetrieval   = "retrieval"
	KindAccountCode = "account_code"
	// KindEmailChange carries the code that moves an account to a new
	// address, mailed to that address; its data are the Vars Code and
	// Minutes.
	KindEmailChange = "email_change"
	KindCancelLink  = "cancel_link"

	// KindRegisterNotice tells an address's owner that someone tried to
	// sign up with it, with links to log in and to reset the password; it
	// carries no code. Its data are the Vars LoginURL and ResetURL.
	KindRegisterNotice = "register_notice"

	// The subscription's e-mails (internal/subscription composes them).
	KindSubscriptionReceipt       = "subscription_receipt"
	KindSubscriptionPaymentFailed = "subscription_payment_failed"
	KindSubscriptionEndedUnpaid   = "subscription_ended_unpaid"
	KindSubscriptionCanceled      = "subscription_canceled"
	KindSubscriptionReminder      = "subscription_reminder"
)

var kinds = []string{KindReceipt, KindReportReady, KindRetrieval, KindAccountCode, KindEmailChange, KindCancelLink, KindRegisterNotice,
	KindSubscriptionReceipt, KindSubscriptionPaymentFailed, KindSubscriptionEndedUnpaid, KindSubscriptionCanceled,
	KindSubscriptionReminder}

//go:embed templates/*.html templates/*.txt
var templateFiles embed.FS

// Content is a composed e-mail: the subject and both bodies.
type Content struct {
	Kind, Subject, Text, HTML string
}

// Data is what a template shows. Vars fill the messages' placeholders
// (Order, Product, Total, Type); the URLs are absolute.
type Data struct {
	Vars        map[string]any
	BaseURL     string
	RetrieveURL string
	ReportURL   string
	// CancelURL is a one-time link that cancels a mailbox's subscriptions.
	CancelURL string
	Reports   []ReportLink
	// Purpose says what an account code is for: "verify" or "reset".
	Purpose string
	// UserCenterURL, UnsubscribeURL and TermsURL are a subscription's
	// links: where it is managed, where it is cancelled by e-mail, and its
	// terms.
	UserCenterURL, UnsubscribeURL, TermsURL string
	// Variant picks one wording of a kind: a receipt's "trial", a
	// cancellation's "now" or "period_end", a reminder's "trial"; a paid
	// order's "test" (a result named by its test, VariantTest). A subject
	// mail.<kind>.subject_<variant>, where there is one, replaces the
	// kind's subject.
	Variant string
	// Crisis is the crisis block the answers of a result call for (nil:
	// none): the e-mail starts with it (crisis.go).
	Crisis *Crisis
}

// VariantTest is the wording of a mail that names a result by its test and
// band ("Depression screen (PHQ-9): Moderate") rather than by a type code.
const VariantTest = "test"

// ReportLink is one report of a retrieval e-mail with its new link.
type ReportLink struct {
	Type, Order, Date, URL string
	// Variant is VariantTest when Type names the test and its band
	// (mail.retrieval.item_test), "" for a type code.
	Variant string
}

// Templates are the parsed e-mail templates, one HTML and one text set per
// kind, loaded once at start-up.
type Templates struct {
	html map[string]*htmltemplate.Template
	text map[string]*texttemplate.Template
}

// LoadTemplates parses the embedded templates; a broken one stops the boot.
func LoadTemplates() (*Templates, error) {
	t := &Templates{html: map[string]*htmltemplate.Template{}, text: map[string]*texttemplate.Template{}}
	for _, k := range kinds {
		h, err := htmltemplate.ParseFS(templateFiles, "templates/layout.html", "templates/"+k+".html")
		if err != nil {
			return nil, fmt.Errorf("mail: parse %s.html: %w", k, err)
		}
		x, err := texttemplate.ParseFS(templateFiles, "templates/layout.txt", "templates/"+k+".txt")
		if err != nil {
			return nil, fmt.Errorf("mail: parse %s.txt: %w", k, err)
		}
		t.html[k], t.text[k] = h, x
	}
	return t, nil
}

// Compose writes an e-mail of a kind in the translator's locale.
func (t *Templates) Compose(kind string, tr *i18n.Translator, d Data) (Content, error) {
	h, ok := t.html[kind]
	if !ok {
		return Content{}, fmt.Errorf("mail: unknown kind %q", kind)
	}
	v := view{Data: d, tr: tr, Lang: tr.Locale.Tag, Brand: tr.T("meta.site_name")}
	v.Subject = tr.TD("mail."+kind+".subject", d.Vars)
	if id := "mail." + kind + ".subject_" + d.Variant; d.Variant != "" {
		if s := tr.TD(id, d.Vars); s != id {
			v.Subject = s
		}
	}
	v.Heading = tr.TD("mail."+kind+".heading", d.Vars)
	v.Preheader = v.Heading
	if d.Crisis != nil {
		v.Preheader = tr.T("crisis.title")
	}
	var html, text bytes.Buffer
	if err := h.ExecuteTemplate(&html, "layout", v); err != nil {
		return Content{}, fmt.Errorf("mail: render %s.html: %w", kind, err)
	}
	if err := t.text[kind].ExecuteTemplate(&text, "layout", v); err != nil {
		return Content{}, fmt.Errorf("mail: render %s.txt: %w", kind, err)
	}
	return Content{Kind: kind, Subject: v.Subject, Text: strings.TrimSpace(text.String()) + "\n", HTML: html.String()}, nil
}

// view is the templates' dot: the data, the translated frame, and the
// translator behind T, TD and Item.
type view struct {
	Data
	tr                                       *i18n.Translator
	Lang, Brand, Subject, Heading, Preheader string
}

// T translates a message without placeholders.
func (v view) T(id string) string { return v.tr.T(id) }

// TD translates a message with the e-mail's Vars.
func (v view) TD(id string) string { return v.tr.TD(id, v.Vars) }

// Var is one of the e-mail's Vars as text.
func (v view) Var(name string) string { return fmt.Sprint(v.Vars[name]) }

// Has reports whether the e-mail's Vars hold a non-empty value for name.
func (v view) Has(name string) bool {
	x, ok := v.Vars[name]
	return ok && x != nil && fmt.Sprint(x) != ""
}

// Item names one report of a retrieval e-mail.
func (v view) Item(r ReportLink) string {
	if r.Variant == VariantTest {
		return v.tr.TD("mail.retrieval.item_test", map[string]any{"Type": r.Type, "Order": r.Order, "Date": r.Date})
	}
	return v.tr.TD("mail.retrieval.item", map[string]any{"Type": r.Type, "Order": r.Order, "Date": r.Date})
}

// button is a call-to-action link.
type button struct{ URL, Label string }

// Button makes a call-to-action link for the "button" template.
func (v view) Button(url, label string) button { return button{URL: url, Label: label} }

// Date writes a day in the translator's language ("22 November 2026",
// "2026年11月22日") as the pages do (i18n's LongDay). The day is taken in
// UTC, as every time the service stores.
func Date(tr *i18n.Translator, t time.Time) string { return tr.LongDay(t) }
