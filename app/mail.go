package app

import (
	"fmt"

	"selfmap/internal/account"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/mail"
	"selfmap/internal/money"
	"selfmap/internal/retrieve"
	"selfmap/internal/store"
)

// mailer composes the service's e-mails in the recipient's language, with
// absolute links built from BASE_URL and the locale's path prefix.
type mailer struct {
	templates *mail.Templates
	catalog   *i18n.Catalog
	exams     *exam.Registry
	baseURL   string
}

// locale is the locale of a stored tag, or the default one.
func locale(tag string) i18n.Locale {
	if l, ok := i18n.ByTag(tag); ok {
		return l
	}
	return i18n.Default
}

// homePair is the exam's first page code with its id (BMBTI-1807): the
// pair report and retrieval links carry.
func (m *mailer) homePair(examID int) exam.Pair {
	if e, ok := m.exams.Exam(examID); ok && len(e.Codes) > 0 {
		return exam.Pair{Code: e.Codes[0], ExamID: examID}
	}
	return exam.DefaultPair
}

// reportURL is the link a report token opens, in locale l.
func (m *mailer) reportURL(l i18n.Locale, examID int, token string) string {
	return m.baseURL + l.Path("/report/result/"+m.homePair(examID).String()) + "?t=" + token
}

func (m *mailer) data(l i18n.Locale, examID int) mail.Data {
	return mail.Data{BaseURL: m.baseURL + l.Path("/"), RetrieveURL: m.baseURL + l.Path("/report/retrieve/"+m.homePair(examID).String())}
}

// paidOrder composes a paid order's e-mails: the receipt, and the
// report-ready mail when the order bought the report (reportToken set).
func (m *mailer) paidOrder(o store.Order, r store.Result, reportToken string) ([]mail.Content, error) {
	l := locale(r.Locale)
	t := m.catalog.Translator(l)
	total, err := money.Format(o.Total, o.Currency.String)
	if err != nil {
		total = fmt.Sprintf("%d %s", o.Total, o.Currency.String)
	}
	d := m.data(l, r.ExamID)
	d.Vars = map[string]any{"Order": o.OrderNumber, "Product": t.T("sku." + o.SKUID.String + ".name"), "Total": total, "Type": r.ResultCode}
	receipt, err := m.templates.Compose(mail.KindReceipt, t, d)
	if err != nil || reportToken == "" {
		return []mail.Content{receipt}, err
	}
	d.ReportURL = m.reportURL(l, r.ExamID, reportToken)
	ready, err := m.templates.Compose(mail.KindReportReady, t, d)
	return []mail.Content{receipt, ready}, err
}

// retrieval composes the e-mail listing a mailbox's reports with new links.
func (m *mailer) retrieval(l i18n.Locale, reports []retrieve.Report) (mail.Content, error) {
	examID := exam.DefaultPair.ExamID
	if len(reports) > 0 {
		examID = reports[0].ExamID
	}
	d, tr := m.data(l, examID), m.catalog.Translator(l)
	for _, r := range reports {
		d.Reports = append(d.Reports, mail.ReportLink{Type: r.ResultCode, Order: r.OrderNumber, Date: tr.LongDay(r.PaidAt),
			URL: m.reportURL(l, r.ExamID, r.Token)})
	}
	return m.templates.Compose(mail.KindRetrieval, tr, d)
}

// accountCode composes the e-mail carrying a one-time code: to verify an
// address (purpose "verify"), to reset a password ("reset") or to move an
// account to a new address (account.PurposeEmailChange, an e-mail of its
// own); for account.PurposeNotice, the owner's notice of a sign-up with
// their address, which carries links instead.
func (m *mailer) accountCode(tag, purpose, code string) (mail.Content, error) {
	l := locale(tag)
	d := m.data(l, exam.DefaultPair.ExamID)
	if purpose == account.PurposeNotice {
		d.Vars = map[string]any{"LoginURL": m.baseURL + l.Path("/user/login"), "ResetURL": m.baseURL + l.Path("/user/forgot-password")}
		return m.templates.Compose(mail.KindRegisterNotice, m.catalog.Translator(l), d)
	}
	d.Vars = map[string]any{"Code": code, "Minutes": 10}
	if purpose == account.PurposeEmailChange {
		return m.templates.Compose(mail.KindEmailChange, m.catalog.Translator(l), d)
	}
	d.Purpose = purpose
	return m.templates.Compose(mail.KindAccountCode, m.catalog.Translator(l), d)
}

// cancelLink composes the e-mail carrying a one-time link that cancels a
// mailbox's subscriptions, to the confirmation page of the pair it was
// asked on.
func (m *mailer) cancelLink(l i18n.Locale, pair, token string) (mail.Content, error) {
	d := m.data(l, exam.DefaultPair.ExamID)
	d.CancelURL = m.baseURL + l.Path("/cancel/confirm/"+pair) + "?t=" + token
	d.Vars = map[string]any{"Hours": 24}
	return m.templates.Compose(mail.KindCancelLink, m.catalog.Translator(l), d)
}
