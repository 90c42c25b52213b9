package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sync"
	"time"

	"selfmap/internal/payment"
	"selfmap/internal/store"
)

// Fault kinds, as windows name them. soakcheck forgives 5xx answers inside
// kill and pg-restart windows only: a replay must never cause one.
const (
	faultKill      = "kill"
	faultPGRestart = "pg-restart"
	faultReplay    = "replay"
)

// injectFaults spreads the asked faults evenly over the run and returns
// their windows when ctx ends. Kills and database restarts alternate on one
// schedule; replays have their own, so a slow replay round (thousands of
// deliveries on a busy machine) does not push the kills past the run's end.
func injectFaults(ctx context.Context, cfg config, sup *supervisor, d *driver) []window {
	var outages []string
	for k, p := cfg.kills, cfg.pgRestarts; k+p > 0; {
		if k > 0 {
			outages, k = append(outages, faultKill), k-1
		}
		if p > 0 {
			outages, p = append(outages, faultPGRestart), p-1
		}
	}
	var replays []string
	for range cfg.replays {
		replays = append(replays, faultReplay)
	}
	var mu sync.Mutex
	var windows []window
	var wg sync.WaitGroup
	// Replays run half an outage interval off the outages' beats: on one
	// beat a replay round would read the captured deliveries while
	// PostgreSQL restarts, or send them to a killed server (the 09:45 soak
	// lost its three rounds that way).
	shifts := []time.Duration{0, cfg.duration / time.Duration(len(outages)+1) / 2}
	for i, plan := range [][]string{outages, replays} {
		wg.Go(func() {
			for _, w := range schedule(ctx, cfg, sup, d, plan, shifts[i]) {
				mu.Lock()
				windows = append(windows, w)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.SortFunc(windows, func(a, b window) int { return a.Start.Compare(b.Start) })
	return windows
}

// schedule injects the faults of plan at equal intervals over the run,
// each shift early.
func schedule(ctx context.Context, cfg config, sup *supervisor, d *driver, plan []string, shift time.Duration) []window {
	if len(plan) == 0 {
		return nil
	}
	every := cfg.duration / time.Duration(len(plan)+1)
	var windows []window
	start := time.Now()
	for i, kind := range plan {
		sleep(ctx, time.Until(start.Add(time.Duration(i+1)*every-shift)))
		if ctx.Err() != nil {
			break
		}
		w, err := inject(ctx, cfg, sup, d, kind)
		if err != nil {
			logf("fault %s: %v", kind, err)
		}
		if !w.Start.IsZero() {
			windows = append(windows, w)
			logf("fault %s for %s", kind, w.End.Sub(w.Start).Round(time.Millisecond))
		}
	}
	return windows
}

func inject(ctx context.Context, cfg config, sup *supervisor, d *driver, kind string) (window, error) {
	w := window{Kind: kind}
	var err error
	switch kind {
	case faultKill:
		// Wait (at most 10 s) for a buyer between create and confirm.
		select {
		case <-d.midCheckout:
		case <-time.After(10 * time.Second):
		case <-ctx.Done():
			return w, nil
		}
		w.Start = time.Now().UTC()
		err = sup.killAndRestart(ctx)
	case faultPGRestart:
		w.Start = time.Now().UTC()
		cmd := exec.CommandContext(context.WithoutCancel(ctx), "sh", "-c", cfg.pgRestart)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err = cmd.Run(); err == nil {
			err = waitHealthy(context.WithoutCancel(ctx), cfg.base, 60*time.Second)
		}
	case faultReplay:
		w.Start = time.Now().UTC()
		err = replay(context.WithoutCancel(ctx), cfg, d)
	}
	w.End = time.Now().UTC()
	return w, err
}

// maxReplays bounds one round of replays.
const maxReplays = 500

// replay resends the sandbox's captured deliveries (the events recorded in
// payment_events), signed afresh as a provider signs a retry: each once as
// it was, and each success once more under a new event id, as a provider
// that sends one outcome twice. Neither may change anything.
func replay(ctx context.Context, cfg config, d *driver) error {
	events, err := capturedDeliveries(ctx, cfg)
	if err != nil {
		return err
	}
	return resend(ctx, cfg, d, events)
}

// capturedDelivery is a sandbox event as payment_events recorded it, with
// its attempt.
type capturedDelivery struct {
	EventID     string        `db:"event_id"`
	Kind        string        `db:"kind"`
	AttemptID   string        `db:"attempt_id"`
	Ref         store.NullStr `db:"provider_ref"`
	Amount      int64         `db:"amount"`
	Currency    string        `db:"currency"`
	FailureCode store.NullStr `db:"failure_code"`
}

// capturedDeliveries reads the newest maxReplays sandbox deliveries. The
// database may be restarting (another fault): it tries again for up to 30 s.
func capturedDeliveries(ctx context.Context, cfg config) ([]capturedDelivery, error) {
	var err error
	for try := 0; try < 30; try++ {
		if try > 0 {
			sleep(ctx, time.Second)
		}
		var events []capturedDelivery
		if events, err = readDeliveries(ctx, cfg); err == nil {
			return events, nil
		}
	}
	return nil, fmt.Errorf("read captured deliveries: %w", err)
}

func readDeliveries(ctx context.Context, cfg config) ([]capturedDelivery, error) {
	st, err := store.Open(ctx, cfg.db)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var events []capturedDelivery
	err = st.DB.SelectContext(ctx, &events, st.DB.Rebind(`SELECT e.event_id, e.kind, a.id AS attempt_id, a.provider_ref,
		a.amount, a.currency, a.failure_code FROM payment_events e JOIN payment_attempts a ON a.id = e.attempt_id
		WHERE e.provider = 'sandbox' AND e.event_id LIKE 'evt_%' ORDER BY e.received_at DESC LIMIT ?`), maxReplays)
	return events, err
}

// resend sends each delivery again, then each success under a new id.
func resend(ctx context.Context, cfg config, d *driver, events []capturedDelivery) error {
	key := sha256.Sum256([]byte("selfmap sandbox webhook\x00" + cfg.sessionSecret))
	secret := hex.EncodeToString(key[:])
	c := &http.Client{Transport: d.transport, Timeout: 10 * time.Second}
	send := func(ev map[string]any) {
		payload, _ := json.Marshal(ev)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, cfg.base+"/pay/webhook/sandbox", bytes.NewReader(payload))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(payment.SandboxSignatureHeader, payment.Sign(secret, payload, time.Now()))
		start := time.Now()
		resp, err := c.Do(req)
		s := sample{class: "webhook", at: start, latency: time.Since(start)}
		d.mu.Lock()
		defer d.mu.Unlock()
		d.replays.Sent++
		switch {
		case err != nil:
			s.failed, s.err = true, err.Error()
		case resp.StatusCode == http.StatusOK:
			d.replays.Accepted++
			s.status = resp.StatusCode
		default:
			d.replays.Refused++
			s.failed, s.status, s.err = true, resp.StatusCode, "webhook replay refused"
		}
		if resp != nil {
			resp.Body.Close()
		}
		d.samples = append(d.samples, s)
	}
	// Four senders, as a provider retries several deliveries at once.
	queue := make(chan map[string]any)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for ev := range queue {
				send(ev)
			}
		})
	}
	for i, e := range events {
		ev := map[string]any{"id": e.EventID, "type": e.Kind, "ref": e.Ref.String, "attemptId": e.AttemptID,
			"amount": e.Amount, "currency": e.Currency}
		if e.FailureCode.String != "" {
			ev["failureCode"] = e.FailureCode.String
		}
		queue <- ev
		if e.Kind == string(payment.EventSucceeded) {
			again := maps.Clone(ev)
			again["id"] = fmt.Sprintf("evt_replay_%d_%d", time.Now().UnixNano(), i)
			queue <- again
		}
	}
	close(queue)
	wg.Wait()
	return nil
}
