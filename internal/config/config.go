// Package config reads the service's configuration once, from the environment.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"selfmap/internal/tracking"
	"selfmap/internal/validate"
)

// Environments the service knows.
const (
	EnvDev  = "dev"
	EnvProd = "prod"
)

// Config is everything the binary reads from its environment. It is built once
// at start-up and passed down; nothing else reads os.Getenv.
type Config struct {
	// Addr is the listen address of the HTTP server (ADDR).
	Addr string
	// DatabaseURL is a postgres:// URL or a SQLite file path (DATABASE_URL).
	DatabaseURL string
	// BaseURL is the public origin used for canonical links and sitemaps (BASE_URL).
	BaseURL string
	// Env is dev or prod (APP_ENV).
	Env string
	// PaymentProvider is sandbox or stripe (PAYMENT_PROVIDER).
	PaymentProvider string
	// MailURL is the SMTP URL; empty keeps mail in the dev outbox (MAIL_URL).
	MailURL string
	// MailFrom is the sender of every e-mail (MAIL_FROM).
	MailFrom string
	// SupportEmail receives the contact form's messages (SUPPORT_EMAIL).
	SupportEmail string
	// SessionSecret signs session cookies (SESSION_SECRET); in dev it is
	// generated once and kept in DataDir when unset.
	SessionSecret string
	// DataDir holds the SQLite file and the dev session secret (DATA_DIR).
	DataDir string
	// ShutdownTimeout bounds how long in-flight requests may drain on SIGTERM.
	ShutdownTimeout time.Duration
	// LogLevel is debug, info, warn or error (LOG_LEVEL).
	LogLevel string
	// Tracking is what third-party scripts a host without a site of its own
	// loads after consent (TRACKING, JSON as internal/tracking.Config;
	// default: none).
	Tracking tracking.Config
	// ChromiumPath is the browser that prints the PDF reports
	// (CHROMIUM_PATH; default: chromium on the PATH).
	ChromiumPath string
	// StripeSecretKey and StripeWebhookSecret configure the stripe provider
	// (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET); StripePublishableKey
	// (STRIPE_PUBLISHABLE_KEY) is the one key the browser sees, for the
	// Payment Element; StripeAPIBase points the server elsewhere than
	// Stripe, e.g. at stripe-mock (STRIPE_API_BASE).
	StripeSecretKey      string
	StripeWebhookSecret  string
	StripePublishableKey string
	StripeAPIBase        string
	// RateLimitScale multiplies every rate limit (RATE_LIMIT_SCALE, default
	// 1); load tests on loopback raise it, since all their buyers share one
	// address.
	RateLimitScale float64
	// MetricsAddr is where /metrics is served apart from the public port
	// (METRICS_ADDR; default DefaultMetricsAddr in prod, none in dev; "off"
	// for none). It answers without a token, so it belongs on loopback or a
	// private network.
	MetricsAddr string
	// MetricsToken, when set, serves /metrics on the public port too, to a
	// request that bears it (METRICS_TOKEN, Authorization: Bearer, 32+
	// characters). Without one, the public port serves /metrics in dev only.
	MetricsToken string
	// TrustedProxies are the networks whose X-Forwarded-For is believed
	// (TRUSTED_PROXIES, comma-separated CIDRs); empty means the peer address
	// is the client.
	TrustedProxies []*net.IPNet
}

// DefaultMetricsAddr is METRICS_ADDR in prod when unset: loopback, and not
// 9090, where a Prometheus scraping this machine listens itself; 9464 is the
// port OpenTelemetry's Prometheus exporter gives an application's own
// metrics.
const DefaultMetricsAddr = "127.0.0.1:9464"

// metricsTokenLen is the shortest METRICS_TOKEN accepted: the token guards
// the figures of every route on the public port, so it must not be guessable.
const metricsTokenLen = 32

// FromEnv reads the configuration from the process environment.
func FromEnv() (Config, error) {
	return Load(os.Getenv)
}

// Load builds a Config from a lookup function, so tests need not touch the
// process environment.
func Load(getenv func(string) string) (Config, error) {
	get := func(key, def string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return def
	}
	c := Config{
		Addr:                 get("ADDR", ":8080"),
		DataDir:              get("DATA_DIR", "data"),
		Env:                  get("APP_ENV", EnvDev),
		PaymentProvider:      get("PAYMENT_PROVIDER", "sandbox"),
		MailURL:              get("MAIL_URL", ""),
		MailFrom:             get("MAIL_FROM", "Selfmap <no-reply@selfmap.localhost>"),
		SupportEmail:         get("SUPPORT_EMAIL", "support@selfmap.localhost"),
		SessionSecret:        get("SESSION_SECRET", ""),
		LogLevel:             get("LOG_LEVEL", "info"),
		StripeSecretKey:      get("STRIPE_SECRET_KEY", ""),
		StripeWebhookSecret:  get("STRIPE_WEBHOOK_SECRET", ""),
		StripePublishableKey: get("STRIPE_PUBLISHABLE_KEY", ""),
		ChromiumPath:         get("CHROMIUM_PATH", ""),
		StripeAPIBase:        get("STRIPE_API_BASE", ""),
		MetricsToken:         get("METRICS_TOKEN", ""),
		ShutdownTimeout:      20 * time.Second,
	}
	c.DatabaseURL = get("DATABASE_URL", c.DataDir+"/selfmap.db")
	c.BaseURL = strings.TrimRight(get("BASE_URL", "http://localhost"+portOf(c.Addr)), "/")

	var errs []error
	c.MetricsAddr = get("METRICS_ADDR", "")
	switch {
	case c.MetricsAddr == "off":
		c.MetricsAddr = ""
	case c.MetricsAddr == "" && c.Env == EnvProd:
		c.MetricsAddr = DefaultMetricsAddr
	case c.MetricsAddr != "":
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			errs = append(errs, fmt.Errorf("METRICS_ADDR must be host:port or off, got %q", c.MetricsAddr))
		}
	}
	if c.MetricsToken != "" && len(c.MetricsToken) < metricsTokenLen {
		errs = append(errs, fmt.Errorf("METRICS_TOKEN must be at least %d characters", metricsTokenLen))
	}
	c.RateLimitScale = 1
	if v := get("RATE_LIMIT_SCALE", ""); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			errs = append(errs, fmt.Errorf("RATE_LIMIT_SCALE must be a positive number, got %q", v))
		} else {
			c.RateLimitScale = f
		}
	}
	for _, cidr := range strings.Split(get("TRUSTED_PROXIES", ""), ",") {
		if cidr = strings.TrimSpace(cidr); cidr == "" {
			continue
		}
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			errs = append(errs, fmt.Errorf("TRUSTED_PROXIES: %w", err))
			continue
		}
		c.TrustedProxies = append(c.TrustedProxies, n)
	}
	if _, msg := validate.Email(c.SupportEmail); msg != "" {
		errs = append(errs, fmt.Errorf("SUPPORT_EMAIL must be a bare e-mail address, got %q", c.SupportEmail))
	}
	if c.Env != EnvDev && c.Env != EnvProd {
		errs = append(errs, fmt.Errorf("APP_ENV must be %q or %q, got %q", EnvDev, EnvProd, c.Env))
	}
	if c.PaymentProvider != "sandbox" && c.PaymentProvider != "stripe" {
		errs = append(errs, fmt.Errorf("PAYMENT_PROVIDER must be sandbox or stripe, got %q", c.PaymentProvider))
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("BASE_URL must be an absolute http(s) URL, got %q", c.BaseURL))
	}
	if c.PaymentProvider == "stripe" && (c.StripeSecretKey == "" || c.StripeWebhookSecret == "" || c.StripePublishableKey == "") {
		errs = append(errs, errors.New("PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY"))
	}
	if c.StripePublishableKey != "" && !strings.HasPrefix(c.StripePublishableKey, "pk_") {
		errs = append(errs, errors.New("STRIPE_PUBLISHABLE_KEY must be a publishable key (pk_...): the browser sees it"))
	}
	if tr, err := tracking.Parse(get("TRACKING", "")); err != nil {
		errs = append(errs, fmt.Errorf("TRACKING: %w", err))
	} else {
		c.Tracking = tr
	}
	if c.Env == EnvProd && len(c.SessionSecret) < 32 {
		errs = append(errs, errors.New("SESSION_SECRET must be set to at least 32 characters in prod"))
	}
	return c, errors.Join(errs...)
}

// Dev reports whether the service runs in development mode.
func (c Config) Dev() bool { return c.Env == EnvDev }

// SecureCookies reports whether cookies must carry the Secure flag: always in
// prod, and whenever the public origin is https.
func (c Config) SecureCookies() bool {
	return c.Env == EnvProd || strings.HasPrefix(c.BaseURL, "https://")
}

func portOf(addr string) string {
	if i := strings.LastIndex(addr, ":"); i >= 0 {
		return addr[i:]
	}
	return ""
}
