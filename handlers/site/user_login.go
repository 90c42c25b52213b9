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

// userLogin serves GET /user/login; ?next= names the page of this site to
// land on once signed in (httpx.LocalNext refuses any other).
func (s *Server) userLogin(c echo.Context) error {
	next := httpx.LocalNext(c.QueryParam("next"))
	if _, ok, err := s.CurrentUser(c); err != nil || ok {
		if err == nil && next != "" {
			return c.Redirect(http.StatusSeeOther, next)
		}
		return signedIn(c, err)
	}
	return s.renderLogin(c, http.StatusOK, "", next, nil)
}

// userLoginPost checks the address and password (POST /user/login). An
// empty field is named; any other failure shows one message, which tells
// nobody whether the address has an account; an address that failed too
// often is refused for a while. Success starts a new session and lands on
// the page the member was going to, else on My Page.
func (s *Server) userLoginPost(c echo.Context) error {
	email, password := c.FormValue("email"), c.FormValue("password")
	next := httpx.LocalNext(c.FormValue("next"))
	if errs := account.LoginMissing(email, password); errs.Any() {
		return s.renderLogin(c, http.StatusUnprocessableEntity, email, next, errs)
	}
	u, msg, err := s.Accounts.Login(c.Request().Context(), email, password)
	if errors.Is(err, account.ErrLocked) {
		return s.renderLogin(c, http.StatusTooManyRequests, email, next, validate.ErrorOn(validate.Form, account.ErrLocked.ID))
	}
	if err != nil {
		return err
	}
	if msg != "" {
		return s.renderLogin(c, http.StatusUnprocessableEntity, email, next, validate.ErrorOn(validate.Form, msg))
	}
	back := s.takeReturnTo(c)
	if err := s.SignIn(c, u); err != nil {
		return err
	}
	switch {
	case next != "":
		return c.Redirect(http.StatusSeeOther, next)
	case back != "":
		return c.Redirect(http.StatusSeeOther, back)
	case !u.Verified():
		return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/verify"))
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/userCenter"))
}

func (s *Server) renderLogin(c echo.Context, status int, email, next string, errs validate.FieldErrors) error {
	t := httpx.Tr(c)
	fields := []views.AccountField{emailField(c, email), passwordField(c, "password", "account.field.password", "current-password", false)}
	if next != "" {
		fields = append(fields, views.AccountField{Name: "next", Type: "hidden", Value: next})
	}
	return s.Render(c, status, views.Account(views.AccountPage{
		Title: t.T("account.login.title"), Intro: t.T("account.login.intro"), TestID: "login-page",
		Forms: []views.AccountForm{{Action: accountPath(c, "/user/login"), Submit: t.T("account.login.submit"), TestID: "login-form",
			Errors: errs, Fields: fields}},
		Links: []views.AccountLink{
			link(c, "account.login.forgot", "/user/forgot-password", "link-forgot"),
			link(c, "account.login.no_account", "/user/register", "link-register"),
		},
	}))
}

// userLogout signs out (POST /user/logout) and goes home.
func (s *Server) userLogout(c echo.Context) error {
	if err := s.EndSession(c); err != nil {
		return err
	}
	if err := s.Flash(c, httpx.Tr(c).T("account.logged_out")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, httpx.State(c).HomePath())
}
