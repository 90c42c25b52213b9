package subscription

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/ids"
	"selfmap/internal/mail"
	"selfmap/internal/money"
	"selfmap/internal/store"
	"selfmap/locales"
)

// The e-mails of a subscription, as outbox kinds.
const (
	mailReceipt        = mail.KindSubscriptionReceipt
	mailPaymentFailed  = mail.KindSubscriptionPaymentFailed
	mailCanceled       = mail.KindSubscriptionCanceled
	mailCanceledUnpaid = mail.KindSubscriptionEndedUnpaid
	mailReminder       = mail.KindSubscriptionReminder
)

// Mailer composes a subscription's e-mails with the shared templates
// (internal/mail), in the subscription's locale, with absolute links.
type Mailer struct {
	Templates *mail.Templates
	Catalog   *i18n.Catalog
	// BaseURL is the site's origin (BASE_URL), without a trailing slash.
	BaseURL string
}

// defaultMailer is the one a Service without a Mailer uses: the embedded
// templates and messages, with links relative to the site's root. The app
// sets a Mailer with BASE_URL; this keeps services built by hand (tests,
// tools) sending the same e-mails.
var defaultMailer = sync.OnceValues(func() (*Mailer, error) {
	t, err := mail.LoadTemplates()
	if err != nil {
		return nil, err
	}
	c, err := i18n.Load(locales.Files)
	if err != nil {
		return nil, err
	}
	return &Mailer{Templates: t, Catalog: c}, nil
})

func (s *Service) mailer() (*Mailer, error) {
	if s.Mail != nil {
		return s.Mail, nil
	}
	return defaultMailer()
}

// mailKind is an e-mail to queue with a subscription's change, and the
// invoice it is about (if any).
type mailKind struct {
	kind string
	inv  store.Invoice
}

// queueMail composes an e-mail and queues it in tx, with what caused it.
// Its ref makes it once only: a receipt per invoice, a failure notice per
// attempt, a reminder per period.
func (s *Service) queueMail(ctx context.Context, tx *sqlx.Tx, k mailKind, sub store.Subscription) error {
	m, err := s.mailer()
	if err != nil {
		return err
	}
	c, ref, err := m.compose(k, sub)
	if err != nil {
		return err
	}
	return s.Store.QueueMail(ctx, tx, store.Mail{ID: ids.New(), Kind: k.kind, To: sub.Email, Locale: sub.Locale, Subject: c.Subject,
		Body: c.Text, HTMLBody: sql.NullString{String: c.HTML, Valid: c.HTML != ""}, Ref: ref, Status: store.MailQueued, CreatedAt: s.now()})
}

// compose writes one e-mail of a subscription in its locale, and returns
// the ref that makes it once only.
func (m *Mailer) compose(k mailKind, sub store.Subscription) (mail.Content, string, error) {
	l, ok := i18n.ByTag(sub.Locale)
	if !ok {
		l = i18n.Default
	}
	tr := m.Catalog.Translator(l)
	pair := exam.DefaultPair.String()
	d := mail.Data{
		BaseURL:        m.BaseURL + l.Path("/"),
		RetrieveURL:    m.BaseURL + l.Path("/report/retrieve/"+pair),
		UserCenterURL:  m.BaseURL + l.Path("/userCenter"),
		UnsubscribeURL: m.BaseURL + l.Path("/cancel/subscription/"+pair),
		TermsURL:       m.BaseURL + l.Path("/legal/subscription-terms/"+pair),
	}
	var err error
	amount := func(v int64, cur string) string {
		out, ferr := money.Format(v, cur)
		if ferr != nil && err == nil {
			err = fmt.Errorf("subscription: mail %s: %w", k.kind, ferr)
		}
		return out
	}
	date := func(t time.Time) string { return mail.Date(tr, t) }
	d.Vars = map[string]any{"Plan": planName(tr, sub.PlanID), "Card": card(sub)}
	var ref string
	switch k.kind {
	case mailReceipt:
		ref = k.inv.ID
		d.Vars["Total"] = amount(k.inv.Amount, k.inv.Currency)
		d.Vars["Price"] = amount(sub.Price, sub.Currency)
		d.Vars["Charge"] = tr.T("mail.sub.charge." + k.inv.Kind)
		d.Vars["Start"], d.Vars["End"] = date(k.inv.PeriodStart), date(k.inv.PeriodEnd)
		d.Vars["Invoice"] = k.inv.ID
		if k.inv.Kind == KindTrial {
			d.Variant = "trial"
		}
	case mailPaymentFailed:
		ref = k.inv.ID + "#" + strconv.Itoa(k.inv.Attempts)
		d.Vars["Amount"], d.Vars["Date"] = amount(k.inv.Amount, k.inv.Currency), date(k.inv.NextAttemptAt)
	case mailCanceledUnpaid:
		ref = sub.ID
		d.Vars["Amount"] = amount(k.inv.Amount, k.inv.Currency)
	case mailCanceled:
		ref = sub.ID
		d.Variant = "period_end"
		if sub.Status == Canceled {
			d.Variant = "now"
		}
		d.Vars["Date"] = date(sub.CurrentPeriodEnd)
	case mailReminder:
		ref = sub.ID + "@" + sub.CurrentPeriodEnd.UTC().Format(time.RFC3339)
		if sub.Status == Trialing {
			d.Variant = "trial"
		}
		d.Vars["Amount"], d.Vars["Date"] = amount(sub.Price, sub.Currency), date(sub.CurrentPeriodEnd)
	default:
		return mail.Content{}, "", fmt.Errorf("subscription: unknown mail kind %q", k.kind)
	}
	if err != nil {
		return mail.Content{}, "", err
	}
	c, err := m.Templates.Compose(k.kind, tr, d)
	return c, ref, err
}

// planName is a plan's name in the translator's language; a plan without
// one (added by an operator since) is named by its id.
func planName(tr *i18n.Translator, planID string) string {
	id := "mail.sub.plan." + planID
	if name := tr.T(id); name != id {
		return name
	}
	return planID
}

// CardLabel names a subscription's saved card by brand and last four digits
// ("Visa •••• 4242"), the same in every language; "" when the provider told
// neither.
func CardLabel(sub store.Subscription) string {
	if strings.TrimSpace(sub.CardLast4.String) == "" && strings.TrimSpace(sub.CardBrand.String) == "" {
		return ""
	}
	return card(sub)
}

// card names the saved card by brand and last four digits ("Visa •••• 4242"),
// the same in every language; dots alone when the provider told neither.
func card(sub store.Subscription) string {
	last4 := strings.TrimSpace(sub.CardLast4.String)
	brand := strings.TrimSpace(sub.CardBrand.String)
	switch strings.ToLower(brand) {
	case "visa":
		brand = "Visa"
	case "mastercard":
		brand = "Mastercard"
	case "amex", "american express":
		brand = "American Express"
	case "discover":
		brand = "Discover"
	case "jcb":
		brand = "JCB"
	case "unionpay":
		brand = "UnionPay"
	}
	return strings.TrimSpace(brand + " •••• " + last4)
}

// remind queues the reminder of each renewal due within RemindBefore.
func (s *Service) remind(ctx context.Context, now time.Time) error {
	subs, err := s.Store.RenewingBetween(ctx, s.Store.DB, now, now.Add(s.remindBefore()), 200)
	if err != nil {
		return err
	}
	for _, sub := range subs {
		if err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
			return s.queueMail(ctx, tx, mailKind{kind: mailReminder}, sub)
		}); err != nil {
			return err
		}
	}
	return nil
}
