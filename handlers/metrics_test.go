package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// prodEnv is a production configuration: the public port of a real
// deployment.
func prodEnv(more map[string]string) map[string]string {
	env := map[string]string{"APP_ENV": "prod", "SESSION_SECRET": strings.Repeat("s", 40), "BASE_URL": "https://selfmap.test"}
	for k, v := range more {
		env[k] = v
	}
	return env
}

// In prod the public port does not serve /metrics: the figures of every
// route, the process and the runtime go to the private listener
// (METRICS_ADDR), whose handler serves them.
func TestMetricsAreNotOnThePublicPortInProd(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		scenario{url: "/metrics", status: http.StatusNotFound, notContain: []string{"selfmap_http_requests_total", "go_goroutines"}}.run(t, e)
		scenario{url: "/fr/metrics", status: http.StatusNotFound, notContain: []string{"go_goroutines"}}.run(t, e)

		a := apptest.New(t, s, apptest.WithEnv(prodEnv(nil)), apptest.WithClock(k.Clock)).App
		a.Handler.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
		rec := httptest.NewRecorder()
		a.Metrics.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `selfmap_http_requests_total{method="GET",route="/",status="200"} 1`) {
			t.Fatalf("private listener: %d %.300s", rec.Code, rec.Body.String())
		}
		rec = httptest.NewRecorder()
		a.Metrics.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("private listener serves / with %d; it serves /metrics alone", rec.Code)
		}
	}, apptest.WithEnv(prodEnv(nil)))
}

// With METRICS_TOKEN set, the public port serves /metrics to a scraper
// that bears the token, and to no one else.
func TestMetricsOnThePublicPortNeedTheBearerToken(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		token := strings.Repeat("m", 40)
		e := apptest.New(t, s, apptest.WithEnv(prodEnv(map[string]string{"METRICS_TOKEN": token}))).Handler
		for name, header := range map[string]string{
			"no header":         "",
			"wrong token":       "Bearer " + strings.Repeat("x", 40),
			"token's prefix":    "Bearer " + token[:20],
			"token with more":   "Bearer " + token + "x",
			"another scheme":    "Basic " + token,
			"the token bare":    token,
			"empty bearer":      "Bearer ",
			"token in the user": "Bearer: " + token,
		} {
			t.Run(name, func(t *testing.T) {
				rec := scenario{url: "/metrics", headers: map[string]string{"Authorization": header}, status: http.StatusUnauthorized,
					notContain: []string{"go_goroutines"}}.run(t, e)
				if !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("WWW-Authenticate = %q", rec.Header().Get("WWW-Authenticate"))
				}
			})
		}
		scenario{url: "/metrics?token=" + token, status: http.StatusUnauthorized}.run(t, e)
		for _, header := range []string{"Bearer " + token, "bearer " + token} {
			scenario{url: "/metrics", headers: map[string]string{"Authorization": header}, status: http.StatusOK,
				contains: []string{"selfmap_http_requests_total", "go_goroutines"}}.run(t, e)
		}
	})
}

// In dev the public port keeps serving /metrics to anyone, as the tests
// read it, unless a token is set.
func TestMetricsStayOnThePublicPortInDev(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		scenario{url: "/metrics", status: http.StatusOK, contains: []string{"go_goroutines"}}.run(t, apptest.New(t, s).Handler)
		guarded := apptest.New(t, s, apptest.WithEnv(map[string]string{"METRICS_TOKEN": strings.Repeat("m", 40)})).Handler
		scenario{url: "/metrics", status: http.StatusUnauthorized}.run(t, guarded)
	})
}
