package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/account"
	"selfmap/internal/validate"
	"selfmap/views"
)

// userForgot serves GET /user/forgot-password: the address step, or, with
// ?email=, the code and new password step.
func (s *Server) userForgot(c echo.Context) error {
	if email := c.QueryParam("email"); email != "" {
		return s.renderReset(c, http.StatusOK, account.ResetInput{Email: email}, nil)
	}
	return s.renderForgot(c, http.StatusOK, "", nil)
}

// userForgotPost mails a reset code when an account has the address (POST
// /user/forgot-password); the answer is the same when none has.
func (s *Server) userForgotPost(c echo.Context) error {
	email, errs, err := s.Accounts.ForgotPassword(c.Request().Context(), c.FormValue("email"), httpx.State(c).Locale.Tag)
	if err != nil {
		return err
	}
	if errs.Any() {
		return s.renderForgot(c, http.StatusUnprocessableEntity, c.FormValue("email"), errs)
	}
	if err := s.Flash(c, httpx.Tr(c).T("account.forgot.sent")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/forgot-password")+"?email="+httpx.URLQueryEscape(email))
}

// userResetPost sets the new password with the code (POST
// /user/reset-password); every session of the account ends, so the person
// logs in again.
func (s *Server) userResetPost(c echo.Context) error {
	in := account.ResetInput{Email: c.FormValue("email"), Code: c.FormValue("code"), Password: c.FormValue("password"), Confirm: c.FormValue("confirm")}
	errs, err := s.Accounts.ResetPassword(c.Request().Context(), in)
	if err != nil {
		return err
	}
	if errs.Any() {
		return s.renderReset(c, http.StatusUnprocessableEntity, in, errs)
	}
	if err := s.EndSession(c); err != nil {
		return err
	}
	if err := s.Flash(c, httpx.Tr(c).T("account.reset.done")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/login"))
}

func (s *Server) renderForgot(c echo.Context, status int, email string, errs validate.FieldErrors) error {
	t := httpx.Tr(c)
	return s.Render(c, status, views.Account(views.AccountPage{
		Title: t.T("account.forgot.title"), Intro: t.T("account.forgot.intro"), TestID: "forgot-page",
		Forms: []views.AccountForm{{Action: accountPath(c, "/user/forgot-password"), Submit: t.T("account.forgot.submit"), TestID: "forgot-form",
			Errors: errs, Fields: []views.AccountField{emailField(c, email)}}},
		Links: []views.AccountLink{link(c, "account.login.title", "/user/login", "link-login")},
	}))
}

func (s *Server) renderReset(c echo.Context, status int, in account.ResetInput, errs validate.FieldErrors) error {
	t := httpx.Tr(c)
	return s.Render(c, status, views.Account(views.AccountPage{
		Title: t.T("account.reset.title"), Intro: t.T("account.reset.intro"), TestID: "reset-page",
		Forms: []views.AccountForm{{Action: accountPath(c, "/user/reset-password"), Submit: t.T("account.reset.submit"), TestID: "reset-form",
			Errors: errs, Fields: []views.AccountField{
				emailField(c, in.Email), codeField(c),
				passwordField(c, "password", "account.field.new_password", "new-password", true),
				passwordField(c, "confirm", "account.field.confirm", "new-password", false),
			}}},
		Links: []views.AccountLink{link(c, "account.forgot.again", "/user/forgot-password", "link-forgot")},
	}))
}

// userEditPassword serves GET /user/edit-password.
func (s *Server) userEditPassword(c echo.Context) error {
	return s.renderEditPassword(c, http.StatusOK, nil)
}

// userEditPasswordPost changes the password (POST /user/edit-password):
// every other session of the account ends; this one continues.
func (s *Server) userEditPasswordPost(c echo.Context) error {
	gen, errs, err := s.Accounts.ChangePassword(c.Request().Context(), httpx.User(c).ID, c.FormValue("current"), c.FormValue("password"), c.FormValue("confirm"))
	if err != nil {
		return err
	}
	if errs.Any() {
		return s.renderEditPassword(c, http.StatusUnprocessableEntity, errs)
	}
	if err := s.KeepSession(c, gen); err != nil {
		return err
	}
	if err := s.Flash(c, httpx.Tr(c).T("account.edit.done")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/info"))
}

func (s *Server) renderEditPassword(c echo.Context, status int, errs validate.FieldErrors) error {
	t := httpx.Tr(c)
	return s.Render(c, status, views.Account(views.AccountPage{
		Title: t.T("account.edit.title"), Intro: t.T("account.edit.intro"), TestID: "edit-password-page",
		Forms: []views.AccountForm{{Action: accountPath(c, "/user/edit-password"), Submit: t.T("account.edit.submit"), TestID: "edit-password-form",
			Errors: errs, Fields: []views.AccountField{
				passwordField(c, "current", "account.field.current", "current-password", false),
				passwordField(c, "password", "account.field.new_password", "new-password", true),
				passwordField(c, "confirm", "account.field.confirm", "new-password", false),
			}}},
		Links: userLinks(c),
	}))
}
