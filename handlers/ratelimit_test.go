package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/app/apptest"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// twoInstances builds two handlers over one database with one session
// secret, as two app processes behind a load balancer are.
func twoInstances(t *testing.T, s *store.Store) (a, b *echo.Echo) {
	env := map[string]string{"SESSION_SECRET": "two instances share this secret, 32+ characters"}
	one := apptest.New(t, s, apptest.WithEnv(env))
	return one.Handler, apptest.New(t, s, apptest.WithEnv(env), apptest.WithClock(one.Clock)).Handler
}

// A visitor whose requests alternate between two instances meets the log-in
// limit at its burst (ten tries), not at twice it; the CSRF token and the
// session cookie of one instance are good on the other. Each try types
// another address, so the account service's per-address lock stays out of
// the way.
func TestAuthLimitIsSharedByInstances(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		a, b := twoInstances(t, s)
		visitor := newBrowser(t, a)
		token := visitor.CSRFToken("/user/login")
		var codes []int
		for i := range 12 {
			visitor.Handler = []*echo.Echo{a, b}[i%2]
			rec := visitor.PostForm("/user/login", url.Values{"_csrf": {token}, "email": {"nobody" + strconv.Itoa(i) + "@example.com"}, "password": {"wrong horse"}})
			codes = append(codes, rec.Code)
		}
		for i, code := range codes {
			if want := http.StatusTooManyRequests; (i < 10) == (code == want) || code == http.StatusForbidden {
				t.Fatalf("try %d of %v: %d (want 429 from the eleventh on, and the token accepted everywhere)", i+1, codes, code)
			}
		}
	})
}

// When the limits' table cannot be read, the limits that guard passwords
// and mailboxes answer as any other database failure (500, logged), and the
// write limit (shared on PostgreSQL, in memory on SQLite) lets the request
// through.
func TestSharedLimitWhenTheDatabaseFails(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		visitor := newBrowser(t, e)
		token := visitor.CSRFToken("/user/login")
		if _, err := s.DB.ExecContext(context.Background(), `DROP TABLE rate_limits`); err != nil {
			t.Fatal(err)
		}
		rec := visitor.PostForm("/user/login", url.Values{"_csrf": {token}, "email": {"ann@example.com"}, "password": {"wrong horse"}})
		if rec.Code != http.StatusInternalServerError {
			t.Errorf("log-in with the limit unchecked: %d, want 500", rec.Code)
		}
		rec = visitor.PostForm("/consent", url.Values{"_csrf": {token}, "choice": {"none"}, "next": {"/"}})
		if rec.Code != http.StatusSeeOther {
			t.Errorf("consent with the write limit unchecked: %d, want 303", rec.Code)
		}
	})
}

// Behind a trusted proxy the limits key on the client it names in
// X-Forwarded-For; from any other peer that header is ignored, so forging
// a new one per request buys no more tries.
func TestLimitsKeyOnTheClientATrustedProxyNames(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		visitor := newBrowser(t, e)
		token := visitor.CSRFToken("/user/login")
		try := func(peer, forwardedFor string, i int) int {
			form := url.Values{"_csrf": {token}, "email": {"nobody" + strconv.Itoa(i) + "@example.com"}, "password": {"wrong horse"}}
			req := httptest.NewRequest(http.MethodPost, "/user/login", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.RemoteAddr = peer + ":40000"
			req.Header.Set("X-Forwarded-For", forwardedFor)
			return visitor.Do(req).Code
		}
		// untilLimited tries as one client until the first 429: the burst
		// is 10 tries, and one more comes back every 12 s the tries take
		// (a loaded machine may take that long).
		untilLimited := func(what, peer string, forwardedFor func(i int) string, base int) {
			t.Helper()
			start := time.Now()
			for i := 0; ; i++ {
				code := try(peer, forwardedFor(i), base+i)
				refills := int(time.Since(start) / (12 * time.Second))
				switch {
				case code == http.StatusTooManyRequests && i < 10:
					t.Fatalf("%s: try %d refused before the burst", what, i+1)
				case code == http.StatusTooManyRequests:
					return
				case i >= 10+refills:
					t.Fatalf("%s: try %d answered %d, want 429 after the burst of 10 (+%d refilled)", what, i+1, code, refills)
				}
			}
		}
		untilLimited("proxied client", "10.0.0.5", func(int) string { return "203.0.113.1" }, 0)
		if code := try("10.0.0.5", "203.0.113.2", 100); code == http.StatusTooManyRequests {
			t.Fatal("another client behind the proxy shares the first one's bucket")
		}
		untilLimited("untrusted peer forging X-Forwarded-For", "198.51.100.9",
			func(i int) string { return "203.0.113." + strconv.Itoa(100+i) }, 200)
	}, apptest.WithEnv(map[string]string{"TRUSTED_PROXIES": "10.0.0.5/32"}))
}
