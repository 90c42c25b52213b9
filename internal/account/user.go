package account

import (
	"strings"

	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// User is a stored account. Callers name it through this package, which
// owns how one registers, signs in and changes its profile.
type User = store.User

// Profile is what a user edits about themself (User.Profile reads it from
// an account); callers name it through this package, which checks it.
type Profile = store.Profile

// LoginMissing names the log-in form's empty fields, so the form says which
// one to fill in; a form with both filled in is for Service.Login to check.
func LoginMissing(email, password string) validate.FieldErrors {
	errs := validate.FieldErrors{}
	if strings.TrimSpace(email) == "" {
		errs.Add("email", "form.email.required")
	}
	if password == "" {
		errs.Add("password", "account.error.password_required")
	}
	return errs
}
