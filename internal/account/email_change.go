package account

import (
	"context"
	"errors"
	"strings"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// An address change is proved with a code mailed to the new address, kept
// under it for the purpose of this one account: a code mailed for one
// account's change cannot change another's.
const purposeEmailChange = "email_change:"

// PurposeEmailChange asks CodeMail for the e-mail of an address change: it
// has its own subject and words, and says that ignoring it keeps the
// account's address.
const PurposeEmailChange = "email_change"

// Message ids of the e-mail and name forms of the billing page.
const (
	msgEmailSame = "billing.email.same"
)

// RequestEmailChange starts moving an account to a new address: after the
// current password, a code is mailed to the new address (within
// SendCode's limits), and nothing changes until ConfirmEmailChange gets
// it. An address another account has is answered exactly the same, and no
// code is mailed: the form does not tell whose address has an account,
// and the code screen then refuses every code. The answer is the address
// typed, normalised.
func (s *Service) RequestEmailChange(ctx context.Context, userID, email, password, locale string) (string, validate.FieldErrors, error) {
	u, err := s.Store.GetUser(ctx, s.Store.DB, userID)
	if err != nil {
		return "", nil, err
	}
	errs := validate.FieldErrors{}
	email, msg := normalEmail(email)
	errs.Add("email", msg)
	if msg == "" && email == u.Email {
		errs.Add("email", msgEmailSame)
	}
	if !CheckPassword(u.PasswordHash, password) {
		errs.Add("current", msgPasswordWrong)
	}
	if errs.Any() {
		return "", errs, nil
	}
	_, err = s.Store.GetUserByEmail(ctx, s.Store.DB, email)
	if err == nil {
		return email, nil, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return "", nil, err
	}
	if err := s.sendChangeCode(ctx, email, u.ID, locale); err != nil {
		return "", nil, err
	}
	return email, nil, nil
}

// sendChangeCode mails a code for an address change, as SendCode does (the
// same limits, the hash kept beside the queued mail), in the e-mail of
// its own (PurposeEmailChange).
func (s *Service) sendChangeCode(ctx context.Context, email, userID, locale string) error {
	return s.sendCode(ctx, email, purposeEmailChange+userID, PurposeEmailChange, locale)
}

// ConfirmEmailChange moves the account to the new address when the code
// mailed to it is right: the address is then verified, and what was made
// with it joins the account. Every refusal says the same (msgCodeRefused),
// whether the code is wrong, spent, or the address belongs to another
// account by now.
func (s *Service) ConfirmEmailChange(ctx context.Context, userID, email, code string) (validate.FieldErrors, error) {
	email, msg := normalEmail(email)
	if msg != "" {
		return validate.ErrorOn("code", msgCodeRefused), nil
	}
	c, msg, err := s.checkCode(ctx, email, purposeEmailChange+userID, code)
	if err != nil {
		return nil, err
	}
	if msg != "" {
		return validate.ErrorOn("code", msgCodeRefused), nil
	}
	err = s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.useCode(ctx, tx, c); err != nil {
			return err
		}
		if err := s.Store.SetUserEmail(ctx, tx, userID, email, s.Now()); err != nil {
			return err
		}
		return s.Store.ClaimByEmail(ctx, tx, userID, email)
	})
	if errors.Is(err, store.ErrDuplicate) {
		return validate.ErrorOn("code", msgCodeRefused), nil
	}
	return nil, err
}

// ChangeName replaces the account's name, checked as at registration.
func (s *Service) ChangeName(ctx context.Context, userID, name string) (validate.FieldErrors, error) {
	name, msg := validate.Name(strings.TrimSpace(name), MaxName)
	if msg != "" {
		return validate.ErrorOn("name", msg), nil
	}
	return nil, s.Store.SetUserName(ctx, s.Store.DB, userID, name, s.Now())
}
