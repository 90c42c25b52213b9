package httpx

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"selfmap/internal/assets"
	"selfmap/internal/consent"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/islands"
	"selfmap/internal/theme"
	"selfmap/internal/tracking"
	"selfmap/internal/web"
	"selfmap/views"
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

// IsAPIPath reports whether a path belongs to the JSON API, whose errors are
// envelopes instead of pages.
func IsAPIPath(p string) bool {
	return p == "/api" || strings.HasPrefix(p, "/api/") || p == "/pay" || strings.HasPrefix(p, "/pay/")
}

// isUnlocalizedPath reports whether a path has one version for every locale.
func isUnlocalizedPath(p string) bool {
	return p == "/robots.txt" || p == "/sitemap.xml"
}

// LocalPath reports whether a path stays on this site when a browser
// follows it: it starts with one slash, not "//" or "/\\", and holds no
// control character.
func LocalPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") {
		return false
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return false
		}
	}
	return true
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
		if target, ok := englishPrefix(r.URL.Path, r.URL.RawQuery); ok && isSafeMethod(r.Method) {
			return c.Redirect(http.StatusMovedPermanently, target)
		}
		st := s.newRequestState(c)
		original := r.URL.Path
		prefixed, badHL := false, ""
		switch {
		case IsAPIPath(r.URL.Path):
			st.Locale, badHL = apiLocale(r)
			st.Path = r.URL.Path
		case isUnlocalizedPath(r.URL.Path):
			st.Path = r.URL.Path
		default:
			st.Locale, st.Path, prefixed = i18n.SplitPath(r.URL.Path)
			r.URL.Path, r.URL.RawPath = st.Path, ""
		}
		if !LocalPath(st.Path) {
			// "//host" and "/\host" are other sites to a browser: never
			// redirect or link to them; no page lives there.
			st.Path = "/"
			c.SetRequest(r.WithContext(i18n.WithTranslator(web.With(r.Context(), st), s.Catalog.Translator(st.Locale))))
			return NotFound()
		}
		c.SetRequest(r.WithContext(i18n.WithTranslator(web.With(r.Context(), st), s.Catalog.Translator(st.Locale))))
		if len(st.Tracking) > 0 {
			SetPolicy(c)
		}
		if err := s.loadSession(c, st); err != nil {
			return err
		}
		if badHL != "" {
			return badLanguageError{Code: badHL}
		}
		if !IsAPIPath(st.Path) && !isUnlocalizedPath(st.Path) && isSafeMethod(r.Method) {
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
		Now:       s.Deps.Now(),
	}
	trackingConfig := s.Config.Tracking
	if site, ok := s.Sites.Lookup(r.Context(), theme.NormalizeHost(r.Host)); ok {
		st.Theme, st.FromSite = s.SiteTheme(site), true
		trackingConfig = site.Tracking
		st.Home = site.Home
		if u, err := url.Parse(s.Config.BaseURL); err == nil {
			st.BaseURL = u.Scheme + "://" + strings.ToLower(r.Host)
		}
	}
	if !st.FromSite && strings.Contains(r.URL.RawQuery, "theme=") {
		// The funnel keeps the landing page's theme (tracking.KeptParams);
		// a host name's own theme always wins.
		if name := r.URL.Query().Get("theme"); slices.Contains(views.LandingNames, name) {
			if th, ok := s.Themes.Get(name); ok {
				st.Theme = th
			}
		}
	}
	if ck, err := r.Cookie(consent.CookieName); err == nil {
		st.Consent = consent.Parse(ck.Value)
	}
	st.Tracking = tracking.Decide(trackingConfig, st.Consent, r.URL.Query())
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
	uid, _ := sess.Values["uid"].(string)
	st.SignedIn = uid != ""
	st.CSRF = web.MaskCSRF(secret)
	c.Set(csrfSecretKey, secret)
	return nil
}

// checkCSRF refuses a state-changing request that another site sent or that
// lacks the session's token (in the X-CSRF-Token header or the _csrf field
// of the body). A token in the query string is never read: a URL ends up
// in logs, proxies' records, history and Referer headers, and a token
// accepted there invites pages to put it there.
func (s *Server) checkCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if isSafeMethod(r.Method) || isPlatformPath(r.URL.Path) || strings.HasPrefix(r.URL.Path, "/pay/webhook/") {
			// A webhook proves itself with the provider's signature.
			return next(c)
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
			return web.ErrCSRF
		}
		token := r.Header.Get("X-CSRF-Token")
		if token == "" {
			// Reading the form may hit the body limit (a chunked body has no
			// length to refuse up front): that is a 413, not a missing token.
			if _, err := c.FormParams(); err != nil {
				var he *echo.HTTPError
				if errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge {
					return err
				}
			}
			token = r.PostFormValue("_csrf")
		}
		secret, _ := c.Get(csrfSecretKey).([]byte)
		if !web.CheckCSRF(secret, token) {
			return web.ErrCSRF
		}
		return next(c)
	}
}
