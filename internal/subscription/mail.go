package subscription

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/ids"
	"selfmap/internal/money"
	"selfmap/internal/store"
)

// The e-mails of a subscription, as outbox kinds.
const (
	mailReceipt        = "subscription_receipt"
	mailPaymentFailed  = "subscription_payment_failed"
	mailCanceled       = "subscription_canceled"
	mailCanceledUnpaid = "subscription_ended_unpaid"
	mailReminder       = "subscription_reminder"
)

// mailKind is an e-mail to queue with a subscription's change, and the
// invoice it is about (if any).
type mailKind struct {
	kind string
	inv  store.Invoice
}

// queueMail composes a plain-text e-mail and queues it in tx, with what
// caused it. Its ref makes it once only: a receipt per invoice, a failure
// notice per attempt, a reminder per period.
func (s *Service) queueMail(ctx context.Context, tx *sqlx.Tx, k mailKind, sub store.Subscription) error {
	subject, body, ref, err := compose(k, sub)
	if err != nil {
		return err
	}
	return s.Store.QueueMail(ctx, tx, store.Mail{ID: ids.New(), Kind: k.kind, To: sub.Email, Locale: sub.Locale, Subject: subject,
		Body: body, Ref: ref, Status: store.MailQueued, CreatedAt: s.now()})
}

func day(t time.Time) string { return t.UTC().Format("2 January 2006") }

func compose(k mailKind, sub store.Subscription) (subject, body, ref string, err error) {
	amount := func(v int64, cur string) string {
		if err != nil {
			return ""
		}
		var out string
		out, err = money.Format(v, cur)
		return out
	}
	var b strings.Builder
	switch k.kind {
	case mailReceipt:
		subject, ref = "Your Selfmap receipt", k.inv.ID
		fmt.Fprintf(&b, "Thank you. We charged %s to your %s card ending in %s.\n\n", amount(k.inv.Amount, k.inv.Currency),
			sub.CardBrand.String, sub.CardLast4.String)
		fmt.Fprintf(&b, "Plan: %s (%s)\nPeriod: %s to %s\nInvoice: %s\n", sub.PlanID, strings.ReplaceAll(k.inv.Kind, "_", " "),
			day(k.inv.PeriodStart), day(k.inv.PeriodEnd), k.inv.ID)
		if k.inv.Kind == KindTrial {
			fmt.Fprintf(&b, "\nYour trial ends on %s. Unless you cancel before then, your plan renews at %s.\n",
				day(k.inv.PeriodEnd), amount(sub.Price, sub.Currency))
		}
	case mailPaymentFailed:
		subject, ref = "Your Selfmap payment did not go through", k.inv.ID+"#"+strconv.Itoa(k.inv.Attempts)
		fmt.Fprintf(&b, "We could not charge %s to your card ending in %s for your %s plan.\n", amount(k.inv.Amount, k.inv.Currency),
			sub.CardLast4.String, sub.PlanID)
		fmt.Fprintf(&b, "We will try again on %s. Your access continues until then.\n", day(k.inv.NextAttemptAt))
	case mailCanceledUnpaid:
		subject, ref = "Your Selfmap subscription has ended", sub.ID
		fmt.Fprintf(&b, "We could not charge %s to your card ending in %s after several tries, so your %s plan has ended.\n",
			amount(k.inv.Amount, k.inv.Currency), sub.CardLast4.String, sub.PlanID)
	case mailCanceled:
		subject, ref = "Your Selfmap subscription is cancelled", sub.ID
		if Status(sub.Status) == Canceled {
			fmt.Fprintf(&b, "Your %s plan is cancelled and will not be charged again.\n", sub.PlanID)
		} else {
			fmt.Fprintf(&b, "Your %s plan will not renew. You keep your access until %s; nothing more will be charged.\n",
				sub.PlanID, day(sub.CurrentPeriodEnd))
		}
	case mailReminder:
		subject, ref = "Your Selfmap plan renews soon", sub.ID+"@"+sub.CurrentPeriodEnd.UTC().Format(time.RFC3339)
		fmt.Fprintf(&b, "Your %s plan renews on %s at %s, charged to your card ending in %s.\n", sub.PlanID,
			day(sub.CurrentPeriodEnd), amount(sub.Price, sub.Currency), sub.CardLast4.String)
		b.WriteString("To stop it, cancel before that date in your user centre or on the unsubscribe page.\n")
	default:
		return "", "", "", fmt.Errorf("subscription: unknown mail kind %q", k.kind)
	}
	return subject, b.String(), ref, err
}

// remind queues the reminder of each renewal due within RemindBefore.
func (s *Service) remind(ctx context.Context, now time.Time) error {
	subs, err := s.Store.RenewingBetween(ctx, now, now.Add(s.remindBefore()), 200)
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
