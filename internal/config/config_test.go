package config

import (
	"strings"
	"testing"
)

func load(t *testing.T, vars map[string]string) (Config, error) {
	t.Helper()
	return Load(func(k string) string { return vars[k] })
}

func prod(more map[string]string) map[string]string {
	vars := map[string]string{"APP_ENV": EnvProd, "SESSION_SECRET": strings.Repeat("s", 32)}
	for k, v := range more {
		vars[k] = v
	}
	return vars
}

// In prod /metrics gets a listener of its own on loopback unless told
// otherwise; in dev there is none, and the public port serves it.
func TestMetricsAddrIsLoopbackInProdByDefault(t *testing.T) {
	for name, tc := range map[string]struct {
		vars map[string]string
		want string
	}{
		"prod":                 {prod(nil), DefaultMetricsAddr},
		"prod, chosen address": {prod(map[string]string{"METRICS_ADDR": "10.0.0.11:9464"}), "10.0.0.11:9464"},
		"prod, off":            {prod(map[string]string{"METRICS_ADDR": "off", "METRICS_TOKEN": strings.Repeat("m", 32)}), ""},
		"dev":                  {nil, ""},
		"dev, chosen address":  {map[string]string{"METRICS_ADDR": "127.0.0.1:0"}, "127.0.0.1:0"},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := load(t, tc.vars)
			if err != nil {
				t.Fatal(err)
			}
			if c.MetricsAddr != tc.want {
				t.Errorf("MetricsAddr = %q, want %q", c.MetricsAddr, tc.want)
			}
		})
	}
	if !strings.HasPrefix(DefaultMetricsAddr, "127.0.0.1:") {
		t.Errorf("DefaultMetricsAddr %q is not loopback", DefaultMetricsAddr)
	}
}

// A metrics address that cannot be listened on, or a token short enough
// to guess, stops the start instead of exposing or losing the figures.
func TestMetricsSettingsAreChecked(t *testing.T) {
	for name, vars := range map[string]map[string]string{
		"address without a port": prod(map[string]string{"METRICS_ADDR": "127.0.0.1"}),
		"short token":            prod(map[string]string{"METRICS_TOKEN": "letmein"}),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := load(t, vars); err == nil || !strings.Contains(err.Error(), "METRICS_") {
				t.Errorf("accepted: %v", err)
			}
		})
	}
	c, err := load(t, prod(map[string]string{"METRICS_TOKEN": strings.Repeat("m", 32)}))
	if err != nil || c.MetricsToken != strings.Repeat("m", 32) {
		t.Errorf("a 32-character token: %q, %v", c.MetricsToken, err)
	}
}
