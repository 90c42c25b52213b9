package site

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/account"
	"selfmap/views"
)

// The account screens' fields, labelled in the request's locale. Passwords
// are never sent back into a form.

func emailField(c echo.Context, value string) views.AccountField {
	return views.AccountField{Name: "email", Label: httpx.Tr(c).T("account.field.email"), Type: "email", Value: value,
		Autocomplete: "email", MaxLength: 254}
}

func passwordField(c echo.Context, name, labelID, autocomplete string, hint bool) views.AccountField {
	f := views.AccountField{Name: name, Label: httpx.Tr(c).T(labelID), Type: "password", Autocomplete: autocomplete, MaxLength: account.MaxPassword}
	if hint {
		f.Hint = httpx.Tr(c).T("account.hint.password")
	}
	return f
}

func codeField(c echo.Context) views.AccountField {
	return views.AccountField{Name: "code", Label: httpx.Tr(c).T("account.field.code"), Type: "text", Autocomplete: "one-time-code",
		MaxLength: 6, Placeholder: "123456"}
}

// accountPath is an account path in the request's locale.
func accountPath(c echo.Context, p string) string { return httpx.State(c).LocalPath(p) }

func link(c echo.Context, labelID, path, testID string) views.AccountLink {
	return views.AccountLink{Label: httpx.Tr(c).T(labelID), Href: accountPath(c, path), TestID: testID}
}

// userLinks are the signed-in user's account screens.
func userLinks(c echo.Context) []views.AccountLink {
	return []views.AccountLink{
		link(c, "account.info.title", "/user/info", "link-info"),
		link(c, "account.edit.title", "/user/edit-password", "link-edit-password"),
		link(c, "account.setting.title", "/user/setting", "link-setting"),
	}
}

// logoutForm is the sign-out button (a POST with the CSRF token).
func logoutForm(c echo.Context) views.AccountForm {
	return views.AccountForm{Action: accountPath(c, "/user/logout"), Submit: httpx.Tr(c).T("account.logout"), TestID: "logout", Danger: true}
}
