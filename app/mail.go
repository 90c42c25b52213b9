package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"selfmap/internal/account"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/mail"
	"selfmap/internal/money"
	"selfmap/internal/report"
	"selfmap/internal/report/screen"
	"selfmap/internal/result"
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
	// store reads the answers of a screen's result that a retrieval e-mail
	// lists (the retrieval gives only its id).
	store *store.Store
	// builders are the report builders (reportBuilders), made on first use
	// when not given: a screen's builder names its result and decides its
	// crisis block.
	builders     report.Builders
	buildersOnce sync.Once
	buildersErr  error
}

// screened is the report builder of a screen (report/screen): it names a
// result by its band and decides whether its answers call for the crisis
// block, as on the pages. The 16-type builder is not one: its mails name
// the type code.
type screened interface {
	report.Builder
	CrisisFor(r result.Result, t *i18n.Translator) (*screen.Crisis, error)
}

// screenOf is the builder of an exam's results when it is a screen's.
func (m *mailer) screenOf(examID int) (screened, bool, error) {
	m.buildersOnce.Do(func() {
		if m.builders == nil {
			m.builders, m.buildersErr = reportBuilders(m.exams, nil)
		}
	})
	if m.buildersErr != nil {
		return nil, false, m.buildersErr
	}
	b, err := m.builders.For(m.exams, examID)
	if err != nil {
		return nil, false, err
	}
	sb, ok := b.(screened)
	return sb, ok, nil
}

// named is how a mail shows a result: Type names it (a type code, or the
// test and its band), Test is the test's name and Variant
// mail.VariantTest for a screen; Crisis is the block its answers call for.
type named struct {
	Type, Test, Variant string
	Crisis              *mail.Crisis
}

// name names a stored result in a mail written by t: a screen's as
// "Depression screen (PHQ-9): Moderate" with the crisis block its answers
// call for (report/screen decides both, as for the pages), any other by
// its type code as before.
func (m *mailer) name(r store.Result, t *i18n.Translator) (named, error) {
	sb, ok, err := m.screenOf(r.ExamID)
	if err != nil || !ok {
		return named{Type: r.ResultCode}, err
	}
	free, err := sb.Free(context.Background(), report.Input{Result: r, Locale: t.Locale, T: t})
	if err != nil {
		return named{}, err
	}
	c, err := sb.CrisisFor(r, t)
	if err != nil {
		return named{}, err
	}
	n := named{Test: t.T("exam.name_" + strconv.Itoa(r.ExamID)), Variant: mail.VariantTest}
	n.Type = t.TD("mail.named", map[string]any{"Test": n.Test, "Band": free.Headline().Title})
	if c != nil {
		n.Crisis = &mail.Crisis{Lines: c.Lines, Reason: c.Reason}
	}
	return n, nil
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
	n, err := m.name(r, t)
	if err != nil {
		return nil, err
	}
	d := m.data(l, r.ExamID)
	d.Vars = map[string]any{"Order": o.OrderNumber, "Product": t.T("sku." + o.SKUID.String + ".name"), "Total": total, "Type": n.Type, "Test": n.Test}
	d.Variant, d.Crisis = n.Variant, n.Crisis
	receipt, err := m.templates.Compose(mail.KindReceipt, t, d)
	if err != nil || reportToken == "" {
		return []mail.Content{receipt}, err
	}
	d.ReportURL = m.reportURL(l, r.ExamID, reportToken)
	ready, err := m.templates.Compose(mail.KindReportReady, t, d)
	return []mail.Content{receipt, ready}, err
}

// retrieval composes the e-mail listing a mailbox's reports with new links.
// A screen's report is named by its test and band; when one's answers call
// for the crisis block, the e-mail starts with it (the first such report's,
// in its country's lines).
func (m *mailer) retrieval(l i18n.Locale, reports []retrieve.Report) (mail.Content, error) {
	examID := exam.DefaultPair.ExamID
	if len(reports) > 0 {
		examID = reports[0].ExamID
	}
	d, tr := m.data(l, examID), m.catalog.Translator(l)
	for _, r := range reports {
		n, err := m.listed(r.PaidReport, tr)
		if err != nil {
			return mail.Content{}, err
		}
		if d.Crisis == nil {
			d.Crisis = n.Crisis
		}
		d.Reports = append(d.Reports, mail.ReportLink{Type: n.Type, Variant: n.Variant, Order: r.OrderNumber, Date: tr.LongDay(r.PaidAt),
			URL: m.reportURL(l, r.ExamID, r.Token)})
	}
	return m.templates.Compose(mail.KindRetrieval, tr, d)
}

// listed names a report a retrieval e-mail lists: a screen's is read from
// the store for its answers, any other is named by its type code.
func (m *mailer) listed(p store.PaidReport, t *i18n.Translator) (named, error) {
	if _, ok, err := m.screenOf(p.ExamID); err != nil || !ok {
		return named{Type: p.ResultCode}, err
	}
	if m.store == nil {
		return named{}, errors.New("app: the retrieval e-mail needs the store to read a screen's answers")
	}
	r, err := m.store.GetResult(context.Background(), m.store.DB, p.ResultID)
	if err != nil {
		return named{}, fmt.Errorf("app: retrieval e-mail: %w", err)
	}
	return m.name(r, t)
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
