package site

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/views"
)

// settingLinks are the settings page's links beside the account screens
// (/user/setting and /userCenter/setting show the same page): the
// profile picture, the help centre and the legal documents.
func settingLinks(c echo.Context) []views.AccountLink {
	home := httpx.State(c).Home.String()
	return []views.AccountLink{
		link(c, "account.field.avatar", "/userCenter/user-info", "link-avatar"),
		link(c, "billing.title", "/userCenter/setting/billing", "link-billing"),
		link(c, "footer.help", "/help/"+home, "link-help"),
		link(c, "links.privacy", "/legal/privacy/"+home, "link-privacy"),
		link(c, "links.terms", "/legal/terms/"+home, "link-terms"),
	}
}
