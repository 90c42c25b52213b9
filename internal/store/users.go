package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// ErrDuplicate is returned when a row with the same unique key exists.
var ErrDuplicate = errors.New("store: duplicate")

// User is an account. Email is lower-cased; Avatar is a PNG or JPEG that
// the account service re-encoded.
type User struct {
	ID              string     `db:"id"`
	Email           string     `db:"email"`
	Name            string     `db:"name"`
	PasswordHash    string     `db:"password_hash"`
	EmailVerifiedAt *time.Time `db:"email_verified_at"`
	SessionGen      int64      `db:"session_gen"`
	Nickname        string     `db:"nickname"`
	Phone           string     `db:"phone"`
	Birthday        string     `db:"birthday"`
	Sex             string     `db:"sex"`
	Introduction    string     `db:"introduction"`
	AvatarType      string     `db:"avatar_type"`
	Role            Role       `db:"role"`
	CreatedAt       time.Time  `db:"created_at"`
	UpdatedAt       time.Time  `db:"updated_at"`
}

// found is notFound for a lookup whose error may be nil.
func found(op string, err error) error {
	if err == nil {
		return nil
	}
	return notFound(op, err)
}

// Verified reports whether the user proved the e-mail address is theirs.
func (u User) Verified() bool { return u.EmailVerifiedAt != nil }

// Role is what an account may do beyond its own things.
type Role string

// The roles: every account is a member; the operator makes staff admins
// (SetUserRole, from the command line).
const (
	RoleMember Role = "member"
	RoleAdmin  Role = "admin"
)

// Admin reports whether the user may use the back office.
func (u User) Admin() bool { return u.Role == RoleAdmin }

const userColumns = `id, email, name, password_hash, email_verified_at, session_gen, nickname, phone, birthday, sex,
	introduction, avatar_type, role, created_at, updated_at`

// CreateUser stores a new account; ErrDuplicate when the e-mail is taken.
func (s *Store) CreateUser(ctx context.Context, db Querier, u User) error {
	u.Email = strings.ToLower(u.Email)
	res, err := db.NamedExecContext(ctx, `INSERT INTO users (id, email, name, password_hash, session_gen, created_at, updated_at)
		VALUES (:id, :email, :name, :password_hash, :session_gen, :created_at, :updated_at) ON CONFLICT (email) DO NOTHING`, u)
	if err != nil {
		return fmt.Errorf("store: create user: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return ErrDuplicate
	}
	return nil
}

// GetUser reads an account by id.
func (s *Store) GetUser(ctx context.Context, db Querier, id string) (User, error) {
	var u User
	err := db.GetContext(ctx, &u, db.Rebind(`SELECT `+userColumns+` FROM users WHERE id = ?`), id)
	return u, found("get user", err)
}

// GetUserByEmail reads an account by e-mail address, in any case.
func (s *Store) GetUserByEmail(ctx context.Context, db Querier, email string) (User, error) {
	var u User
	err := db.GetContext(ctx, &u, db.Rebind(`SELECT `+userColumns+` FROM users WHERE email = ?`), strings.ToLower(email))
	return u, found("get user by email", err)
}

// SessionGen reads the account's session generation (ErrNotFound once the
// account is gone).
func (s *Store) SessionGen(ctx context.Context, db Querier, id string) (int64, error) {
	var gen int64
	err := db.GetContext(ctx, &gen, db.Rebind(`SELECT session_gen FROM users WHERE id = ?`), id)
	return gen, found("session gen", err)
}

// EndSessions ends every session of the account by moving its session
// generation on (log-out does; a password change does it in SetPassword).
func (s *Store) EndSessions(ctx context.Context, db Querier, id string, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET session_gen = session_gen + 1, updated_at = ? WHERE id = ?`), now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: end sessions: %w", err)
	}
	return nil
}

// MarkUserVerified records that the account's e-mail was proved.
func (s *Store) MarkUserVerified(ctx context.Context, db Querier, id string, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET email_verified_at = ?, updated_at = ? WHERE id = ? AND email_verified_at IS NULL`),
		now.UTC(), now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: verify user: %w", err)
	}
	return nil
}

// SetPassword replaces the password hash and ends every session of the
// account by moving its generation on; it returns the new generation. Run it
// in a transaction: the generation it reads back must be the one its update
// wrote, not a later one.
func (s *Store) SetPassword(ctx context.Context, db Querier, id, hash string, now time.Time) (int64, error) {
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET password_hash = ?, session_gen = session_gen + 1, updated_at = ? WHERE id = ?`),
		hash, now.UTC(), id); err != nil {
		return 0, fmt.Errorf("store: set password: %w", err)
	}
	var gen int64
	err := db.GetContext(ctx, &gen, db.Rebind(`SELECT session_gen FROM users WHERE id = ?`), id)
	return gen, found("set password", err)
}

// Profile is what a user edits about themself.
type Profile struct {
	Nickname, Phone, Birthday, Sex, Introduction string
}

// Profile is the part of the account its user edits, as the profile form
// shows it.
func (u User) Profile() Profile {
	return Profile{Nickname: u.Nickname, Phone: u.Phone, Birthday: u.Birthday, Sex: u.Sex, Introduction: u.Introduction}
}

// UpdateProfile saves the profile fields.
func (s *Store) UpdateProfile(ctx context.Context, db Querier, id string, p Profile, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET nickname = ?, phone = ?, birthday = ?, sex = ?, introduction = ?, updated_at = ?
		WHERE id = ?`), p.Nickname, p.Phone, p.Birthday, p.Sex, p.Introduction, now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: update profile: %w", err)
	}
	return nil
}

// SetAvatar stores the account's picture and its media type.
func (s *Store) SetAvatar(ctx context.Context, db Querier, id string, image []byte, mediaType string, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET avatar = ?, avatar_type = ?, updated_at = ? WHERE id = ?`),
		image, mediaType, now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: set avatar: %w", err)
	}
	return nil
}

// Avatar reads the account's picture; ErrNotFound when it has none.
func (s *Store) Avatar(ctx context.Context, db Querier, id string) ([]byte, string, error) {
	var row struct {
		Avatar []byte `db:"avatar"`
		Type   string `db:"avatar_type"`
	}
	err := db.GetContext(ctx, &row, db.Rebind(`SELECT avatar, avatar_type FROM users WHERE id = ? AND avatar IS NOT NULL`), id)
	return row.Avatar, row.Type, found("get avatar", err)
}

// AddLoginFailure records a failed log-in for an address.
func (s *Store) AddLoginFailure(ctx context.Context, db Querier, email string, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO login_failures (email, created_at) VALUES (?, ?)`), strings.ToLower(email), now.UTC())
	if err != nil {
		return fmt.Errorf("store: add login failure: %w", err)
	}
	return nil
}

// LoginFailures counts an address's failed log-ins since a time.
func (s *Store) LoginFailures(ctx context.Context, db Querier, email string, since time.Time) (int, error) {
	var n int
	err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM login_failures WHERE email = ? AND created_at >= ?`), strings.ToLower(email), since.UTC())
	if err != nil {
		return 0, fmt.Errorf("store: count login failures: %w", err)
	}
	return n, nil
}

// ClearLoginFailures forgets an address's failed log-ins (after a success,
// and those older than before).
func (s *Store) ClearLoginFailures(ctx context.Context, db Querier, email string, before time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM login_failures WHERE email = ? OR created_at < ?`), strings.ToLower(email), before.UTC())
	if err != nil {
		return fmt.Errorf("store: clear login failures: %w", err)
	}
	return nil
}

// LatestEmailCode reads the newest unused, unexpired code of an address for
// a purpose.
func (s *Store) LatestEmailCode(ctx context.Context, db Querier, email, purpose string, now time.Time) (EmailCode, error) {
	var c EmailCode
	err := db.GetContext(ctx, &c, db.Rebind(`SELECT id, email, purpose, code_hash, attempts, expires_at, used_at FROM email_codes
		WHERE email = ? AND purpose = ? AND used_at IS NULL AND expires_at > ? ORDER BY expires_at DESC LIMIT 1`),
		strings.ToLower(email), purpose, now.UTC())
	return c, found("latest email code", err)
}

// CountEmailCodes counts the codes sent to an address for a purpose since a
// time, to limit how often one mailbox is written to.
func (s *Store) CountEmailCodes(ctx context.Context, db Querier, email, purpose string, since time.Time) (int, error) {
	var n int
	err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM email_codes WHERE email = ? AND purpose = ? AND expires_at > ?`),
		strings.ToLower(email), purpose, since.UTC())
	if err != nil {
		return 0, fmt.Errorf("store: count email codes: %w", err)
	}
	return n, nil
}

// CountCodeAttempt adds one try to a code, unless it is used or has had max
// tries; false when no try was left.
func (s *Store) CountCodeAttempt(ctx context.Context, db Querier, id string, max int) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE email_codes SET attempts = attempts + 1 WHERE id = ? AND used_at IS NULL AND attempts < ?`), id, max)
	if err != nil {
		return false, fmt.Errorf("store: count code attempt: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// UseEmailCode marks a code used in tx; false when it already was, so a code
// works once even when two requests race.
func (s *Store) UseEmailCode(ctx context.Context, db Querier, id string, now time.Time) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE email_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`), now.UTC(), id)
	if err != nil {
		return false, fmt.Errorf("store: use email code: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReplaceEmailCode stores a new code and retires the address's earlier codes
// for the purpose: only the newest code works. Run it in the transaction
// that queues the mail carrying the code.
func (s *Store) ReplaceEmailCode(ctx context.Context, db Querier, c EmailCode, now time.Time) error {
	c.Email = strings.ToLower(c.Email)
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE email_codes SET used_at = ? WHERE email = ? AND purpose = ? AND used_at IS NULL`),
		now.UTC(), c.Email, c.Purpose); err != nil {
		return fmt.Errorf("store: retire email codes: %w", err)
	}
	_, err := db.NamedExecContext(ctx, `INSERT INTO email_codes (id, email, purpose, code_hash, attempts, expires_at, used_at, created_at)
		VALUES (:id, :email, :purpose, :code_hash, :attempts, :expires_at, :used_at, CURRENT_TIMESTAMP)`, c)
	if err != nil {
		return fmt.Errorf("store: insert email code: %w", err)
	}
	return nil
}

// ClaimByEmail joins to the account the results and orders made without one
// under its (verified) e-mail address, and the orders of its results.
func (s *Store) ClaimByEmail(ctx context.Context, db Querier, userID, email string) error {
	email = strings.ToLower(email)
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE results SET user_id = ? WHERE user_id IS NULL AND LOWER(email) = ?`), userID, email); err != nil {
		return fmt.Errorf("store: claim results: %w", err)
	}
	return s.claimOrders(ctx, db, userID, email)
}

// ClaimResults joins to the account the results this browser made, when no
// account holds them yet, and their orders. Run it in a transaction: the
// orders follow the results they belong to.
func (s *Store) ClaimResults(ctx context.Context, db Querier, userID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	q, args, err := sqlx.In(`UPDATE results SET user_id = ? WHERE user_id IS NULL AND id IN (?)`, userID, ids)
	if err != nil {
		return fmt.Errorf("store: claim own results: %w", err)
	}
	if _, err := db.ExecContext(ctx, db.Rebind(q), args...); err != nil {
		return fmt.Errorf("store: claim own results: %w", err)
	}
	return s.claimOrders(ctx, db, userID, "")
}

func (s *Store) claimOrders(ctx context.Context, db Querier, userID, email string) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE orders SET user_id = ? WHERE user_id IS NULL
		AND (LOWER(email) = ? OR result_id IN (SELECT id FROM results WHERE user_id = ?))`), userID, email, userID)
	if err != nil {
		return fmt.Errorf("store: claim orders: %w", err)
	}
	return nil
}

// UserResults lists the account's results, newest first.
func (s *Store) UserResults(ctx context.Context, db Querier, userID string) ([]Result, error) {
	var rs []Result
	err := db.SelectContext(ctx, &rs, db.Rebind(`SELECT `+resultColumns+` FROM results WHERE user_id = ? ORDER BY created_at DESC`), userID)
	if err != nil {
		return nil, fmt.Errorf("store: user results: %w", err)
	}
	return rs, nil
}

// UserOrders lists the account's orders, newest first.
func (s *Store) UserOrders(ctx context.Context, db Querier, userID string) ([]Order, error) {
	var os []Order
	err := db.SelectContext(ctx, &os, db.Rebind(`SELECT `+orderColumns+` FROM orders WHERE user_id = ? ORDER BY created_at DESC`), userID)
	if err != nil {
		return nil, fmt.Errorf("store: user orders: %w", err)
	}
	return os, nil
}

// DeleteUser removes an account with its results, unpaid orders, codes and
// picture. Paid and refunded orders stay for the books, without the e-mail
// or the account, and so does the bare result row they point at, emptied
// of answers, scores and personal details. Run it in a transaction: an
// account is removed whole or not at all.
func (s *Store) DeleteUser(ctx context.Context, db Querier, id string) error {
	var email string
	if err := db.GetContext(ctx, &email, db.Rebind(`SELECT email FROM users WHERE id = ?`), id); err != nil {
		return notFound("delete user", err)
	}
	mine := `(user_id = ? OR result_id IN (SELECT id FROM results WHERE user_id = ?))`
	unpaid := `SELECT id FROM orders WHERE ` + mine + ` AND status NOT IN ('paid', 'refunded')`
	steps := []struct {
		what, sql string
		args      []any
	}{
		{"conversions", `DELETE FROM conversions WHERE order_id IN (` + unpaid + `)`, []any{id, id}},
		{"payment attempts", `DELETE FROM payment_attempts WHERE order_id IN (` + unpaid + `)`, []any{id, id}},
		{"unpaid orders", `DELETE FROM orders WHERE id IN (` + unpaid + `)`, []any{id, id}},
		{"paid orders", `UPDATE orders SET email = NULL, user_id = NULL WHERE ` + mine, []any{id, id}},
		{"report links", `DELETE FROM report_links WHERE result_id IN (SELECT id FROM results WHERE user_id = ?)`, []any{id}},
		{"report pdfs", `DELETE FROM report_pdfs WHERE result_id IN (SELECT id FROM results WHERE user_id = ?)`, []any{id}},
		{"ratings", `DELETE FROM ratings WHERE result_id IN (SELECT id FROM results WHERE user_id = ?)`, []any{id}},
		{"results kept for the books", `UPDATE results SET answers = '[]', scores = '{}', email = NULL, first_name = NULL, last_name = NULL,
			birth_year = NULL, gender = NULL, country = NULL, user_id = NULL
			WHERE user_id = ? AND id IN (SELECT result_id FROM orders)`, []any{id}},
		{"results", `DELETE FROM results WHERE user_id = ?`, []any{id}},
		{"codes", `DELETE FROM email_codes WHERE email = ?`, []any{email}},
		{"login failures", `DELETE FROM login_failures WHERE email = ?`, []any{email}},
		{"user", `DELETE FROM users WHERE id = ?`, []any{id}},
	}
	for _, st := range steps {
		if _, err := db.ExecContext(ctx, db.Rebind(st.sql), st.args...); err != nil {
			return fmt.Errorf("store: delete user: %s: %w", st.what, err)
		}
	}
	return nil
}

// ResultOwner is the account a result has joined ("" for none).
func (s *Store) ResultOwner(ctx context.Context, db Querier, resultID string) (string, error) {
	var owner sql.NullString
	err := db.GetContext(ctx, &owner, db.Rebind(`SELECT user_id FROM results WHERE id = ?`), resultID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("store: result owner: %w", err)
	}
	return owner.String, nil
}

// SetUserRole gives the account with this e-mail a role; ErrNotFound when
// there is none.
func (s *Store) SetUserRole(ctx context.Context, db Querier, email string, role Role, now time.Time) error {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET role = ?, updated_at = ? WHERE email = ?`),
		string(role), now.UTC(), strings.ToLower(email))
	if err != nil {
		return fmt.Errorf("store: set user role: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
