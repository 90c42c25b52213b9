// Package account keeps the accounts: registration with a mailed code,
// log-in with a limit per address, password change and reset, the profile
// and its picture, and the export and deletion of a person's data. It knows
// nothing of HTTP: it says whether a session still signs its user in (the
// session generation it moves on, the idle limit), and the handlers keep the
// session in a cookie. Every refused form is a validate.FieldErrors.
package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/apperr"
	"selfmap/internal/ids"
	"selfmap/internal/mail"
	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// Limits of DESIGN.md's security baseline and of the forms.
const (
	CodeTTL          = 10 * time.Minute
	CodeTries        = 5
	codesPerHour     = 5
	LoginFailures    = 5
	LoginWindow      = 15 * time.Minute
	MinPassword      = 8
	MaxPassword      = 128
	MaxName          = 50
	PurposeVerify    = "verify"
	PurposeReset     = "reset"
	msgLoginFailed   = "account.error.login_failed"
	msgCodeInvalid   = "account.error.code_invalid"
	msgCodeRefused   = "account.error.code_refused"
	msgPasswordWrong = "account.error.password_wrong"
)

// PurposeNotice is the e-mail, with no code, that tells an address's owner
// someone tried to register with it; a mailbox gets at most noticesPerHour
// of them an hour.
const (
	PurposeNotice  = "notice"
	noticesPerHour = 1
)

// CodeMail composes an account's e-mail in a locale: the one that carries a
// code for a purpose, or for PurposeNotice the notice, with no code.
type CodeMail func(locale, purpose, code string) (mail.Content, error)

// Service is the account service.
type Service struct {
	Store   *store.Store
	Now     func() time.Time
	Compose CodeMail
}

// ErrTooManyCodes is returned when a mailbox was sent codes too often.
var ErrTooManyCodes = &apperr.Error{Status: 429, ID: "account.error.too_many_codes"}

// ErrLocked is returned while an address has failed to log in too often.
var ErrLocked = &apperr.Error{Status: 429, ID: "account.error.login_locked"}

// RegisterInput is what the registration form sends.
type RegisterInput struct {
	Name, Email, Password, Confirm string
	Agreed                         bool
	Locale                         string
}

// checkNewPassword checks a new password and its repetition.
func checkNewPassword(errs validate.FieldErrors, field, password, confirm string) {
	switch n := utf8.RuneCountInString(password); {
	case n == 0:
		errs.Add(field, "form.required")
	case n < MinPassword:
		errs.Add(field, "account.error.password_short")
	case n > MaxPassword:
		errs.Add(field, "account.error.password_long")
	case password != confirm:
		errs.Add("confirm", "account.error.password_mismatch")
	}
}

// normalEmail checks an address and lower-cases all of it: accounts are
// found by address in any case.
func normalEmail(s string) (string, string) {
	e, msg := validate.Email(s)
	return strings.ToLower(e), msg
}

// Register creates an unverified account and mails it a code. It signs
// nobody in: the answer is the address typed (normalised), whose code
// VerifyAddress takes, and only that code signs in. When the address has
// an account already, the answer is the same, so that the form tells
// nobody whose address has one and lets nobody try passwords: no account
// is made, the owner is mailed a notice instead of a code, and a password
// that is not theirs counts as a failed log-in of the address. An address
// locked by failed log-ins is refused here as at log-in, whether or not it
// has an account.
func (s *Service) Register(ctx context.Context, in RegisterInput) (string, validate.FieldErrors, error) {
	errs := validate.FieldErrors{}
	var msg string
	in.Name, msg = validate.Name(in.Name, MaxName)
	errs.Add("name", msg)
	in.Email, msg = normalEmail(in.Email)
	errs.Add("email", msg)
	checkNewPassword(errs, "password", in.Password, in.Confirm)
	if !in.Agreed {
		errs.Add("agree", "account.error.agree")
	}
	if errs.Any() {
		return "", errs, nil
	}
	now := s.Now().UTC()
	if err := s.checkLocked(ctx, in.Email, now); err != nil {
		return "", nil, err
	}
	owner, err := s.Store.GetUserByEmail(ctx, s.Store.DB, in.Email)
	if err == nil {
		return in.Email, nil, s.registerTaken(ctx, owner, in, now)
	}
	if !errors.Is(err, store.ErrNotFound) {
		return "", nil, err
	}
	u := store.User{ID: ids.New(), Email: in.Email, Name: in.Name, PasswordHash: HashPassword(in.Password), SessionGen: 1,
		CreatedAt: now, UpdatedAt: now}
	err = s.Store.CreateUser(ctx, s.Store.DB, u)
	if errors.Is(err, store.ErrDuplicate) {
		// Someone registered the address since the look-up.
		if owner, err = s.Store.GetUserByEmail(ctx, s.Store.DB, in.Email); err != nil {
			return "", nil, err
		}
		return in.Email, nil, s.registerTaken(ctx, owner, in, now)
	}
	if err != nil {
		return "", nil, err
	}
	if err := s.SendCode(ctx, u.Email, PurposeVerify, in.Locale); err != nil && !errors.Is(err, ErrTooManyCodes) {
		return "", nil, err
	}
	return in.Email, nil, nil
}

// registerTaken answers a registration with an address that has an
// account, as Register says: one password check (a new address costs one
// hash), a failure counted when it is wrong, and the owner's notice.
func (s *Service) registerTaken(ctx context.Context, owner store.User, in RegisterInput, now time.Time) error {
	if !CheckPassword(owner.PasswordHash, in.Password) {
		if err := s.Store.AddLoginFailure(ctx, s.Store.DB, owner.Email, now); err != nil {
			return err
		}
	}
	return s.sendNotice(ctx, owner.Email, in.Locale, now)
}

// sendNotice mails an address's owner that someone tried to register with
// it, at most noticesPerHour times an hour, so the form cannot be used to
// flood a mailbox.
func (s *Service) sendNotice(ctx context.Context, email, locale string, now time.Time) error {
	content, err := s.Compose(locale, PurposeNotice, "")
	if err != nil {
		return err
	}
	err = s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.Store.QueueMailboxLimited(ctx, tx, store.Mail{ID: ids.New(), Kind: content.Kind, To: email, Locale: locale,
			Subject: content.Subject, Body: content.Text, HTMLBody: store.NullStr{String: content.HTML, Valid: content.HTML != ""},
			CreatedAt: now}, now.Add(-time.Hour), noticesPerHour)
	})
	if errors.Is(err, store.ErrMailboxLimit) {
		return nil
	}
	return err
}

// checkLocked returns ErrLocked while an address has failed to log in
// LoginFailures times in LoginWindow.
func (s *Service) checkLocked(ctx context.Context, email string, now time.Time) error {
	n, err := s.Store.LoginFailures(ctx, s.Store.DB, email, now.Add(-LoginWindow))
	if err != nil {
		return err
	}
	if n >= LoginFailures {
		return ErrLocked
	}
	return nil
}

// SendCode mails a new six-digit code for a purpose; only its hash is kept,
// beside the queued mail, in one transaction.
func (s *Service) SendCode(ctx context.Context, email, purpose, locale string) error {
	return s.sendCode(ctx, email, purpose, purpose, locale)
}

// sendCode stores a new code for an address under a purpose and queues its
// mail, written for the purpose mailed (a change of address stores its
// codes per account but mails them as PurposeEmailChange).
func (s *Service) sendCode(ctx context.Context, email, purpose, mailed, locale string) error {
	now := s.Now().UTC()
	n, err := s.Store.CountEmailCodes(ctx, s.Store.DB, email, purpose, now.Add(-time.Hour+CodeTTL))
	if err != nil {
		return err
	}
	if n >= codesPerHour {
		return ErrTooManyCodes
	}
	code := newCode()
	c := store.EmailCode{ID: ids.New(), Email: email, Purpose: purpose, ExpiresAt: now.Add(CodeTTL)}
	c.CodeHash = hashCode(c.ID, code)
	content, err := s.Compose(locale, mailed, code)
	if err != nil {
		return err
	}
	return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.Store.ReplaceEmailCode(ctx, tx, c, now); err != nil {
			return err
		}
		return s.Store.QueueMail(ctx, tx, store.Mail{ID: ids.New(), Kind: content.Kind, To: email, Locale: locale, Subject: content.Subject,
			Body: content.Text, HTMLBody: store.NullStr{String: content.HTML, Valid: content.HTML != ""}, Ref: c.ID, CreatedAt: now})
	})
}

// ResendCode mails a new verification code to an address whose account is
// not verified yet, within SendCode's limits (ErrTooManyCodes). An address
// with a verified account, or with none, is mailed nothing and answered
// the same: the code's screen after a registration asks for it either way.
func (s *Service) ResendCode(ctx context.Context, email, locale string) error {
	u, err := s.Store.GetUserByEmail(ctx, s.Store.DB, email)
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.Verified()) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.SendCode(ctx, u.Email, PurposeVerify, locale)
}

// newCode is six random decimal digits.
func newCode() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic(err) // crypto/rand does not fail
	}
	return fmt.Sprintf("%06d", n.Int64())
}

// hashCode hashes a code with its row's id, so equal codes hash apart.
func hashCode(id, code string) string {
	sum := sha256.Sum256([]byte(id + "\x00" + code))
	return hex.EncodeToString(sum[:])
}

// checkCode spends one of a code's tries: it returns the code when it
// matches, and otherwise the message to show.
func (s *Service) checkCode(ctx context.Context, email, purpose, code string) (store.EmailCode, string, error) {
	code = strings.TrimSpace(code)
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		return store.EmailCode{}, msgCodeInvalid, nil
	}
	c, err := s.Store.LatestEmailCode(ctx, s.Store.DB, email, purpose, s.Now())
	if errors.Is(err, store.ErrNotFound) {
		return store.EmailCode{}, msgCodeInvalid, nil
	}
	if err != nil {
		return store.EmailCode{}, "", err
	}
	ok, err := s.Store.CountCodeAttempt(ctx, s.Store.DB, c.ID, CodeTries)
	if err != nil {
		return store.EmailCode{}, "", err
	}
	if !ok {
		return store.EmailCode{}, "account.error.code_tries", nil
	}
	if subtle.ConstantTimeCompare([]byte(hashCode(c.ID, code)), []byte(c.CodeHash)) != 1 {
		return store.EmailCode{}, msgCodeInvalid, nil
	}
	return c, "", nil
}

// useCode marks a checked code used in tx, so it works only once.
func (s *Service) useCode(ctx context.Context, tx *sqlx.Tx, c store.EmailCode) error {
	ok, err := s.Store.UseEmailCode(ctx, tx, c.ID, s.Now())
	if err != nil {
		return err
	}
	if !ok {
		return &apperr.Error{Status: 400, ID: msgCodeInvalid}
	}
	return nil
}

// VerifyAddress checks the code typed on the code's screen, the one way an
// address is verified, and returns its account to sign in as: only the
// mailbox has the code, so the right one proves the address as a reset
// code does. Every refusal (a wrong code, an expired one, one tried too
// often, no code at all) says the same thing, msgCodeRefused: after a
// registration with an address whose account is verified there is no code
// to try, and "tried too often" would tell that address from a new one.
// A form sent twice ends here too, since the browser keeps the second
// answer, which found the account the first one made.
func (s *Service) VerifyAddress(ctx context.Context, email, code string) (store.User, string, error) {
	c, msg, err := s.checkCode(ctx, email, PurposeVerify, code)
	if err != nil {
		return store.User{}, "", err
	}
	if msg != "" {
		return store.User{}, msgCodeRefused, nil
	}
	u, err := s.Store.GetUserByEmail(ctx, s.Store.DB, email)
	if errors.Is(err, store.ErrNotFound) {
		// The account was deleted since its code was mailed.
		return store.User{}, msgCodeRefused, nil
	}
	if err != nil {
		return store.User{}, "", err
	}
	if err := s.markVerified(ctx, c, u); err != nil {
		return store.User{}, "", err
	}
	u, err = s.Store.GetUser(ctx, s.Store.DB, u.ID)
	return u, "", err
}

// markVerified spends a checked verification code and marks its account
// verified, which joins to it what was made with the address.
func (s *Service) markVerified(ctx context.Context, c store.EmailCode, u store.User) error {
	return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.useCode(ctx, tx, c); err != nil {
			return err
		}
		if err := s.Store.MarkUserVerified(ctx, tx, u.ID, s.Now()); err != nil {
			return err
		}
		return s.Store.ClaimByEmail(ctx, tx, u.ID, u.Email)
	})
}

// Login checks an address and a password. Every failure says the same
// thing; after LoginFailures of them in LoginWindow (registrations with
// the address and a wrong password count too) the address is refused
// until the window passes, whatever the password.
func (s *Service) Login(ctx context.Context, email, password string) (store.User, string, error) {
	email, msg := normalEmail(email)
	if msg != "" || password == "" {
		return store.User{}, msgLoginFailed, nil
	}
	now := s.Now()
	if err := s.checkLocked(ctx, email, now); err != nil {
		return store.User{}, "", err
	}
	u, err := s.Store.GetUserByEmail(ctx, s.Store.DB, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return store.User{}, "", err
	}
	hash := u.PasswordHash
	if hash == "" {
		hash = dummyHash()
	}
	if !CheckPassword(hash, password) || u.ID == "" {
		return store.User{}, msgLoginFailed, s.Store.AddLoginFailure(ctx, s.Store.DB, email, now)
	}
	return u, "", s.Store.ClearLoginFailures(ctx, s.Store.DB, email, now.Add(-LoginWindow))
}

// Logout ends every session of the account, this one and any copy of its
// cookie, as a password change does.
func (s *Service) Logout(ctx context.Context, userID string) error {
	return s.Store.EndSessions(ctx, s.Store.DB, userID, s.Now())
}

// ChangePassword replaces a password after checking the current one, and
// ends every session of the account; it returns the new session generation
// for the session that asked.
func (s *Service) ChangePassword(ctx context.Context, userID, current, password, confirm string) (int64, validate.FieldErrors, error) {
	u, err := s.Store.GetUser(ctx, s.Store.DB, userID)
	if err != nil {
		return 0, nil, err
	}
	errs := validate.FieldErrors{}
	if !CheckPassword(u.PasswordHash, current) {
		errs.Add("current", msgPasswordWrong)
	}
	checkNewPassword(errs, "password", password, confirm)
	if errs.Any() {
		return 0, errs, nil
	}
	hash := HashPassword(password)
	var gen int64
	err = s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		gen, err = s.Store.SetPassword(ctx, tx, u.ID, hash, s.Now())
		return err
	})
	return gen, nil, err
}

// ForgotPassword mails a reset code when an account has the address. The
// answer is the same either way, so the form tells nobody who has one.
func (s *Service) ForgotPassword(ctx context.Context, email, locale string) (string, validate.FieldErrors, error) {
	email, msg := normalEmail(email)
	if msg != "" {
		return "", validate.ErrorOn("email", msg), nil
	}
	u, err := s.Store.GetUserByEmail(ctx, s.Store.DB, email)
	if errors.Is(err, store.ErrNotFound) {
		return email, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	if err := s.SendCode(ctx, u.Email, PurposeReset, locale); err != nil && !errors.Is(err, ErrTooManyCodes) {
		return "", nil, err
	}
	return email, nil, nil
}

// ResetInput is what the reset form sends.
type ResetInput struct {
	Email, Code, Password, Confirm string
}

// ResetPassword sets a new password with a mailed code. The code proves the
// address too, so the account becomes verified and joins what was made
// with it. Every session of the account ends.
func (s *Service) ResetPassword(ctx context.Context, in ResetInput) (validate.FieldErrors, error) {
	errs := validate.FieldErrors{}
	email, msg := normalEmail(in.Email)
	errs.Add("email", msg)
	if strings.TrimSpace(in.Code) == "" {
		errs.Add("code", "form.required")
	}
	checkNewPassword(errs, "password", in.Password, in.Confirm)
	if errs.Any() {
		return errs, nil
	}
	c, msg, err := s.checkCode(ctx, email, PurposeReset, in.Code)
	if err != nil {
		return nil, err
	}
	if msg != "" {
		return validate.ErrorOn("code", msg), nil
	}
	u, err := s.Store.GetUserByEmail(ctx, s.Store.DB, email)
	if err != nil {
		return nil, err
	}
	hash := HashPassword(in.Password)
	return nil, s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.useCode(ctx, tx, c); err != nil {
			return err
		}
		if _, err := s.Store.SetPassword(ctx, tx, u.ID, hash, s.Now()); err != nil {
			return err
		}
		if err := s.Store.MarkUserVerified(ctx, tx, u.ID, s.Now()); err != nil {
			return err
		}
		return s.Store.ClaimByEmail(ctx, tx, u.ID, u.Email)
	})
}

// ClaimOwnResults joins to the account the results this browser made (at
// log-in).
func (s *Service) ClaimOwnResults(ctx context.Context, userID string, resultIDs []string) error {
	if len(resultIDs) == 0 {
		return nil
	}
	return s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.Store.ClaimResults(ctx, tx, userID, resultIDs)
	})
}

// Delete removes the account and its results after checking the password;
// paid orders stay, anonymised, for the books.
func (s *Service) Delete(ctx context.Context, userID, password string) (string, error) {
	u, err := s.Store.GetUser(ctx, s.Store.DB, userID)
	if err != nil {
		return "", err
	}
	if !CheckPassword(u.PasswordHash, password) {
		return msgPasswordWrong, nil
	}
	return "", s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.Store.DeleteUser(ctx, tx, u.ID)
	})
}
