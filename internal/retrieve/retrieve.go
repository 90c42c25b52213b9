// Package retrieve hands out and checks report links. It sends a mailbox
// new links to every report paid for with its address (the links go only to
// the mailbox: nothing here returns one), decides whether a link still
// opens its report (for LinkLifetime, until its owner withdraws it), and
// withdraws a report's links for its owner.
package retrieve

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/apperr"
	"selfmap/internal/i18n"
	"selfmap/internal/ids"
	"selfmap/internal/mail"
	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// DefaultPerHour is how many retrieval e-mails one mailbox receives in an
// hour at most: enough for a lost message, too few to flood an inbox.
const DefaultPerHour = 3

// Report is a paid report and the token of its new link.
type Report struct {
	store.PaidReport
	Token string
}

// Service sends retrieval e-mails.
type Service struct {
	Store *store.Store
	Now   func() time.Time
	// Compose writes the retrieval e-mail in a locale.
	Compose func(l i18n.Locale, reports []Report) (mail.Content, error)
	// PerHour bounds the retrieval e-mails per mailbox and hour.
	PerHour int
}

// The outcomes a visitor is told besides "sent".
var (
	// ErrNone is a mailbox without a paid report.
	ErrNone = &apperr.Error{Status: http.StatusNotFound, ID: "retrieve.none"}
	// ErrTooMany is a mailbox that had PerHour retrieval e-mails this hour.
	ErrTooMany = &apperr.Error{Status: http.StatusTooManyRequests, ID: "retrieve.too_many"}
)

// Failed wraps the cause of a retrieval e-mail that could not be queued.
func Failed(cause error) error {
	return &apperr.Error{Status: http.StatusServiceUnavailable, ID: "retrieve.failed", Cause: cause}
}

// Send queues one e-mail in locale l to the address listing a new link to
// each of its paid reports, and records the links, in one transaction. A bad
// address is a 400 with the form's message id; then ErrNone, ErrTooMany,
// or Failed.
func (s *Service) Send(ctx context.Context, address string, l i18n.Locale) error {
	email, msg := validate.Email(address)
	if msg != "" {
		return apperr.BadRequest(msg, nil)
	}
	paid, err := s.Store.PaidReportsFor(ctx, s.Store.DB, email)
	if err != nil {
		return Failed(err)
	}
	if len(paid) == 0 {
		return ErrNone
	}
	reports := make([]Report, len(paid))
	for i, p := range paid {
		reports[i] = Report{PaidReport: p, Token: ids.Token()}
	}
	c, err := s.Compose(l, reports)
	if err != nil {
		return Failed(err)
	}
	now := s.Now().UTC()
	perHour := s.PerHour
	if perHour <= 0 {
		perHour = DefaultPerHour
	}
	err = s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		m := store.Mail{ID: ids.New(), Kind: mail.KindRetrieval, To: email, Locale: l.Tag, Subject: c.Subject, Body: c.Text,
			HTMLBody: sql.NullString{String: c.HTML, Valid: c.HTML != ""}, Status: store.MailQueued, CreatedAt: now}
		if err := s.Store.QueueMailboxLimited(ctx, tx, m, now.Add(-time.Hour), perHour); err != nil {
			return err
		}
		for _, r := range reports {
			if err := s.Store.AddReportLink(ctx, tx, r.ResultID, r.Token, now); err != nil {
				return err
			}
		}
		return nil
	})
	switch {
	case errors.Is(err, store.ErrMailboxLimit):
		return ErrTooMany
	case err != nil:
		return Failed(err)
	}
	return nil
}
