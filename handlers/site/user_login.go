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

// userLogin serves GET /user/login.
func (s *Server) userLogin(c echo.Context) error {
	if _, ok, err := s.CurrentUser(c); err != nil || ok {
		return signedIn(c, err)
	}
	return s.renderLogin(c, http.StatusOK, "", "")
}

// userLoginPost checks the address and password (POST /user/login). Every
// failure shows one message; an address that failed too often is refused
// for a while. Success starts a new session.
func (s *Server) userLoginPost(c echo.Context) error {
	email := c.FormValue("email")
	u, msg, err := s.Accounts.Login(c.Request().Context(), email, c.FormValue("password"))
	if errors.Is(err, account.ErrLocked) {
		return s.renderLogin(c, http.StatusTooManyRequests, email, account.ErrLocked.ID)
	}
	if err != nil {
		return err
	}
	if msg != "" {
		return s.renderLogin(c, http.StatusUnprocessableEntity, email, msg)
	}
	back := s.takeReturnTo(c)
	if err := s.SignIn(c, u); err != nil {
		return err
	}
	if back != "" {
		return c.Redirect(http.StatusSeeOther, back)
	}
	next := "/user/info"
	if !u.Verified() {
		next = "/user/verify"
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, next))
}

func (s *Server) renderLogin(c echo.Context, status int, email, msg string) error {
	t := httpx.Tr(c)
	return s.Render(c, status, views.Account(views.AccountPage{
		Title: t.T("account.login.title"), Intro: t.T("account.login.intro"), TestID: "login-page",
		Forms: []views.AccountForm{{Action: accountPath(c, "/user/login"), Submit: t.T("account.login.submit"), TestID: "login-form",
			Errors: validate.ErrorOn(validate.Form, msg),
			Fields: []views.AccountField{emailField(c, email), passwordField(c, "password", "account.field.password", "current-password", false)}}},
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
