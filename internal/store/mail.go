package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Mail is a message in the outbox.
type Mail struct {
	ID      string `db:"id"`
	Kind    string `db:"kind"`
	To      string `db:"to_address"`
	Locale  string `db:"locale"`
	Subject string `db:"subject"`
	// Body is the plain text; HTMLBody the HTML alternative.
	Body     string         `db:"body"`
	HTMLBody sql.NullString `db:"html_body"`
	// Ref names what the message is about: a second message of the same
	// kind and ref is dropped.
	Ref       string       `db:"ref"`
	Status    MailStatus   `db:"status"`
	CreatedAt time.Time    `db:"created_at"`
	SentAt    sql.NullTime `db:"sent_at"`
	// Attempts counts failed deliveries; NextAttemptAt is when the next
	// may run (none: at once); LastError is the latest failure.
	Attempts      int            `db:"attempts"`
	NextAttemptAt sql.NullTime   `db:"next_attempt_at"`
	LastError     sql.NullString `db:"last_error"`
}

// MailStatus is where a message is on its way out.
type MailStatus string

// Mail states: queued until sent, or failed when delivery gave up.
const (
	MailQueued MailStatus = "queued"
	MailSent   MailStatus = "sent"
	MailFailed MailStatus = "failed"
)

const mailColumns = `id, kind, to_address, locale, subject, body, html_body, ref, status, created_at, sent_at, attempts, next_attempt_at, last_error`

// QueueMail puts a message in the outbox in tx; a second message of the same
// kind about the same thing (ref) is dropped, so a receipt goes out once.
func (s *Store) QueueMail(ctx context.Context, db Querier, m Mail) error {
	_, err := s.insertMail(ctx, db, m)
	return err
}

func (s *Store) insertMail(ctx context.Context, db Querier, m Mail) (bool, error) {
	if m.Status == "" {
		m.Status = MailQueued
	}
	m.CreatedAt = m.CreatedAt.UTC()
	res, err := db.NamedExecContext(ctx, `INSERT INTO mail_outbox (id, kind, to_address, locale, subject, body, html_body, ref, status, created_at)
		VALUES (:id, :kind, :to_address, :locale, :subject, :body, :html_body, :ref, :status, :created_at) ON CONFLICT (kind, ref) DO NOTHING`, m)
	if err != nil {
		return false, fmt.Errorf("store: queue mail: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ErrMailboxLimit is a mailbox that already had its share of a kind of mail.
var ErrMailboxLimit = errors.New("store: mailbox limit reached")

// QueueMailboxLimited queues m in tx unless m.To already had max messages of
// m.Kind since since (ErrMailboxLimit). Its ref becomes the mailbox and a
// sequence number, so two concurrent calls for one mailbox that both
// counted too few collide on (kind, ref) and only one is queued.
func (s *Store) QueueMailboxLimited(ctx context.Context, db Querier, m Mail, since time.Time, max int) error {
	var recent, total int
	if s.Dialect == Postgres {
		// Read committed lets two requests count the same mails: one
		// mailbox's requests take turns. (SQLite has one writer already.)
		if _, err := db.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "mailbox:"+strings.ToLower(m.To)); err != nil {
			return fmt.Errorf("store: lock mailbox: %w", err)
		}
	}
	if err := db.GetContext(ctx, &recent, db.Rebind(`SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND LOWER(to_address) = ? AND created_at >= ?`),
		m.Kind, strings.ToLower(m.To), since.UTC()); err != nil {
		return fmt.Errorf("store: count mailbox mail: %w", err)
	}
	if recent >= max {
		return ErrMailboxLimit
	}
	if err := db.GetContext(ctx, &total, db.Rebind(`SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND LOWER(to_address) = ?`),
		m.Kind, strings.ToLower(m.To)); err != nil {
		return fmt.Errorf("store: count mailbox mail: %w", err)
	}
	m.Ref = "mailbox:" + HashToken(strings.ToLower(m.To))[:32] + "#" + strconv.Itoa(total+1)
	queued, err := s.insertMail(ctx, db, m)
	if err == nil && !queued {
		err = ErrMailboxLimit
	}
	return err
}

// ListMail returns the newest messages of the outbox.
func (s *Store) ListMail(ctx context.Context, db Querier, limit int) ([]Mail, error) {
	var out []Mail
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+mailColumns+` FROM mail_outbox ORDER BY created_at DESC, id LIMIT ?`), limit)
	if err != nil {
		return nil, fmt.Errorf("store: list mail: %w", err)
	}
	return out, nil
}

// QueuedMail lists the messages due for delivery at now (queued, and past
// their next attempt time), oldest first.
func (s *Store) QueuedMail(ctx context.Context, db Querier, now time.Time, limit int) ([]Mail, error) {
	var out []Mail
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+mailColumns+` FROM mail_outbox
		WHERE status = ? AND (next_attempt_at IS NULL OR next_attempt_at <= ?) ORDER BY created_at, id LIMIT ?`), MailQueued, now.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: queued mail: %w", err)
	}
	return out, nil
}

// MarkMailSent records that a message left, once: of two senders racing,
// one marks it.
//
// The bodies are dropped once sent: they may hold a report link, which the
// database must not keep in the clear.
func (s *Store) MarkMailSent(ctx context.Context, db Querier, id string, now time.Time) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE mail_outbox SET status = ?, sent_at = ?, next_attempt_at = NULL,
		body = '', html_body = NULL WHERE id = ? AND status = ?`), MailSent, now.UTC(), id, MailQueued)
	if err != nil {
		return false, fmt.Errorf("store: mark mail sent: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ClaimMail takes a due message for one sender for the lease: of two
// overlapping sends, one gets it and the other skips it, so a message
// goes out once. A sender that dies holding it leaves it due again when
// the lease ends.
func (s *Store) ClaimMail(ctx context.Context, db Querier, id string, now time.Time, lease time.Duration) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE mail_outbox SET next_attempt_at = ? WHERE id = ? AND status = ?
		AND (next_attempt_at IS NULL OR next_attempt_at <= ?)`), now.Add(lease).UTC(), id, MailQueued, now.UTC())
	if err != nil {
		return false, fmt.Errorf("store: claim mail: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// MarkMailFailed records a failed delivery of a queued message that had
// attempts failures before: one more failure, its cause, and either the
// time of the next try or, with giveUp, the failed state. A sender that
// lost a race to another changes nothing.
func (s *Store) MarkMailFailed(ctx context.Context, db Querier, id string, attempts int, cause string, next time.Time, giveUp bool) error {
	status, nextAt := MailQueued, sql.NullTime{Time: next.UTC(), Valid: true}
	if giveUp {
		status, nextAt = MailFailed, sql.NullTime{}
	}
	if len(cause) > 500 {
		cause = cause[:500]
	}
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE mail_outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?, status = ?
		WHERE id = ? AND status = ? AND attempts = ?`), cause, nextAt, status, id, MailQueued, attempts); err != nil {
		return fmt.Errorf("store: mark mail failed: %w", err)
	}
	return nil
}

// PaidReport is a result whose report order is paid.
type PaidReport struct {
	ResultID    string    `db:"result_id"`
	ExamID      int       `db:"exam_id"`
	ResultCode  string    `db:"result_code"`
	OrderNumber string    `db:"order_number"`
	PaidAt      time.Time `db:"paid_at"`
}

// PaidReportsFor lists the results with a paid report order whose order or
// result carries the e-mail address (compared without case), oldest
// first, one per result. Pack orders do not count.
func (s *Store) PaidReportsFor(ctx context.Context, db Querier, email string) ([]PaidReport, error) {
	var rows []PaidReport
	email = strings.ToLower(strings.TrimSpace(email))
	err := db.SelectContext(ctx, &rows, db.Rebind(`SELECT r.id AS result_id, r.exam_id, r.result_code, o.order_number, o.updated_at AS paid_at
		FROM orders o JOIN results r ON r.id = o.result_id
		WHERE o.kind = ? AND o.status = 'paid' AND (LOWER(o.email) = ? OR LOWER(r.email) = ?)
		ORDER BY o.updated_at, o.id`), OrderReport, email, email)
	if err != nil {
		return nil, fmt.Errorf("store: paid reports: %w", err)
	}
	out := rows[:0]
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.ResultID] {
			seen[r.ResultID] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// GetMail reads one message of the outbox.
func (s *Store) GetMail(ctx context.Context, db Querier, id string) (Mail, error) {
	var m Mail
	if err := db.GetContext(ctx, &m, db.Rebind(`SELECT `+mailColumns+` FROM mail_outbox WHERE id = ?`), id); err != nil {
		return Mail{}, notFound("get mail", err)
	}
	return m, nil
}
