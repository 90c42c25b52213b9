// Package unsubscribe cancels subscriptions by e-mail: a mailbox with a
// live subscription asks for a one-time link, and following it cancels
// every live subscription of that address at its period's end (nothing is
// refunded). The link goes only to the mailbox; only its hash is stored.
package unsubscribe

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
	"selfmap/internal/subscription"
	"selfmap/internal/validate"
)

// Defaults of the Service's settings.
const (
	// DefaultPerHour is how many cancel links one mailbox receives in an
	// hour at most.
	DefaultPerHour = 3
	// DefaultValidFor is how long a link may be followed.
	DefaultValidFor = 24 * time.Hour
)

// Service mails cancel links and follows them.
type Service struct {
	Store         *store.Store
	Subscriptions *subscription.Service
	Now           func() time.Time
	// Compose writes the e-mail carrying the link's token in locale l;
	// pair is the {code}-{examId} of the page the link was asked on.
	Compose func(l i18n.Locale, pair, token string) (mail.Content, error)
	// PerHour bounds the cancel links per mailbox and hour.
	PerHour int
	// ValidFor is how long a link works.
	ValidFor time.Duration
}

// The outcomes a visitor is told besides success.
var (
	// ErrUnknown is an address without a live subscription.
	ErrUnknown = &apperr.Error{Status: http.StatusNotFound, ID: "cancel.unknown"}
	// ErrTooMany is a mailbox that had PerHour links this hour.
	ErrTooMany = &apperr.Error{Status: http.StatusTooManyRequests, ID: "cancel.too_many"}
	// ErrLinkUnknown is a token that no link has.
	ErrLinkUnknown = &apperr.Error{Status: http.StatusNotFound, ID: "cancel.link_unknown"}
	// ErrLinkUsed is a link followed before.
	ErrLinkUsed = &apperr.Error{Status: http.StatusGone, ID: "cancel.link_used"}
	// ErrLinkExpired is a link past its validity.
	ErrLinkExpired = &apperr.Error{Status: http.StatusGone, ID: "cancel.link_expired"}
)

// Failed wraps the cause of a link that could not be mailed or followed.
func Failed(cause error) error {
	return &apperr.Error{Status: http.StatusServiceUnavailable, ID: "cancel.failed", Cause: cause}
}

// Send queues one e-mail in locale l to the address with a new cancel link,
// and records the link's hash, in one transaction. A bad address is a 400
// with the form's message id; then ErrUnknown, ErrTooMany, or Failed.
func (s *Service) Send(ctx context.Context, address string, l i18n.Locale, pair string) error {
	email, msg := validate.Email(address)
	if msg != "" {
		return apperr.BadRequest(msg, nil)
	}
	live, err := s.Store.LiveSubscriptionsFor(ctx, s.Store.DB, email)
	if err != nil {
		return Failed(err)
	}
	if len(live) == 0 {
		return ErrUnknown
	}
	token := ids.Token()
	c, err := s.Compose(l, pair, token)
	if err != nil {
		return Failed(err)
	}
	now := s.Now().UTC()
	err = s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		m := store.Mail{ID: ids.New(), Kind: mail.KindCancelLink, To: email, Locale: l.Tag, Subject: c.Subject, Body: c.Text,
			HTMLBody: sql.NullString{String: c.HTML, Valid: c.HTML != ""}, Status: store.MailQueued, CreatedAt: now}
		if err := s.Store.QueueMailboxLimited(ctx, tx, m, now.Add(-time.Hour), s.perHour()); err != nil {
			return err
		}
		return s.Store.AddCancelLink(ctx, tx, email, token, now, now.Add(s.validFor()))
	})
	switch {
	case errors.Is(err, store.ErrMailboxLimit):
		return ErrTooMany
	case err != nil:
		return Failed(err)
	}
	return nil
}

func (s *Service) perHour() int {
	if s.PerHour > 0 {
		return s.PerHour
	}
	return DefaultPerHour
}

func (s *Service) validFor() time.Duration {
	if s.ValidFor > 0 {
		return s.ValidFor
	}
	return DefaultValidFor
}

// Check reads the link of a token and the subscriptions it would cancel:
// ErrLinkUnknown, ErrLinkUsed or ErrLinkExpired when it cannot be followed.
func (s *Service) Check(ctx context.Context, token string) (store.CancelLink, []store.Subscription, error) {
	if token == "" || len(token) > 100 {
		return store.CancelLink{}, nil, ErrLinkUnknown
	}
	link, err := s.Store.GetCancelLink(ctx, s.Store.DB, token)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return link, nil, ErrLinkUnknown
	case err != nil:
		return link, nil, Failed(err)
	case link.UsedAt.Valid:
		return link, nil, ErrLinkUsed
	case !s.Now().Before(link.ExpiresAt):
		return link, nil, ErrLinkExpired
	}
	live, err := s.Store.LiveSubscriptionsFor(ctx, s.Store.DB, link.Email)
	if err != nil {
		return link, nil, Failed(err)
	}
	return link, live, nil
}

// Preview is what following a link would cancel.
type Preview struct {
	// None: the mailbox has nothing left to cancel.
	None bool
	// AccessUntil is the latest end of access among its subscriptions
	// (the end of their periods; a past-due one would end at once); zero
	// when none keeps access.
	AccessUntil time.Time
}

// Preview reads what a link would cancel, changing nothing; it refuses a
// link as Check does.
func (s *Service) Preview(ctx context.Context, token string) (Preview, error) {
	_, live, err := s.Check(ctx, token)
	if err != nil {
		return Preview{}, err
	}
	p := Preview{None: len(live) == 0}
	for _, sub := range live {
		if !sub.PastDue() && sub.CurrentPeriodEnd.After(p.AccessUntil) {
			p.AccessUntil = sub.CurrentPeriodEnd
		}
	}
	return p, nil
}

// Outcome is what following a link did.
type Outcome struct {
	// Canceled are the subscriptions as they are after the cancel.
	Canceled []store.Subscription
	// AccessUntil is the latest end of access among them; zero when each
	// ended at once (past due).
	AccessUntil time.Time
}

// Confirm follows a link: every live subscription of its mailbox stops
// renewing and keeps its access until its period ends (a past-due one
// ends now), and the link is spent. A link used, expired or unknown
// changes nothing. Two requests racing with one link cancel once: the
// cancel itself is idempotent and the link is spent once.
func (s *Service) Confirm(ctx context.Context, token string) (Outcome, error) {
	_, live, err := s.Check(ctx, token)
	if err != nil {
		return Outcome{}, err
	}
	var out Outcome
	for _, sub := range live {
		done, err := s.Subscriptions.Cancel(ctx, sub.CustomerID, sub.ID)
		if err != nil {
			return Outcome{}, Failed(err)
		}
		out.Canceled = append(out.Canceled, done)
		if done.CancelAtPeriodEnd && done.Live() && done.CurrentPeriodEnd.After(out.AccessUntil) {
			out.AccessUntil = done.CurrentPeriodEnd
		}
	}
	if _, err := s.Store.UseCancelLink(ctx, s.Store.DB, token, s.Now()); err != nil {
		return Outcome{}, Failed(err)
	}
	return out, nil
}
