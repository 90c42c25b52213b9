// Command loadmix drives a realistic mix of visitors against a Selfmap server
// on loopback and reports, per class of request and in total, the request
// rate, p50 and p99 latency, errors, and the server's peak memory.
//
// Each visitor is a browser of its own (cookie jar, CSRF token from the
// page): it opens a landing page; some take the test (question page, item
// list, answers, e-mail step); some of those buy the report on the sandbox
// (create, card, status) and open it. -visitors of them run at once for
// -duration, each starting a new visit as soon as the last one ends (plus
// -think between steps), so the run is bounded in time and loopback only.
//
// With -server, loadmix starts the server itself and can inject faults
// (docs/reliability.md): SIGKILL mid-checkout and restart (-kills), a
// PostgreSQL restart under load (-pg-restart, -pg-restarts), and replays of
// the sandbox's signed webhook deliveries (-replays, -db, -session-secret).
// -json writes what soakcheck needs: fault windows, the times of 5xx answers
// and transport errors, the orders seen paid, and the peak memory.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	var cfg config
	flag.StringVar(&cfg.base, "url", "http://127.0.0.1:8080", "server (loopback only)")
	flag.DurationVar(&cfg.duration, "duration", 20*time.Second, "how long to run")
	flag.IntVar(&cfg.visitors, "visitors", 50, "visitors at once")
	flag.Float64Var(&cfg.testShare, "test", 0.3, "share of visits that take the test")
	flag.Float64Var(&cfg.buyShare, "buy", 0.5, "share of test-takers who buy the report")
	flag.DurationVar(&cfg.think, "think", 0, "a visitor's pause between steps (0: none, a saturation run)")
	flag.IntVar(&cfg.pid, "pid", 0, "server process to read peak memory from (/proc/PID/status VmHWM)")
	flag.StringVar(&cfg.server, "server", "", "command that starts the server (loadmix supervises it; needed for -kills)")
	flag.StringVar(&cfg.serverLog, "server-log", "", "append the server's output to this file (default: loadmix's stderr)")
	flag.IntVar(&cfg.kills, "kills", 0, "SIGKILLs of the server mid-checkout, spread over the run, each followed by a restart")
	flag.StringVar(&cfg.pgRestart, "pg-restart", "", "command that restarts PostgreSQL (run -pg-restarts times under load)")
	flag.IntVar(&cfg.pgRestarts, "pg-restarts", 0, "PostgreSQL restarts under load")
	flag.IntVar(&cfg.replays, "replays", 0, "rounds of webhook replays (every captured delivery, resent signed)")
	flag.StringVar(&cfg.db, "db", "", "the server's DATABASE_URL, to read captured deliveries for -replays")
	flag.StringVar(&cfg.sessionSecret, "session-secret", "", "the server's SESSION_SECRET (the sandbox's webhook key derives from it)")
	flag.StringVar(&cfg.jsonOut, "json", "", "write the run's record (JSON) here")
	flag.StringVar(&cfg.label, "label", "", "a name for the run in the table")
	flag.Parse()
	if u, err := url.Parse(cfg.base); err != nil || !(strings.HasPrefix(u.Host, "127.") || strings.HasPrefix(u.Host, "localhost")) {
		log.Fatal("loadmix sends load to loopback only")
	}
	if cfg.kills > 0 && cfg.server == "" {
		log.Fatal("-kills needs -server")
	}
	if cfg.replays > 0 && (cfg.db == "" || cfg.sessionSecret == "") {
		log.Fatal("-replays needs -db and -session-secret")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rec, err := run(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	rec.print(os.Stdout, cfg.label)
	if cfg.jsonOut != "" {
		buf, _ := json.MarshalIndent(rec, "", "  ")
		if err := os.WriteFile(cfg.jsonOut, buf, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// config is the command line.
type config struct {
	base                string
	duration, think     time.Duration
	visitors            int
	testShare, buyShare float64
	pid                 int
	server, serverLog   string
	kills               int
	pgRestart           string
	pgRestarts, replays int
	db, sessionSecret   string
	jsonOut, label      string
}

// run starts the server when asked, the visitors and the fault injector,
// and gathers the record.
func run(ctx context.Context, cfg config) (*record, error) {
	sup := &supervisor{pid: cfg.pid}
	if cfg.server != "" {
		if err := sup.start(ctx, cfg.server, cfg.serverLog, cfg.base); err != nil {
			return nil, err
		}
		defer sup.stop()
	}
	d, err := newDriver(cfg)
	if err != nil {
		return nil, err
	}
	memCtx, stopMem := context.WithCancel(ctx)
	memDone := make(chan struct{})
	go func() { sup.watchMemory(memCtx); close(memDone) }()
	runCtx, cancel := context.WithTimeout(ctx, cfg.duration)
	defer cancel()
	faultsDone := make(chan []window, 1)
	go func() { faultsDone <- injectFaults(runCtx, cfg, sup, d) }()
	start := time.Now()
	d.run(runCtx)
	wall := time.Since(start)
	windows := <-faultsDone
	stopMem()
	<-memDone
	rec := d.record(start, wall)
	rec.Windows = windows
	rec.PeakRSSKB, rec.PeakAnonKB = sup.peakKB()
	rec.Restarts = sup.restarts
	return rec, nil
}

// logf prints a progress line with the time.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s loadmix: %s\n", time.Now().UTC().Format("15:04:05.000"), fmt.Sprintf(format, args...))
}
