package httpx

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/internal/i18n"
	"selfmap/internal/web"
)

// negotiateLocale applies hl > cookie > Accept-Language > en and returns the
// URL to redirect to, or "" to serve the request as it is. An explicit hl is
// stored in the locale cookie; a prefixed path is served in its own locale,
// so every alternate URL is reachable whatever the cookie says.
func (s *Server) negotiateLocale(c echo.Context, st *web.Request, prefixed bool) (string, error) {
	r := c.Request()
	if hl := r.URL.Query().Get("hl"); hl != "" {
		want, ok := i18n.BySpec(hl)
		if !ok {
			return "", badLanguageError{Code: hl}
		}
		c.SetCookie(&http.Cookie{
			Name: localeCookie, Value: want.Tag, Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()),
			Secure: s.Config.SecureCookies(), HttpOnly: true, SameSite: http.SameSiteLaxMode,
		})
		if want.Tag != st.Locale.Tag {
			return st.WithQuery(want.Path(st.Path)), nil
		}
		return "", nil
	}
	if prefixed {
		return "", nil
	}
	c.Response().Header().Add("Vary", "Cookie, Accept-Language")
	want := i18n.Default
	if ck, err := r.Cookie(localeCookie); err == nil {
		if l, ok := i18n.ByTag(ck.Value); ok {
			want = l
		}
	} else if l, ok := i18n.FromAcceptLanguage(r.Header.Get("Accept-Language")); ok {
		want = l
	}
	if want.Tag != st.Locale.Tag {
		return st.WithQuery(want.Path(st.Path)), nil
	}
	return "", nil
}

// apiLocale reads the hl query parameter or header of an API call; a
// missing one means the default locale, and an unknown one is returned as
// bad so the call can be refused.
func apiLocale(r *http.Request) (i18n.Locale, string) {
	hl := r.URL.Query().Get("hl")
	if hl == "" {
		hl = r.Header.Get("hl")
	}
	if hl == "" {
		return i18n.Default, ""
	}
	if l, ok := i18n.BySpec(hl); ok {
		return l, ""
	}
	return i18n.Default, hl
}
