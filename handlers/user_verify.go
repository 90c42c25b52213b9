package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/account"
	"selfmap/views"
)

// userVerify serves GET /user/verify: the code mailed at registration.
func (s *Server) userVerify(c echo.Context) error {
	if user(c).Verified() {
		return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/info"))
	}
	return s.renderVerify(c, http.StatusOK, "")
}

// userVerifyPost checks the code (POST /user/verify); the verified
// address's earlier results and orders join the account. After a
// registration whose address had an account, the account's own code (only
// its mailbox has one) verifies it and signs in as it.
func (s *Server) userVerifyPost(c echo.Context) error {
	u := user(c)
	if u.ID == "" {
		return s.verifyAddressPost(c, u.Email)
	}
	msg, err := s.Accounts.Verify(c.Request().Context(), u.ID, c.FormValue("code"))
	if err != nil {
		return err
	}
	if msg != "" {
		return s.renderVerify(c, http.StatusUnprocessableEntity, msg)
	}
	return s.verified(c)
}

// verifyAddressPost is userVerifyPost after a registration whose address
// had an account.
func (s *Server) verifyAddressPost(c echo.Context, email string) error {
	owner, msg, err := s.Accounts.VerifyAddress(c.Request().Context(), email, c.FormValue("code"))
	if err != nil {
		return err
	}
	if msg != "" {
		return s.renderVerify(c, http.StatusUnprocessableEntity, msg)
	}
	if err := s.signIn(c, owner); err != nil {
		return err
	}
	return s.verified(c)
}

// verified says the address is verified, on the profile.
func (s *Server) verified(c echo.Context) error {
	if err := s.flash(c, tr(c).T("account.verify.done")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/info"))
}

// userVerifyResend mails a new code (POST /user/verify/resend). A
// registration whose address had an account is told the same, and nothing
// is mailed: the owner had their notice.
func (s *Server) userVerifyResend(c echo.Context) error {
	u := user(c)
	var err error
	if u.ID != "" {
		err = s.Accounts.SendCode(c.Request().Context(), u.Email, account.PurposeVerify, state(c).Locale.Tag)
	}
	if errors.Is(err, account.ErrTooManyCodes) {
		return s.renderVerify(c, http.StatusTooManyRequests, account.ErrTooManyCodes.ID)
	}
	if err != nil {
		return err
	}
	if err := s.flash(c, tr(c).T("account.verify.sent")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/verify"))
}

func (s *Server) renderVerify(c echo.Context, status int, msg string) error {
	t := tr(c)
	var errs map[string]string
	if msg != "" {
		errs = map[string]string{"code": msg}
	}
	return s.render(c, status, views.Account(views.AccountPage{
		Title: t.T("account.verify.title"), Intro: t.TD("account.verify.intro", map[string]any{"Email": user(c).Email}), TestID: "verify-page",
		Forms: []views.AccountForm{
			{Action: accountPath(c, "/user/verify"), Submit: t.T("account.verify.submit"), TestID: "verify-form", Errors: errs,
				Fields: []views.AccountField{codeField(c)}},
			{Action: accountPath(c, "/user/verify/resend"), Submit: t.T("account.verify.resend"), TestID: "resend-form", Danger: true},
		},
		Links: userLinks(c),
	}))
}
