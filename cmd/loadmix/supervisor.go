package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// supervisor runs the server (when loadmix starts it) and follows its
// memory: the peak resident set over every process it ran.
type supervisor struct {
	mu       sync.Mutex
	cmd      *exec.Cmd
	cmdline  string
	log      *os.File
	base     string
	pid      int
	peak     int64
	peakAnon int64
	restarts int
}

// start runs the server command and waits until it answers /healthz.
func (s *supervisor) start(ctx context.Context, cmdline, logPath, base string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cmdline, s.base, s.log = cmdline, base, os.Stderr
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		s.log = f
	}
	return s.spawn(ctx)
}

func (s *supervisor) spawn(ctx context.Context) error {
	cmd := exec.Command("sh", "-c", "exec "+s.cmdline)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start server: %w", err)
	}
	s.cmd, s.pid = cmd, cmd.Process.Pid
	if err := waitHealthy(ctx, s.base, 60*time.Second); err != nil {
		return err
	}
	return nil
}

// waitHealthy polls /healthz until it answers 200 or the limit passes.
func waitHealthy(ctx context.Context, base string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	c := &http.Client{Timeout: time.Second}
	for time.Now().Before(deadline) {
		if resp, err := c.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("server at %s not healthy after %s", base, limit)
}

// killAndRestart SIGKILLs the server and starts it again; it returns when
// the new process answers /healthz.
func (s *supervisor) killAndRestart(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notePeak()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	s.cmd.Wait() //nolint:errcheck // killed on purpose
	s.restarts++
	return s.spawn(context.WithoutCancel(ctx))
}

// stop ends the server it started: SIGTERM, then SIGKILL after 10 s.
func (s *supervisor) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	s.notePeak()
	s.cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // may be gone
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }() //nolint:errcheck // ending
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill() //nolint:errcheck // last resort
		<-done
	}
}

// watchMemory samples the server's peak resident set every 200 ms until
// ctx ends.
func (s *supervisor) watchMemory(ctx context.Context) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		s.mu.Lock()
		s.notePeak()
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// notePeak reads VmHWM (the process's peak resident set) of the current
// server; s.mu is held.
func (s *supervisor) notePeak() {
	if s.pid == 0 {
		return
	}
	hwm, anon := memStatus(s.pid)
	s.peak, s.peakAnon = max(s.peak, hwm), max(s.peakAnon, anon)
}

// peakKB returns the peak resident set (VmHWM: private memory and the
// pages of the binary read so far) and the highest sampled private part
// (RssAnon), in kB.
func (s *supervisor) peakKB() (hwm, anon int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notePeak()
	return s.peak, s.peakAnon
}

// memStatus reads VmHWM and RssAnon, in kB, from /proc/PID/status (0 when
// unreadable).
func memStatus(pid int) (hwm, anon int64) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, rest, _ := strings.Cut(sc.Text(), ":")
		kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		switch key {
		case "VmHWM":
			hwm = kb
		case "RssAnon":
			anon = kb
		}
	}
	return hwm, anon
}
