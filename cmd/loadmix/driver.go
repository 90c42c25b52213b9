package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Classes of request, as the record reports them.
const (
	classLanding   = "landing"
	classQuestions = "questions"
	classSubmit    = "submit"
	classCheckout  = "checkout"
	classReport    = "report"
)

var classes = []string{classLanding, classQuestions, classSubmit, classCheckout, classReport, "webhook"}

// landings are the pages a visit starts on.
var landings = []string{"/", "/landing/home/BMBTI-1807", "/ja/landing/relax/BMBTI-1807", "/types/BMBTI-1807"}

var csrfRE = regexp.MustCompile(`name="_csrf" value="([^"]+)"|"csrf":"([^"]+)"`)

// sample is one request's outcome.
type sample struct {
	class   string
	at      time.Time
	latency time.Duration
	status  int
	failed  bool
	err     string
}

// driver runs the visitors and keeps every sample.
type driver struct {
	cfg        config
	transport  *http.Transport
	submission []byte

	// midCheckout receives, without blocking, a signal from a buyer whose
	// payment is created and not yet confirmed: the moment a kill hurts.
	midCheckout chan struct{}

	mu      sync.Mutex
	samples []sample
	paid    []string
	bought  int
	replays replayCount
}

func newDriver(cfg config) (*driver, error) {
	d := &driver{cfg: cfg, transport: &http.Transport{MaxIdleConnsPerHost: cfg.visitors * 2, MaxIdleConns: cfg.visitors * 4},
		midCheckout: make(chan struct{})}
	var q struct {
		Data struct {
			Version   string
			Questions []struct{ ID string }
		}
	}
	resp, err := http.Get(cfg.base + "/api/exam/question/list/1807/EN")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&q); err != nil || len(q.Data.Questions) == 0 {
		return nil, fmt.Errorf("question list: HTTP %d, %v", resp.StatusCode, err)
	}
	answers := make([]map[string]any, len(q.Data.Questions))
	for i, it := range q.Data.Questions {
		answers[i] = map[string]any{"id": it.ID, "value": i%5 + 1}
	}
	d.submission, _ = json.Marshal(map[string]any{"examId": 1807, "code": "BMBTI", "version": q.Data.Version,
		"answers": answers, "durationSeconds": 600})
	return d, nil
}

// run keeps cfg.visitors visits going until ctx ends.
func (d *driver) run(ctx context.Context) {
	var wg sync.WaitGroup
	for range d.cfg.visitors {
		wg.Go(func() {
			for ctx.Err() == nil {
				d.visit(ctx)
			}
		})
	}
	wg.Wait()
}

// visitor is one browser: its own cookies and CSRF token.
type visitor struct {
	d     *driver
	c     *http.Client
	token string
}

// visit is one visitor from a landing page to, sometimes, a paid report.
// A failed step ends the visit, as a person would leave; a buyer retries a
// failed card confirmation a few times, as a person presses again.
func (d *driver) visit(ctx context.Context) {
	jar, _ := cookiejar.New(nil)
	v := &visitor{d: d, c: &http.Client{Transport: d.transport, Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	page, ok := v.get(ctx, classLanding, landings[rand.N(len(landings))])
	if !ok {
		// A page that failed to load: a person waits a moment before trying
		// again, rather than hammering a server that is down.
		sleep(ctx, 250*time.Millisecond)
		return
	}
	if m := csrfRE.FindSubmatch(page); m != nil {
		v.token = string(m[1]) + string(m[2])
	}
	if rand.Float64() >= d.cfg.testShare || v.token == "" {
		return
	}
	d.pause(ctx)
	if _, ok := v.get(ctx, classQuestions, "/answer/question/BMBTI-1807"); !ok {
		return
	}
	if _, ok := v.get(ctx, classQuestions, "/api/exam/question/list/1807/EN"); !ok {
		return
	}
	d.pause(ctx)
	var sub struct{ ResultID, OrderNumber string }
	if !v.api(ctx, classSubmit, "/api/exam/order/info", d.submission, &sub) {
		return
	}
	email := "load+" + sub.ResultID + "@example.com"
	form := url.Values{"step": {"email"}, "email": {email}, "_csrf": {v.token}}
	if !v.post(ctx, classSubmit, "/answer/email/BMBTI-1807?r="+sub.ResultID, "application/x-www-form-urlencoded",
		[]byte(form.Encode()), http.StatusSeeOther) {
		return
	}
	if rand.Float64() >= d.cfg.buyShare {
		return
	}
	d.pause(ctx)
	v.buy(ctx, sub.ResultID, sub.OrderNumber, email)
}

// buy creates the payment, pays with 4242 4242 4242 4242, checks the
// status and opens the report.
func (v *visitor) buy(ctx context.Context, resultID, orderNumber, email string) {
	d := v.d
	body, _ := json.Marshal(map[string]string{"orderNumber": orderNumber, "skuId": "mbti-report", "email": email})
	var created struct{ AttemptID string }
	if !v.api(ctx, classCheckout, "/pay/pay/order/create", body, &created) {
		return
	}
	d.mu.Lock()
	d.bought++
	d.mu.Unlock()
	select {
	case d.midCheckout <- struct{}{}:
		// The fault injector took its moment: let it act before paying.
		time.Sleep(50 * time.Millisecond)
	default:
	}
	d.pause(ctx)
	card, _ := json.Marshal(map[string]any{"attemptId": created.AttemptID, "number": "4242424242424242", "expMonth": 12,
		"expYear": 2030, "cvc": "123", "name": "Load Test", "postalCode": "10115"})
	var out struct{ Status string }
	paid := false
	// A buyer presses again when the page fails (at most five times, a
	// second apart): the sandbox answers a paid attempt as paid.
	for try := 0; try < 5; try++ {
		if try > 0 {
			sleep(context.WithoutCancel(ctx), time.Second)
		}
		if v.api(context.WithoutCancel(ctx), classCheckout, "/pay/sandbox/confirm", card, &out) {
			paid = out.Status == "succeeded"
			break
		}
	}
	if !paid {
		return
	}
	d.mu.Lock()
	d.paid = append(d.paid, orderNumber)
	d.mu.Unlock()
	status, _ := json.Marshal(map[string]string{"orderNumber": orderNumber})
	var st struct{ Status string }
	if !v.api(ctx, classCheckout, "/pay/pay/check/status", status, &st) {
		return
	}
	if st.Status == "paid" {
		d.pause(ctx)
		v.get(ctx, classReport, "/report/result/BMBTI-1807?r="+resultID)
	}
}

func (d *driver) pause(ctx context.Context) {
	if d.cfg.think > 0 {
		sleep(ctx, d.cfg.think/2+rand.N(d.cfg.think))
	}
}

func sleep(ctx context.Context, dur time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(dur):
	}
}

// get loads a page and expects 200.
func (v *visitor) get(ctx context.Context, class, path string) ([]byte, bool) {
	// The transport asks for gzip and inflates the answer, as a browser.
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, v.d.cfg.base+path, nil)
	return v.do(class, req, http.StatusOK)
}

// post sends a body with the CSRF token and expects the given status.
func (v *visitor) post(ctx context.Context, class, path, contentType string, body []byte, want int) bool {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, v.d.cfg.base+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-CSRF-Token", v.token)
	_, ok := v.do(class, req, want)
	return ok
}

// api calls the JSON API and decodes the envelope's data into into.
func (v *visitor) api(ctx context.Context, class, path string, body []byte, into any) bool {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, v.d.cfg.base+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", v.token)
	buf, ok := v.do(class, req, http.StatusOK)
	if !ok {
		return false
	}
	var env struct {
		Result int
		Data   json.RawMessage
	}
	if err := json.Unmarshal(buf, &env); err != nil || env.Result != 200 || json.Unmarshal(env.Data, into) != nil {
		v.d.add(sample{class: class, at: time.Now(), failed: true, status: http.StatusOK, err: "envelope: " + string(trim(buf))})
		return false
	}
	return true
}

// do sends a request and records it. A request cut short by the end of the
// run is not counted.
func (v *visitor) do(class string, req *http.Request, want int) ([]byte, bool) {
	start := time.Now()
	resp, err := v.c.Do(req)
	var buf []byte
	if err == nil {
		buf, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	lat := time.Since(start)
	if err != nil && req.Context().Err() != nil {
		return nil, false
	}
	s := sample{class: class, at: start, latency: lat}
	switch {
	case err != nil:
		s.failed, s.err = true, err.Error()
	case resp.StatusCode != want:
		s.failed, s.status, s.err = true, resp.StatusCode, req.Method+" "+req.URL.Path+": "+string(trim(buf))
	default:
		s.status = resp.StatusCode
	}
	v.d.add(s)
	return buf, !s.failed
}

func trim(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if len(b) > 160 {
		b = b[:160]
	}
	return b
}

func (d *driver) add(s sample) {
	d.mu.Lock()
	d.samples = append(d.samples, s)
	d.mu.Unlock()
}

// record summarises the samples.
func (d *driver) record(start time.Time, wall time.Duration) *record {
	d.mu.Lock()
	defer d.mu.Unlock()
	rec := &record{Start: start.UTC(), Seconds: wall.Seconds(), Visitors: d.cfg.visitors, Think: d.cfg.think.String(),
		PaidOrders: d.paid, Bought: d.bought, Replays: d.replays, Classes: map[string]*stats{}}
	all := &stats{}
	for _, s := range d.samples {
		st := rec.Classes[s.class]
		if st == nil {
			st = &stats{}
			rec.Classes[s.class] = st
		}
		for _, x := range []*stats{st, all} {
			x.add(s)
		}
		if s.failed {
			f := failure{At: s.at.UTC(), Class: s.class, Status: s.status, Err: s.err}
			if len(rec.Failures) < 2000 {
				rec.Failures = append(rec.Failures, f)
			}
			if s.status >= 500 || s.status == 0 {
				rec.ServerErrors = append(rec.ServerErrors, f.At)
			}
		}
	}
	for _, st := range rec.Classes {
		st.finish(wall)
	}
	all.finish(wall)
	rec.Total = all
	return rec
}

// errorLine is a short account of what failed, for the log.
func errorLine(fs []failure) string {
	counts := map[string]int{}
	for _, f := range fs {
		key := fmt.Sprintf("%s %d %s", f.Class, f.Status, strings.SplitN(f.Err, ":", 2)[0])
		counts[key]++
	}
	var parts []string
	for k, n := range counts {
		parts = append(parts, fmt.Sprintf("%s x%d", k, n))
	}
	return strings.Join(parts, "; ")
}
