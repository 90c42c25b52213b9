package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/internal/assets"
	"selfmap/internal/consent"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/islands"
	"selfmap/internal/theme"
	"selfmap/internal/web"
)

const (
	// localeCookie keeps an explicit language choice.
	localeCookie = "i18n_redirected"
	// sessionName is the signed, encrypted session cookie.
	sessionName = "sm_session"
	// csrfSecretKey is where the request's CSRF secret travels in the echo
	// context, from requestState to checkCSRF.
	csrfSecretKey = "csrf_secret"
)

// isPlatformPath reports whether a path is served without locale, theme or
// session: assets and operational endpoints.
func isPlatformPath(p string) bool {
	return strings.HasPrefix(p, assets.Prefix) || strings.HasPrefix(p, islands.Prefix) ||
		p == "/healthz" || p == "/metrics" || p == "/favicon.ico"
}

// isAPIPath reports whether a path belongs to the JSON API, whose errors are
// envelopes instead of pages.
func isAPIPath(p string) bool {
	return p == "/api" || strings.HasPrefix(p, "/api/") || p == "/pay" || strings.HasPrefix(p, "/pay/")
}

// isUnlocalizedPath reports whether a path has one version for every locale.
func isUnlocalizedPath(p string) bool {
	return p == "/robots.txt" || p == "/sitemap.xml"
}

// requestState works out the request's locale, site, theme, consent and CSRF
// token, strips the locale prefix so that routes are declared once, and
// redirects to the right locale when the visitor asked for another.
func (s *Server) requestState(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if isPlatformPath(r.URL.Path) {
			return next(c)
		}
		st := s.newRequestState(c)
		original := r.URL.Path
		prefixed, badHL := false, ""
		switch {
		case isAPIPath(r.URL.Path):
			st.Locale, badHL = apiLocale(r)
			st.Path = r.URL.Path
		case isUnlocalizedPath(r.URL.Path):
			st.Path = r.URL.Path
		default:
			st.Locale, st.Path, prefixed = i18n.SplitPath(r.URL.Path)
			r.URL.Path, r.URL.RawPath = st.Path, ""
		}
		c.SetRequest(r.WithContext(i18n.WithTranslator(web.With(r.Context(), st), s.Catalog.Translator(st.Locale))))
		if err := s.loadSession(c, st); err != nil {
			return err
		}
		if badHL != "" {
			return badLanguageError{Code: badHL}
		}
		if !isAPIPath(st.Path) && !isUnlocalizedPath(st.Path) && isSafeMethod(r.Method) {
			if target, err := s.negotiateLocale(c, st, prefixed); err != nil || target != "" {
				if err != nil {
					return err
				}
				return c.Redirect(http.StatusFound, target)
			}
			if prefixed && original == st.Locale.Prefix {
				return c.Redirect(http.StatusMovedPermanently, st.WithQuery(st.Locale.Prefix+"/"))
			}
		}
		return next(c)
	}
}

// newRequestState starts the request's state from its host name and cookies.
func (s *Server) newRequestState(c echo.Context) *web.Request {
	r := c.Request()
	st := &web.Request{
		Locale:    i18n.Default,
		Query:     r.URL.RawQuery,
		BaseURL:   s.Config.BaseURL,
		Theme:     s.Themes.Default(),
		Home:      exam.DefaultPair,
		Static:    s.static,
		RequestID: c.Response().Header().Get(echo.HeaderXRequestID),
	}
	if site, ok := s.Sites.Lookup(r.Context(), theme.NormalizeHost(r.Host)); ok {
		st.Theme, st.FromSite = s.siteTheme(site), true
		st.Home = site.Home
		if u, err := url.Parse(s.Config.BaseURL); err == nil {
			st.BaseURL = u.Scheme + "://" + strings.ToLower(r.Host)
		}
	}
	if ck, err := r.Cookie(consent.CookieName); err == nil {
		st.Consent = consent.Parse(ck.Value)
	}
	return st
}

// loadSession reads the session cookie for the CSRF secret and a flash
// message, creating the secret on a first visit.
func (s *Server) loadSession(c echo.Context, st *web.Request) error {
	// A cookie that no longer decodes (an old key, tampering) yields a new,
	// empty session, which is the right outcome: the error is not the
	// visitor's to see.
	sess, _ := s.Sessions.Get(c.Request(), sessionName)
	dirty := false
	secret, ok := sess.Values["csrf"].([]byte)
	if !ok || len(secret) == 0 {
		secret = web.NewCSRFSecret()
		sess.Values["csrf"] = secret
		dirty = true
	}
	if flashes := sess.Flashes(); len(flashes) > 0 {
		st.Flash, _ = flashes[0].(string)
		dirty = true
	}
	if dirty {
		if err := sess.Save(c.Request(), c.Response()); err != nil {
			return err
		}
	}
	st.CSRF = web.MaskCSRF(secret)
	c.Set(csrfSecretKey, secret)
	return nil
}

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

// checkCSRF refuses a state-changing request that another site sent or that
// lacks the session's token (in the X-CSRF-Token header or the _csrf field).
func (s *Server) checkCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if isSafeMethod(r.Method) || isPlatformPath(r.URL.Path) {
			return next(c)
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
			return web.ErrCSRF
		}
		token := r.Header.Get("X-CSRF-Token")
		if token == "" {
			token = c.FormValue("_csrf")
		}
		secret, _ := c.Get(csrfSecretKey).([]byte)
		if !web.CheckCSRF(secret, token) {
			return web.ErrCSRF
		}
		return next(c)
	}
}
