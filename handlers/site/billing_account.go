package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
)

// userBillingEmail mails a code to a new address for the member's account
// (POST /userCenter/setting/billing/email); the page then asks for it. An
// address another account has is answered the same, and no code comes.
func (s *Server) userBillingEmail(c echo.Context) error {
	httpx.Sensitive(c)
	email, errs, err := s.Accounts.RequestEmailChange(c.Request().Context(), httpx.User(c).ID, c.FormValue("email"),
		c.FormValue("current"), httpx.State(c).Locale.Tag)
	if err != nil {
		f, ferr := s.FormFailure(c, "billing email", err)
		if ferr != nil {
			return ferr
		}
		errs = map[string]string{"": f.Id}
	}
	if errs.Any() {
		return s.renderBilling(c, http.StatusUnprocessableEntity, billingState{form: "email", errs: errs,
			values: map[string]string{"email": c.FormValue("email")}})
	}
	if err := s.AddFlash(c, email, flashPendingEmail); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/userCenter/setting/billing")+"#account")
}

// userBillingEmailConfirm moves the account to the new address when the
// code mailed to it is right (POST /userCenter/setting/billing/email/confirm).
func (s *Server) userBillingEmailConfirm(c echo.Context) error {
	httpx.Sensitive(c)
	email := c.FormValue("email")
	errs, err := s.Accounts.ConfirmEmailChange(c.Request().Context(), httpx.User(c).ID, email, c.FormValue("code"))
	if err != nil {
		return err
	}
	if errs.Any() {
		return s.renderBilling(c, http.StatusUnprocessableEntity, billingState{form: "code", errs: errs, pending: email})
	}
	return s.billingDone(c, "billing.email.done")
}

// userBillingName replaces the account's name (POST
// /userCenter/setting/billing/name).
func (s *Server) userBillingName(c echo.Context) error {
	errs, err := s.Accounts.ChangeName(c.Request().Context(), httpx.User(c).ID, c.FormValue("name"))
	if err != nil {
		return err
	}
	if errs.Any() {
		return s.renderBilling(c, http.StatusUnprocessableEntity, billingState{form: "name", errs: errs,
			values: map[string]string{"name": c.FormValue("name")}})
	}
	return s.billingDone(c, "billing.name.done")
}
