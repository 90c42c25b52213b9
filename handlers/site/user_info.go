package site

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/account"
	"selfmap/internal/apperr"
	"selfmap/internal/validate"
	"selfmap/views"
)

// userInfo serves GET /user/info and /userCenter/setting/userInfo: the
// profile and the picture, in one form.
func (s *Server) userInfo(c echo.Context) error {
	return s.renderInfo(c, http.StatusOK, httpx.User(c).Profile(), nil)
}

// userInfoPost saves the profile form (POST /user/info, multipart or not):
// the fields and, when one was chosen, the picture, together or not at all.
func (s *Server) userInfoPost(c echo.Context) error {
	in := account.Profile{Nickname: c.FormValue("nickname"), Phone: c.FormValue("phone"), Birthday: c.FormValue("birthday"),
		Sex: c.FormValue("sex"), Introduction: c.FormValue("introduction")}
	avatar, err := chosenAvatar(c)
	if err != nil {
		return err
	}
	p, errs, err := s.Accounts.SaveProfile(c.Request().Context(), httpx.User(c).ID, in, avatar)
	if err != nil {
		return err
	}
	if errs.Any() {
		return s.renderInfo(c, http.StatusUnprocessableEntity, p, errs)
	}
	return s.savedTo(c, "account.info.saved")
}

// chosenAvatar reads the picture of the profile form, nil when none was
// chosen (an empty file field), at most one byte past the limit.
func chosenAvatar(c echo.Context) ([]byte, error) {
	fh, err := c.FormFile("avatar")
	if err != nil || fh.Size == 0 {
		return nil, nil
	}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, account.MaxAvatarBytes+1))
}

// userAvatarPost takes a picture alone (POST /user/avatar, multipart):
// checked, re-encoded and stored. The profile page sends it with the
// fields (userInfoPost); this stays for clients that send it apart.
func (s *Server) userAvatarPost(c echo.Context) error {
	u := httpx.User(c)
	fh, err := c.FormFile("avatar")
	if err != nil {
		return s.renderInfo(c, http.StatusUnprocessableEntity, u.Profile(), validate.ErrorOn("avatar", "account.error.avatar_type"))
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, account.MaxAvatarBytes+1))
	if err != nil {
		return err
	}
	msg, err := s.Accounts.SetAvatar(c.Request().Context(), u.ID, data)
	if err != nil {
		return err
	}
	if msg != "" {
		return s.renderInfo(c, http.StatusUnprocessableEntity, u.Profile(), validate.ErrorOn("avatar", msg))
	}
	return s.savedTo(c, "account.info.avatar_saved")
}

// userAvatar sends the signed-in user's own picture (GET /user/avatar);
// there is no way to ask for anyone else's.
func (s *Server) userAvatar(c echo.Context) error {
	img, mediaType, err := s.Accounts.Avatar(c.Request().Context(), httpx.User(c).ID)
	if errors.Is(err, apperr.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, no-store")
	return c.Blob(http.StatusOK, mediaType, img)
}

func (s *Server) savedTo(c echo.Context, msgID string) error {
	if err := s.Flash(c, httpx.Tr(c).T(msgID)); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, accountPath(c, "/user/info"))
}

// renderInfo shows the profile form, the picture's field among the others.
func (s *Server) renderInfo(c echo.Context, status int, p account.Profile, errs validate.FieldErrors) error {
	t, u := httpx.Tr(c), httpx.User(c)
	sexes := make([]views.AccountOption, len(account.Sexes))
	for i, x := range account.Sexes {
		sexes[i] = views.AccountOption{Value: x, Label: t.T("account.sex." + x)}
	}
	page := views.AccountPage{
		Title: t.T("account.info.title"), Intro: t.TD("account.info.intro", map[string]any{"Name": u.Name, "Email": u.Email}), TestID: "info-page",
		Forms: []views.AccountForm{
			{Action: accountPath(c, "/user/info"), Submit: t.T("account.info.submit"), TestID: "info-form", Errors: errs, Multipart: true,
				Fields: []views.AccountField{
					{Name: "nickname", Label: t.T("account.field.nickname"), Type: "text", Value: p.Nickname, Autocomplete: "nickname", MaxLength: account.MaxNickname, Optional: true},
					{Name: "phone", Label: t.T("account.field.phone"), Type: "tel", Value: p.Phone, Autocomplete: "tel", MaxLength: 24, Optional: true},
					{Name: "birthday", Label: t.T("account.field.birthday"), Type: "date", Value: p.Birthday, Autocomplete: "bday",
						Min: "1900-01-01", Max: s.Deps.Now().Format(time.DateOnly), Optional: true},
					{Name: "sex", Label: t.T("account.field.sex"), Type: "radio", Value: p.Sex, Options: sexes},
					{Name: "introduction", Label: t.T("account.field.introduction"), Type: "textarea", Value: p.Introduction, MaxLength: account.MaxIntroduction, Optional: true},
					{Name: "avatar", Label: t.T("account.field.avatar"), Type: "file", Hint: t.T("account.hint.avatar"), Optional: true},
				}},
			logoutForm(c),
		},
		Links: userLinks(c),
	}
	if !u.Verified() {
		page.Links = append([]views.AccountLink{link(c, "account.verify.title", "/user/verify", "link-verify")}, page.Links...)
	}
	if u.AvatarType != "" {
		page.AvatarURL = accountPath(c, "/user/avatar")
	}
	return s.Render(c, status, views.Account(page))
}
