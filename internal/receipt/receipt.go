// Package receipt keeps a member's billing: their plan as it stands (the
// overview of the billing page) and a receipt for each charge that
// succeeded (paid subscription invoices and paid report or pack orders),
// as a model built from the stored rows and as a PDF printed from the
// receipt's own HTML. It knows no HTTP; the HTML is drawn by a function
// the wiring gives it (Document), since a domain package does not import
// the views.
package receipt

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/pdf"
	"selfmap/internal/store"
)

// Merchant is the name every receipt is issued under.
const Merchant = "Selfmap"

// Kinds of receipt: what was bought.
const (
	KindSubscription = "subscription"
	KindReport       = store.OrderReport
	KindPack         = store.OrderPack
)

// Receipt is one successful charge of a member.
type Receipt struct {
	// ID names the receipt in its URL: "s" and the invoice id for a
	// subscription's charge, "o" and the order id for an order.
	ID string
	// Number is the receipt number printed on it: the order number, or
	// the invoice's own for a subscription's charge.
	Number string
	Kind   string
	// Item is what was bought: a plan id with InvoiceKind (trial, pay_now,
	// renewal, upgrade) for a subscription, else the SKU id.
	Item, InvoiceKind string
	// PeriodStart and PeriodEnd are the period a subscription's charge
	// paid for; zero for an order.
	PeriodStart, PeriodEnd time.Time
	Date                   time.Time
	// Amount is in hundredths of Currency.
	Amount   int64
	Currency string
	// CardBrand and CardLast4 are the card charged, "" when not known.
	CardBrand, CardLast4 string
}

// Overview is what the billing page shows: the member's current
// subscription (nil without one) and their receipts, newest first.
type Overview struct {
	Subscription *store.Subscription
	// NextCharge is when and how much the subscription charges next;
	// zero when nothing renews.
	NextCharge       time.Time
	NextAmount       int64
	Receipts         []Receipt
	CanReplaceCard   bool
	ProviderHasSetup bool
}

// ErrNoPrinter answers a PDF asked for where no Chromium is installed.
var ErrNoPrinter = &apperr.Error{Status: 503, ID: "billing.receipt.pdf_unavailable", Cause: pdf.ErrNoBrowser}

// ErrNotFound answers a receipt that is not the member's (or none).
var ErrNotFound = apperr.ErrNotFound

// Service reads a member's billing from the store.
type Service struct {
	Store *store.Store
	Now   func() time.Time
	// Printer prints the PDFs; nil when no Chromium was found.
	Printer *pdf.Printer
	// Document draws a receipt as one self-contained HTML document in a
	// locale (app wires views.ReceiptDocument).
	Document func(ctx context.Context, r Receipt, tag string) ([]byte, error)
}

// Overview reads a member's billing page: their current subscription, when
// it charges next, and every receipt.
func (s *Service) Overview(ctx context.Context, userID string) (Overview, error) {
	var o Overview
	subs, err := s.Store.CustomerSubscriptions(ctx, s.Store.DB, userID)
	if err != nil {
		return o, err
	}
	if sub, ok := current(subs); ok {
		o.Subscription = &sub
		o.NextCharge, o.NextAmount = s.nextCharge(ctx, sub)
	}
	o.Receipts, err = s.List(ctx, userID)
	return o, err
}

// current is the subscription the page is about: the newest that has
// started and not ended, else the newest that ended after it started;
// one that never started (incomplete, or expired unpaid) is not shown.
func current(subs []store.Subscription) (store.Subscription, bool) {
	for _, sub := range subs {
		switch sub.Status {
		case store.SubscriptionTrialing, store.SubscriptionActive, store.SubscriptionPastDue:
			return sub, true
		}
	}
	for _, sub := range subs {
		if sub.Ended() && sub.CanceledAt.Valid {
			return sub, true
		}
	}
	return store.Subscription{}, false
}

// nextCharge is when a subscription charges next and how much: the end of
// its period at its price while it renews, or the next retry of a past-due
// renewal.
func (s *Service) nextCharge(ctx context.Context, sub store.Subscription) (time.Time, int64) {
	switch {
	case sub.Status == store.SubscriptionPastDue:
		inv, err := s.Store.OpenInvoice(ctx, s.Store.DB, sub.ID)
		if err != nil {
			return time.Time{}, 0
		}
		return inv.NextAttemptAt, inv.Amount
	case (sub.Status == store.SubscriptionTrialing || sub.Status == store.SubscriptionActive) && !sub.CancelAtPeriodEnd:
		return sub.CurrentPeriodEnd, sub.Price
	}
	return time.Time{}, 0
}

// List builds a member's receipts from their paid invoices and paid
// orders, newest first.
func (s *Service) List(ctx context.Context, userID string) ([]Receipt, error) {
	invoices, err := s.Store.PaidInvoices(ctx, s.Store.DB, userID)
	if err != nil {
		return nil, err
	}
	changes, err := s.Store.CardChangesOf(ctx, s.Store.DB, userID)
	if err != nil {
		return nil, err
	}
	orders, err := s.Store.PaidOrders(ctx, s.Store.DB, userID)
	if err != nil {
		return nil, err
	}
	out := make([]Receipt, 0, len(invoices)+len(orders))
	// A charge of nothing (a trial or an order a promo code paid in full)
	// took no money: it has no receipt.
	for _, inv := range invoices {
		if inv.Amount > 0 {
			out = append(out, fromInvoice(inv, changes))
		}
	}
	for _, o := range orders {
		if o.Total > 0 {
			out = append(out, fromOrder(o))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Date.After(out[j].Date) })
	return out, nil
}

// Get reads one of the member's receipts; another member's, or one that is
// not a receipt, answers ErrNotFound.
func (s *Service) Get(ctx context.Context, userID, id string) (Receipt, error) {
	if len(id) < 2 || len(id) > 64 {
		return Receipt{}, ErrNotFound
	}
	all, err := s.List(ctx, userID)
	if err != nil {
		return Receipt{}, err
	}
	for _, r := range all {
		if r.ID == id {
			return r, nil
		}
	}
	return Receipt{}, ErrNotFound
}

// PDF prints one of the member's receipts in a locale from its own HTML.
func (s *Service) PDF(ctx context.Context, userID, id, tag string) (Receipt, []byte, error) {
	r, err := s.Get(ctx, userID, id)
	if err != nil {
		return Receipt{}, nil, err
	}
	if s.Printer == nil || s.Document == nil {
		return Receipt{}, nil, ErrNoPrinter
	}
	html, err := s.Document(ctx, r, tag)
	if err != nil {
		return Receipt{}, nil, err
	}
	out, _, err := s.Printer.Print(ctx, html)
	if errors.Is(err, pdf.ErrNoBrowser) {
		return Receipt{}, nil, ErrNoPrinter
	}
	if err != nil {
		return Receipt{}, nil, fmt.Errorf("receipt: print %s: %w", id, err)
	}
	return r, out, nil
}

// fromInvoice is the receipt of a paid invoice, with the card it was
// charged to: the card a later change replaced, else the one on file.
func fromInvoice(inv store.PaidInvoice, changes []store.CardChange) Receipt {
	paid := inv.UpdatedAt
	if inv.PaidAt.Valid {
		paid = inv.PaidAt.Time
	}
	brand, last4 := inv.CardBrand.String, inv.CardLast4.String
	for _, c := range changes {
		if c.SubscriptionID == inv.SubscriptionID && c.ChangedAt.After(paid) {
			brand, last4 = c.OldBrand.String, c.OldLast4.String
			break
		}
	}
	return Receipt{ID: "s" + inv.ID, Number: "S-" + strings.ToUpper(inv.ID[:min(len(inv.ID), 12)]), Kind: KindSubscription,
		Item: inv.PlanID, InvoiceKind: inv.Kind, PeriodStart: inv.PeriodStart, PeriodEnd: inv.PeriodEnd, Date: paid,
		Amount: inv.Amount, Currency: inv.Currency, CardBrand: brand, CardLast4: last4}
}

// fromOrder is the receipt of a paid order.
func fromOrder(o store.PaidOrder) Receipt {
	paid := o.UpdatedAt
	if o.PaidAt.Valid {
		paid = o.PaidAt.Time
	}
	return Receipt{ID: "o" + o.ID, Number: o.OrderNumber, Kind: o.Kind, Item: o.SKUID.String, Date: paid, Amount: o.Total,
		Currency: o.Currency.String, CardBrand: o.CardBrand.String, CardLast4: o.CardLast4.String}
}
