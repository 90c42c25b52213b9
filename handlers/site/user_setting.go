package site

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/validate"
	"selfmap/views"
)

// userSetting serves GET /user/setting: download my data, delete my
// account.
func (s *Server) userSetting(c echo.Context) error {
	return s.renderSetting(c, http.StatusOK, "")
}

// userExport sends everything kept about the user as a JSON file (GET
// /user/setting/export).
func (s *Server) userExport(c echo.Context) error {
	ex, err := s.Accounts.Export(c.Request().Context(), httpx.User(c).ID)
	if err != nil {
		return err
	}
	body, err := json.MarshalIndent(ex, "", "  ")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="selfmap-my-data.json"`)
	return c.Blob(http.StatusOK, "application/json; charset=utf-8", body)
}

// userDeletePost deletes the account and its results after the password
// is typed again (POST /user/setting/delete), then signs out.
func (s *Server) userDeletePost(c echo.Context) error {
	msg, err := s.Accounts.Delete(c.Request().Context(), httpx.User(c).ID, c.FormValue("password"))
	if err != nil {
		return err
	}
	if msg != "" {
		return s.renderSetting(c, http.StatusUnprocessableEntity, msg)
	}
	if err := s.EndSession(c); err != nil {
		return err
	}
	if err := s.Flash(c, httpx.Tr(c).T("account.setting.deleted")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, httpx.State(c).HomePath())
}

func (s *Server) renderSetting(c echo.Context, status int, msg string) error {
	t := httpx.Tr(c)
	return s.Render(c, status, views.Account(views.AccountPage{
		Title: t.T("account.setting.title"), TestID: "setting-page",
		Forms: []views.AccountForm{
			{Heading: t.T("account.setting.delete_heading"), Text: t.T("account.setting.delete_text"), Action: accountPath(c, "/user/setting/delete"),
				Submit: t.T("account.setting.delete_submit"), TestID: "delete-form", Danger: true, Errors: validate.ErrorOn("password", msg),
				Fields: []views.AccountField{passwordField(c, "password", "account.field.password", "current-password", false)}},
			logoutForm(c),
		},
		Links: append([]views.AccountLink{{Label: t.T("account.setting.export"), Href: accountPath(c, "/user/setting/export"), TestID: "export"}},
			append(userLinks(c), settingLinks(c)...)...),
	}))
}
