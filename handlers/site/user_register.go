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

// userRegister serves GET /user/register.
func (s *Server) userRegister(c echo.Context) error {
	if _, ok, err := s.CurrentUser(c); err != nil || ok {
		return signedIn(c, err)
	}
	return s.renderRegister(c, http.StatusOK, account.RegisterInput{}, nil)
}

// userRegisterPost creates the account (POST /user/register) and asks for
// the mailed code on a new session that signs nobody in until the code is
// entered (userVerifyPost). An address that has an account gets the same
// answer (see account.Service.Register), so the next page tells nobody
// which one it was; one locked by failed log-ins is refused as at log-in.
func (s *Server) userRegisterPost(c echo.Context) error {
	in := account.RegisterInput{Name: c.FormValue("name"), Email: c.FormValue("email"), Password: c.FormValue("password"),
		Confirm: c.FormValue("confirm"), Agreed: c.FormValue("agree") != "", Locale: httpx.State(c).Locale.Tag}
	email, errs, err := s.Accounts.Register(c.Request().Context(), in)
	if errors.Is(err, account.ErrLocked) {
		return s.renderRegister(c, http.StatusTooManyRequests, in, validate.ErrorOn(validate.Form, account.ErrLocked.ID))
	}
	if err != nil {
		return err
	}
	if errs.Any() {
		return s.renderRegister(c, http.StatusUnprocessableEntity, in, errs)
	}
	if err := s.StartPending(c, email); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/verify"))
}

func (s *Server) renderRegister(c echo.Context, status int, in account.RegisterInput, errs validate.FieldErrors) error {
	t, pair := httpx.Tr(c), httpx.State(c).Home.String()
	agreed := ""
	if in.Agreed {
		agreed = "1"
	}
	return s.Render(c, status, views.Account(views.AccountPage{
		Title: t.T("account.register.title"), Intro: t.T("account.register.intro"), TestID: "register-page",
		Forms: []views.AccountForm{{Action: accountPath(c, "/user/register"), Submit: t.T("account.register.submit"), TestID: "register-form",
			Errors: errs, Fields: []views.AccountField{
				{Name: "name", Label: t.T("account.field.name"), Type: "text", Value: in.Name, Autocomplete: "name", MaxLength: account.MaxName},
				emailField(c, in.Email),
				passwordField(c, "password", "account.field.password", "new-password", true),
				passwordField(c, "confirm", "account.field.confirm", "new-password", false),
				{Name: "agree", Label: t.T("account.field.agree"), Type: "agree", Value: agreed, Links: []views.AccountLink{
					{Label: t.T("account.field.terms"), Href: accountPath(c, httpx.LegalPath("terms", pair))},
					{Label: t.T("account.field.privacy"), Href: accountPath(c, httpx.LegalPath("privacy", pair))},
				}},
			}}},
		Links: []views.AccountLink{link(c, "account.register.have_account", "/user/login", "link-login")},
	}))
}

// signedIn sends a signed-in visitor of a sign-in screen on to My Page.
func signedIn(c echo.Context, err error) error {
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/userCenter"))
}
