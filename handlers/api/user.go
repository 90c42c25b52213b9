package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/account"
	"selfmap/internal/apperr"
	"selfmap/internal/validate"
)

// apiUser is the account as the JSON API shows it: the spec's field names.
type apiUser struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Email        string `json:"email"`
	Verified     bool   `json:"emailVerified"`
	Nickname     string `json:"nickName"`
	Phone        string `json:"phone"`
	Birthday     string `json:"birthday"`
	Sex          string `json:"sex"`
	Introduction string `json:"introduction"`
	Avatar       string `json:"avatar"`
}

func toAPIUser(c echo.Context, u account.User) apiUser {
	out := apiUser{ID: u.ID, Name: u.Name, Email: u.Email, Verified: u.Verified(), Nickname: u.Nickname, Phone: u.Phone,
		Birthday: u.Birthday, Sex: u.Sex, Introduction: u.Introduction}
	if u.AvatarType != "" {
		out.Avatar = httpx.State(c).LocalPath("/user/avatar")
	}
	return out
}

// apiFormErrors answers 422 with each field's translated message in data.
func apiFormErrors(c echo.Context, errs validate.FieldErrors) error {
	t := httpx.Tr(c)
	fields := map[string]string{}
	for k, v := range errs {
		fields[k] = t.T(v)
	}
	return c.JSON(http.StatusUnprocessableEntity, httpx.Envelope{Result: http.StatusUnprocessableEntity, Message: t.T("form.fix"), Data: map[string]any{"errors": fields}})
}

// apiUserRegister is POST /api/user/register. As the form, it signs
// nobody in and answers alike whether or not the address had an account:
// the address to verify (the code is entered at /user/verify) and the new
// session's CSRF token, never a user.
func (s *Server) apiUserRegister(c echo.Context) error {
	var req struct {
		Name, Email, Password string
		ConfirmPassword       string `json:"confirmPassword"`
		Agree                 bool   `json:"agree"`
	}
	if err := c.Bind(&req); err != nil {
		return httpx.APIInvalid("body")
	}
	email, errs, err := s.Accounts.Register(c.Request().Context(), account.RegisterInput{Name: req.Name, Email: req.Email, Password: req.Password,
		Confirm: req.ConfirmPassword, Agreed: req.Agree, Locale: httpx.State(c).Locale.Tag})
	if err != nil {
		return err
	}
	if errs.Any() {
		return apiFormErrors(c, errs)
	}
	if err := s.StartPending(c, email); err != nil {
		return err
	}
	return s.APIOK(c, map[string]any{"email": email, "csrf": httpx.State(c).CSRF})
}

// apiUserLogin is POST /api/user/login. The answer carries the new
// session's CSRF token: the one the page had belongs to the old session.
func (s *Server) apiUserLogin(c echo.Context) error {
	var req struct{ Email, Password string }
	if err := c.Bind(&req); err != nil {
		return httpx.APIInvalid("body")
	}
	u, msg, err := s.Accounts.Login(c.Request().Context(), req.Email, req.Password)
	if err != nil {
		return err
	}
	if msg != "" {
		return &apperr.Error{Status: http.StatusUnauthorized, ID: msg}
	}
	if err := s.SignIn(c, u); err != nil {
		return err
	}
	return s.APIOK(c, map[string]any{"user": toAPIUser(c, u), "csrf": httpx.State(c).CSRF})
}

// apiUserLogout is POST /api/user/logout.
func (s *Server) apiUserLogout(c echo.Context) error {
	if err := s.EndSession(c); err != nil {
		return err
	}
	return s.APIOK(c, map[string]any{"csrf": httpx.State(c).CSRF})
}

// apiUserGet is GET /api/user/get: the signed-in user.
func (s *Server) apiUserGet(c echo.Context) error {
	return s.APIOK(c, toAPIUser(c, httpx.User(c)))
}

// apiUserUpdate is POST /api/user/update: the profile's fields.
func (s *Server) apiUserUpdate(c echo.Context) error {
	var req struct {
		Nickname     string `json:"nickName"`
		Phone        string `json:"phone"`
		Birthday     string `json:"birthday"`
		Sex          string `json:"sex"`
		Introduction string `json:"introduction"`
	}
	if err := c.Bind(&req); err != nil {
		return httpx.APIInvalid("body")
	}
	ctx, id := c.Request().Context(), httpx.User(c).ID
	_, errs, err := s.Accounts.UpdateProfile(ctx, id, account.Profile{Nickname: req.Nickname, Phone: req.Phone,
		Birthday: req.Birthday, Sex: req.Sex, Introduction: req.Introduction})
	if err != nil {
		return err
	}
	if errs.Any() {
		return apiFormErrors(c, errs)
	}
	u, err := s.Accounts.User(ctx, id)
	if errors.Is(err, apperr.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	return s.APIOK(c, toAPIUser(c, u))
}
