// Package unsubscribe cancels subscriptions by e-mail: a mailbox with a
// live subscription asks for a one-time link, and following it cancels
// every live subscription of that address at its period's end (nothing is
// refunded). The link goes only to the mailbox; only its hash is stored.
//
// An address whose subscription already will not renew is told so, with
// the end of its access, instead of being mailed a link: the spec already
// answers "not found" for an address without one, so this tells a visitor
// nothing new about who subscribes, and anything that changes a
// subscription still needs the mailbox. A used or expired link may ask for
// one fresh link to the same mailbox.
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
	// FreshWithin is how long a fresh link asked from a spent one stands
	// for any further asking: within it, no second link is mailed.
	FreshWithin = 10 * time.Minute
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

// Ending is how the access of a subscription that will not renew ends.
type Ending struct {
	// Until is the end of the access: to come, or past when Ended.
	Until time.Time
	// Ended: the access is over.
	Ended bool
}

// Answer is what a request for a cancel link is told.
type Answer struct {
	// Mailed: a new link is on its way to the mailbox.
	Mailed bool
	// Recent: a fresh link went to the mailbox a few minutes ago (within
	// FreshWithin), so no other was mailed.
	Recent bool
	// Cancelled: nothing is left to cancel; Ending says how it ends.
	Cancelled bool
	Ending    Ending
}

// Send queues one e-mail in locale l to the address with a new cancel link,
// and records the link's hash, in one transaction. An address whose
// subscriptions all will not renew any more is answered Cancelled, and
// mailed nothing. A bad address is a 400 with the form's message id; then
// ErrUnknown, ErrTooMany, or Failed.
func (s *Service) Send(ctx context.Context, address string, l i18n.Locale, pair string) (Answer, error) {
	email, msg := validate.Email(address)
	if msg != "" {
		return Answer{}, apperr.BadRequest(msg, nil)
	}
	live, err := s.Store.LiveSubscriptionsFor(ctx, s.Store.DB, email)
	if err != nil {
		return Answer{}, Failed(err)
	}
	if len(live) == 0 {
		return s.nothingLeft(ctx, email)
	}
	if err := s.mail(ctx, email, l, pair, nil); err != nil {
		return Answer{}, err
	}
	return Answer{Mailed: true}, nil
}

// Resend mails one fresh link to the mailbox of a link already used or
// expired (whoever holds it read that mailbox). It mails nothing when the
// mailbox has nothing left to cancel (Cancelled), or when a link newer than
// this one went to it within FreshWithin (Recent). ErrLinkUnknown for a
// token no link has; ErrTooMany or Failed as Send.
func (s *Service) Resend(ctx context.Context, token string, l i18n.Locale, pair string) (Answer, error) {
	link, live, err := s.Check(ctx, token)
	if err != nil {
		sp, err := s.spent(ctx, link, err)
		if !errors.Is(err, ErrLinkUsed) && !errors.Is(err, ErrLinkExpired) {
			return Answer{}, err
		}
		if !sp.Fresh {
			return s.nothingLeft(ctx, link.Email)
		}
	} else if len(live) == 0 {
		return s.nothingLeft(ctx, link.Email)
	}
	since := s.Now().UTC().Add(-FreshWithin)
	if link.CreatedAt.After(since) {
		since = link.CreatedAt
	}
	recent := false
	err = s.mail(ctx, link.Email, l, pair, func(tx *sqlx.Tx) error {
		n, err := s.Store.CancelLinksSince(ctx, tx, link.Email, since, token)
		if n > 0 {
			recent, err = true, errRecent
		}
		return err
	})
	switch {
	case recent:
		return Answer{Recent: true}, nil
	case err != nil:
		return Answer{}, err
	}
	return Answer{Mailed: true}, nil
}

// nothingLeft answers an address without a live subscription: how its
// access ends, or ErrUnknown when it never had one that did.
func (s *Service) nothingLeft(ctx context.Context, email string) (Answer, error) {
	end, found, err := s.ending(ctx, email)
	switch {
	case err != nil:
		return Answer{}, Failed(err)
	case !found:
		return Answer{}, ErrUnknown
	}
	return Answer{Cancelled: true, Ending: end}, nil
}

// errRecent rolls back a fresh link that one sent minutes ago stands for.
var errRecent = errors.New("unsubscribe: a fresh link was sent minutes ago")

// mail writes a new link for email and queues the e-mail carrying it, in
// one transaction that first runs before (when given), which may refuse.
func (s *Service) mail(ctx context.Context, email string, l i18n.Locale, pair string, before func(tx *sqlx.Tx) error) error {
	token := ids.Token()
	c, err := s.Compose(l, pair, token)
	if err != nil {
		return Failed(err)
	}
	now := s.Now().UTC()
	err = s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		if before != nil {
			if err := before(tx); err != nil {
				return err
			}
		}
		m := store.Mail{ID: ids.New(), Kind: mail.KindCancelLink, To: email, Locale: l.Tag, Subject: c.Subject, Body: c.Text,
			HTMLBody: sql.NullString{String: c.HTML, Valid: c.HTML != ""}, Status: store.MailQueued, CreatedAt: now}
		if err := s.Store.QueueMailboxLimited(ctx, tx, m, now.Add(-time.Hour), s.perHour()); err != nil {
			return err
		}
		return s.Store.AddCancelLink(ctx, tx, email, token, now, now.Add(s.validFor()))
	})
	switch {
	case errors.Is(err, errRecent):
		return err
	case errors.Is(err, store.ErrMailboxLimit):
		return ErrTooMany
	case err != nil:
		return Failed(err)
	}
	return nil
}

// ending reads how the access of an address's subscriptions that will not
// renew ends: the latest end among those still giving access, else the
// latest among the ended. found is false when the address has none.
func (s *Service) ending(ctx context.Context, email string) (end Ending, found bool, err error) {
	subs, err := s.Store.EndingSubscriptionsFor(ctx, s.Store.DB, email)
	if err != nil || len(subs) == 0 {
		return Ending{}, false, err
	}
	now := s.Now()
	var last Ending
	for _, sub := range subs {
		until := sub.CurrentPeriodEnd
		if sub.Ended() && sub.EndedAt.Valid {
			until = sub.EndedAt.Time
		}
		if !sub.Ended() && until.After(now) {
			if end.Until.IsZero() || until.After(end.Until) {
				end.Until = until
			}
		} else if until.After(last.Until) {
			last = Ending{Until: until, Ended: true}
		}
	}
	if end.Until.IsZero() {
		end = last
	}
	return end, true, nil
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

// Spent is what the page of a used or expired link offers.
type Spent struct {
	// Fresh: the mailbox still has a subscription to cancel, so one fresh
	// link may be asked for (Resend).
	Fresh bool
	// Cancelled: nothing is left to cancel; Ending says how it ends.
	Cancelled bool
	Ending    Ending
}

// spent reads what a used or expired link's mailbox has left, for a
// refusal err of Check; any other error is returned as it is.
func (s *Service) spent(ctx context.Context, link store.CancelLink, err error) (Spent, error) {
	if !errors.Is(err, ErrLinkUsed) && !errors.Is(err, ErrLinkExpired) {
		return Spent{}, err
	}
	live, lerr := s.Store.LiveSubscriptionsFor(ctx, s.Store.DB, link.Email)
	if lerr != nil {
		return Spent{}, Failed(lerr)
	}
	if len(live) > 0 {
		return Spent{Fresh: true}, err
	}
	end, found, lerr := s.ending(ctx, link.Email)
	if lerr != nil {
		return Spent{}, Failed(lerr)
	}
	return Spent{Cancelled: found, Ending: end}, err
}

// Preview is what following a link would cancel.
type Preview struct {
	// None: the mailbox has nothing left to cancel; Ending says how its
	// access ends (zero when it never had a subscription).
	None   bool
	Ending Ending
	// AccessUntil is the latest end of access among its subscriptions
	// (the end of their periods; a past-due one would end at once); zero
	// when none keeps access.
	AccessUntil time.Time
	// Spent is what a used or expired link offers instead.
	Spent Spent
}

// Preview reads what a link would cancel, changing nothing; it refuses a
// link as Check does, with what a used or expired one offers instead.
func (s *Service) Preview(ctx context.Context, token string) (Preview, error) {
	link, live, err := s.Check(ctx, token)
	if err != nil {
		sp, err := s.spent(ctx, link, err)
		return Preview{Spent: sp}, err
	}
	p := Preview{None: len(live) == 0}
	if p.None {
		if p.Ending, _, err = s.ending(ctx, link.Email); err != nil {
			return Preview{}, Failed(err)
		}
	}
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
	// Spent is what a used or expired link offers instead.
	Spent Spent
}

// Confirm follows a link: every live subscription of its mailbox stops
// renewing and keeps its access until its period ends (a past-due one
// ends now), and the link is spent. A link used, expired or unknown
// changes nothing (a used or expired one answers what it offers instead).
// Two requests racing with one link cancel once: the cancel itself is
// idempotent and the link is spent once.
func (s *Service) Confirm(ctx context.Context, token string) (Outcome, error) {
	link, live, err := s.Check(ctx, token)
	if err != nil {
		sp, err := s.spent(ctx, link, err)
		return Outcome{Spent: sp}, err
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
