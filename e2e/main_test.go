// Package e2e drives the real selfmap binary with a real browser (Chromium,
// through chromedp): the pages a visitor opens, the consent banner and its
// React island, and screenshots at phone and desktop widths.
//
// TestMain builds ./cmd/selfmap, loads the demo data into a fresh SQLite
// database, starts the server on a free loopback port, and stops it with
// SIGTERM at the end; a server that does not exit 0 fails the run, because
// graceful shutdown is a feature too. A test that drives a flow on
// PostgreSQL starts a second server of its own (startPostgresServer).
package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"selfmap/internal/exam"
	"selfmap/internal/site"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/tracking"
)

const (
	// moduleRoot is the repository root, seen from this package's directory.
	moduleRoot = ".."

	startTimeout    = 20 * time.Second
	shutdownTimeout = 25 * time.Second // the server drains for up to 20 s
)

// baseURL is the address of the server that TestMain started, such as
// http://127.0.0.1:43567, with no trailing slash.
var baseURL string

// trackedURL reaches the same server as localhost, a host name whose site
// has ad pixels and analytics tools configured (tracking_test.go).
var trackedURL string

// databaseURL is the server's database, for tests that set state the
// screens do not (a subscription bought elsewhere).
var databaseURL string

// binary is the selfmap binary TestMain built, for the servers tests start.
var binary string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "selfmap-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)

	if binary, err = buildBinary(dir); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	databaseURL = filepath.Join(dir, "e2e.db")
	srv, err := startServer(dir, databaseURL, addTrackedSite)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: the server did not start:", err)
		if srv != nil {
			srv.kill()
			fmt.Fprintf(os.Stderr, "--- server output ---\n%s\n", srv.output())
		}
		return 1
	}
	baseURL = srv.url
	trackedURL = strings.Replace(srv.url, "127.0.0.1", "localhost", 1)

	code := m.Run()

	if err := srv.stop(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: graceful shutdown failed:", err)
		fmt.Fprintf(os.Stderr, "--- server output ---\n%s\n", srv.output())
		return 1
	}
	return code
}

// server is the selfmap process under test.
type server struct {
	cmd  *exec.Cmd
	url  string
	out  *syncBuffer
	done chan struct{} // closed when the process has exited
	err  error         // the result of cmd.Wait, set before done closes
}

// buildBinary builds ./cmd/selfmap into dir.
func buildBinary(dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(moduleRoot, "static", "dist", "manifest.json")); err != nil {
		return "", fmt.Errorf("static/dist/manifest.json is missing: run `make islands` first (make test does): %w", err)
	}
	bin := filepath.Join(dir, "selfmap")
	build := exec.Command("go", "build", "-o", bin, "./cmd/selfmap")
	build.Dir = moduleRoot
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/selfmap: %w\n%s", err, out)
	}
	return bin, nil
}

// startServer starts the binary on a free loopback port over a database
// (a SQLite file or a PostgreSQL URL) with the demo data, after prepare
// (when not nil) has stored what the test needs before the server reads
// it, and waits until it is healthy.
func startServer(dir, dbURL string, prepare func(dbURL string) error) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	s := &server{url: "http://" + addr, out: &syncBuffer{}, done: make(chan struct{})}
	env := []string{
		"ADDR=" + addr,
		"DATA_DIR=" + dir,
		"DATABASE_URL=" + dbURL,
		"BASE_URL=" + s.url,
		"APP_ENV=dev",
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + os.Getenv("HOME"),
	}
	// The demo data gives the landing pages' counters, notices and reviews
	// something to show, as `make run` does.
	seed := exec.Command(binary, "seed")
	seed.Dir, seed.Env = dir, env
	if out, err := seed.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("selfmap seed: %w\n%s", err, out)
	}
	if prepare != nil {
		if err := prepare(dbURL); err != nil {
			return nil, err
		}
	}
	s.cmd = exec.Command(binary, "serve")
	s.cmd.Dir = dir
	s.cmd.Env = env
	s.cmd.Stdout = s.out
	s.cmd.Stderr = s.out
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		s.err = s.cmd.Wait()
		close(s.done)
	}()

	if err := s.waitHealthy(startTimeout); err != nil {
		return s, err
	}
	return s, nil
}

// waitHealthy polls GET /healthz until it answers 200, the process exits, or
// the timeout ends.
func (s *server) waitHealthy(timeout time.Duration) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	lastErr := errors.New("no answer yet")
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("the server exited before it was healthy: %v", s.err)
		default:
		}
		resp, err := client.Get(s.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("GET /healthz: %s", resp.Status)
		}
		lastErr = err
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("GET %s/healthz did not answer 200 within %s: %v", s.url, timeout, lastErr)
}

// stop sends SIGTERM and expects a clean exit (status 0) within
// shutdownTimeout.
func (s *server) stop() error {
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("send SIGTERM: %w", err)
	}
	select {
	case <-s.done:
	case <-time.After(shutdownTimeout):
		s.kill()
		return fmt.Errorf("the server was still running %s after SIGTERM", shutdownTimeout)
	}
	if s.err != nil {
		return fmt.Errorf("the server did not exit cleanly after SIGTERM: %w", s.err)
	}
	return nil
}

// kill ends the process at once and waits for it, bounded.
func (s *server) kill() {
	_ = s.cmd.Process.Kill()
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
	}
}

func (s *server) output() string { return s.out.String() }

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer collects the output of the server, written from the goroutines
// of os/exec and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// addTrackedSite configures the site "localhost" with every kind of
// third-party script, so a test can watch what loads before and after
// consent; 127.0.0.1 stays a site without any.
func addTrackedSite(dbURL string) error {
	ctx := context.Background()
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer st.Close()
	return st.SaveSite(ctx, st.DB, site.Site{Host: "localhost", Theme: "home", Home: exam.DefaultPair, Tracking: tracking.Config{
		Pixels:     map[string]string{"meta": "1234567890", "tiktok": "CTEST123", "snapchat": "snap-1", "bing": "5000000", "kwai": "kw1"},
		TagManager: "GTM-TEST1", SessionReplay: "clar1", BotProtection: "0x4AAAAAAA",
	}})
}

// startPostgresServer starts a server of the test's own on a PostgreSQL
// schema of its own (storetest.PostgresURL: skipped without
// TEST_DATABASE_URL, failed instead under CI=true), and stops it when the
// test ends, before the schema is dropped; it must exit cleanly too.
func startPostgresServer(t *testing.T) *server {
	t.Helper()
	dbURL := storetest.PostgresURL(t)
	srv, err := startServer(t.TempDir(), dbURL, nil)
	if err != nil {
		if srv != nil {
			srv.kill()
			t.Logf("--- server output ---\n%s", srv.output())
		}
		t.Fatalf("the server on PostgreSQL did not start: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.stop(); err != nil {
			t.Errorf("the server on PostgreSQL: graceful shutdown failed: %v\n--- server output ---\n%s", err, srv.output())
		}
	})
	return srv
}

// openDatabase opens the database of TestMain's server, for a test that
// sets state the screens do not; it is closed when the test ends.
func openDatabase(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
