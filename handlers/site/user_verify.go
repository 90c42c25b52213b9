package site

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/account"
	"selfmap/internal/validate"
	"selfmap/views"
)

// userVerify serves GET /user/verify: the code mailed at registration, to
// a registration waiting for it (pending) or a signed-in user whose address
// is not verified yet.
func (s *Server) userVerify(c echo.Context) error {
	if httpx.User(c).Verified() {
		return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/info"))
	}
	return s.renderVerify(c, http.StatusOK, "")
}

// userVerifyPost checks the code (POST /user/verify): the right one
// verifies the address, joins its earlier results and orders to the
// account and signs in as it, then goes back to the screen a guest was
// sent from (takeReturnTo) or to the profile.
func (s *Server) userVerifyPost(c echo.Context) error {
	u, msg, err := s.Accounts.VerifyAddress(c.Request().Context(), httpx.User(c).Email, c.FormValue("code"))
	if err != nil {
		return err
	}
	if msg != "" {
		return s.renderVerify(c, http.StatusUnprocessableEntity, msg)
	}
	back := s.takeReturnTo(c)
	if err := s.SignIn(c, u); err != nil {
		return err
	}
	if err := s.Flash(c, httpx.Tr(c).T("account.verify.done")); err != nil {
		return err
	}
	if back == "" {
		back = accountPath(c, "/user/info")
	}
	return c.Redirect(http.StatusSeeOther, back)
}

// userVerifyResend mails a new code (POST /user/verify/resend) when the
// address has an account waiting for one. A registration waiting for its
// code is answered alike whatever the address: nothing says whether a code
// left or the hourly limit stopped it, which only a new account reaches.
func (s *Server) userVerifyResend(c echo.Context) error {
	u := httpx.User(c)
	pending := u.ID == ""
	err := s.Accounts.ResendCode(c.Request().Context(), u.Email, httpx.State(c).Locale.Tag)
	if errors.Is(err, account.ErrTooManyCodes) && !pending {
		return s.renderVerify(c, http.StatusTooManyRequests, account.ErrTooManyCodes.ID)
	}
	if err != nil && !errors.Is(err, account.ErrTooManyCodes) {
		return err
	}
	sent := "account.verify.sent"
	if pending {
		sent = "account.pending.sent"
	}
	if err := s.Flash(c, httpx.Tr(c).T(sent)); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/verify"))
}

// renderVerify shows the code's screen. After a registration it promises
// no code, as the address may have had an account, and offers to log in
// rather than the account's screens, which need the code first.
func (s *Server) renderVerify(c echo.Context, status int, msg string) error {
	t, u := httpx.Tr(c), httpx.User(c)
	intro, links := "account.verify.intro", userLinks(c)
	if u.ID == "" {
		intro, links = "account.pending.intro", []views.AccountLink{link(c, "account.register.have_account", "/user/login", "link-login")}
	}
	return s.Render(c, status, views.Account(views.AccountPage{
		Title: t.T("account.verify.title"), Intro: t.TD(intro, map[string]any{"Email": u.Email}), TestID: "verify-page",
		Forms: []views.AccountForm{
			{Action: accountPath(c, "/user/verify"), Submit: t.T("account.verify.submit"), TestID: "verify-form", Errors: validate.ErrorOn("code", msg),
				Fields: []views.AccountField{codeField(c)}},
			{Action: accountPath(c, "/user/verify/resend"), Submit: t.T("account.verify.resend"), TestID: "resend-form", Danger: true},
		},
		Links: links,
	}))
}
