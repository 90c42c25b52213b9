package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"selfmap/internal/config"
	"selfmap/internal/store/storetest"
)

// listenLog hands the test the addresses serve logs it listens on, by
// message.
type listenLog struct{ addrs chan [2]string }

func (h listenLog) Enabled(context.Context, slog.Level) bool { return true }

func (h listenLog) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "addr" {
			select {
			case h.addrs <- [2]string{r.Message, a.Value.String()}:
			default:
			}
		}
		return true
	})
	return nil
}

func (h listenLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h listenLog) WithGroup(string) slog.Handler      { return h }

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return res.StatusCode, string(body)
}

// In prod the public port answers /metrics with 404 and serve starts a
// second listener (METRICS_ADDR) that serves the same registry; both stop
// on shutdown.
func TestServeKeepsMetricsOffThePublicPortInProd(t *testing.T) {
	// serve would lower this test process's memory limit otherwise.
	t.Setenv("GOMEMLIMIT", "off")
	for name, dbURL := range map[string]func(testing.TB) string{"sqlite": storetest.SQLiteURL, "postgres": storetest.PostgresURL} {
		t.Run(name, func(t *testing.T) {
			vars := map[string]string{"APP_ENV": "prod", "SESSION_SECRET": strings.Repeat("s", 32), "BASE_URL": "https://selfmap.test",
				"ADDR": "127.0.0.1:0", "METRICS_ADDR": "127.0.0.1:0", "DATABASE_URL": dbURL(t), "DATA_DIR": t.TempDir()}
			cfg, err := config.Load(func(k string) string { return vars[k] })
			if err != nil {
				t.Fatal(err)
			}
			logs := listenLog{addrs: make(chan [2]string, 16)}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- serve(ctx, cfg, slog.New(logs)) }()

			var public, metrics string
			timeout := time.After(60 * time.Second)
			for public == "" || metrics == "" {
				select {
				case l := <-logs.addrs:
					switch l[0] {
					case "Selfmap is serving":
						public = "http://" + l[1]
					case "metrics are served apart from the public port":
						metrics = "http://" + l[1]
					}
				case err := <-done:
					t.Fatalf("serve stopped before listening: %v", err)
				case <-timeout:
					t.Fatal("serve did not listen within a minute")
				}
			}

			if code, _ := httpGet(t, public+"/healthz"); code != http.StatusOK {
				t.Fatalf("public /healthz: %d", code)
			}
			if code, body := httpGet(t, public+"/metrics"); code != http.StatusNotFound || strings.Contains(body, "go_goroutines") {
				t.Errorf("public /metrics: %d %.200s", code, body)
			}
			code, body := httpGet(t, metrics+"/metrics")
			if code != http.StatusOK || !strings.Contains(body, `selfmap_http_requests_total{method="GET",route="/healthz",status="200"} 1`) {
				t.Errorf("metrics listener: %d %.300s", code, body)
			}

			cancel()
			if err := <-done; err != nil {
				t.Fatalf("serve: %v", err)
			}
			if res, err := http.Get(metrics + "/metrics"); err == nil {
				res.Body.Close()
				t.Error("the metrics listener still answers after shutdown")
			}
		})
	}
}
