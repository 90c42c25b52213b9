// Command payload measures checkout create-and-pay on the sandbox against a
// running server on loopback: each of -buyers concurrent buyers takes a
// session, submits a test, and then, timed, creates the payment and pays
// with 4242 4242 4242 4242. It prints requests per second and latency
// percentiles of the timed pair and of each call. With -think, a buyer
// pauses that long (plus or minus half) before paying, as a person reads the
// page and types a card; the pauses are not timed. Bounded by -n buyers in
// total; loopback only.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

var csrfRE = regexp.MustCompile(`"csrf":"([^"]+)"`)

type envelope struct {
	Result  int             `json:"result"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "server (loopback only)")
	buyers := flag.Int("buyers", 100, "concurrent buyers")
	total := flag.Int("n", 500, "buyers in total")
	think := flag.Duration("think", 0, "a buyer's pause before create and before pay (0: none, a saturation run)")
	flag.Parse()
	if u, err := url.Parse(*base); err != nil || !(strings.HasPrefix(u.Host, "127.") || strings.HasPrefix(u.Host, "localhost")) {
		log.Fatal("payload sends load to loopback only")
	}
	var q struct {
		Data struct {
			Version   string
			Questions []struct{ ID string }
		}
	}
	resp, err := http.Get(*base + "/api/exam/question/list/1807/EN")
	if err != nil {
		log.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&q) //nolint:errcheck // checked by use
	resp.Body.Close()
	answers := make([]map[string]any, len(q.Data.Questions))
	for i, it := range q.Data.Questions {
		answers[i] = map[string]any{"id": it.ID, "value": i%5 + 1}
	}
	submission, _ := json.Marshal(map[string]any{"examId": 1807, "code": "BMBTI", "version": q.Data.Version, "answers": answers, "durationSeconds": 600})

	transport := &http.Transport{MaxIdleConnsPerHost: *buyers * 2}
	jobs := make(chan int)
	var mu sync.Mutex
	var lat, creates, pays []time.Duration
	failures := 0
	var wg sync.WaitGroup
	start := time.Now()
	var timed time.Duration
	for range *buyers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				create, pay, err := buy(transport, *base, submission, *think)
				mu.Lock()
				if err != nil {
					failures++
					if failures <= 3 {
						log.Print(err)
					}
				} else {
					lat = append(lat, create+pay)
					creates, pays = append(creates, create), append(pays, pay)
					timed += create + pay
				}
				mu.Unlock()
			}
		}()
	}
	for i := range *total {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	wall := time.Since(start)
	fmt.Fprintf(os.Stdout, "buyers %d concurrent, think %s, %d in total, %d failed, wall %s\n", *buyers, *think, *total, failures, wall.Round(time.Millisecond))
	fmt.Fprintf(os.Stdout, "create-and-pay: %.0f pairs/s over the whole run (each buyer also loads a page and submits a test)\n", float64(len(lat))/wall.Seconds())
	for _, row := range []struct {
		name string
		d    []time.Duration
	}{{"create-and-pay", lat}, {"create", creates}, {"pay", pays}} {
		fmt.Fprintf(os.Stdout, "%s latency: p50 %s  p90 %s  p99 %s  max %s\n", row.name,
			pct(row.d, .5), pct(row.d, .9), pct(row.d, .99), pct(row.d, 1))
	}
}

// pct is the p-th fraction of the durations, rounded for printing.
func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sorted := slices.Clone(d)
	slices.Sort(sorted)
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))].Round(time.Microsecond)
}

// pause waits about d: between half and one and a half times it.
func pause(d time.Duration) {
	if d > 0 {
		time.Sleep(d/2 + rand.N(d))
	}
}

// buy runs one buyer and returns the times of create and of confirm.
func buy(t http.RoundTripper, base string, submission []byte, think time.Duration) (time.Duration, time.Duration, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Transport: t, Jar: jar, Timeout: 30 * time.Second}
	resp, err := c.Get(base + "/")
	if err != nil {
		return 0, 0, err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := csrfRE.FindSubmatch(page)
	if m == nil {
		return 0, 0, fmt.Errorf("no csrf token")
	}
	token := string(m[1])
	var sub struct{ OrderNumber string }
	if err := post(c, base+"/api/exam/order/info", token, submission, &sub); err != nil {
		return 0, 0, fmt.Errorf("submit: %w", err)
	}
	pause(think)
	t0 := time.Now()
	var created struct{ AttemptID string }
	body, _ := json.Marshal(map[string]string{"orderNumber": sub.OrderNumber, "skuId": "mbti-report", "email": "load@example.com"})
	if err := post(c, base+"/pay/pay/order/create", token, body, &created); err != nil {
		return 0, 0, fmt.Errorf("create: %w", err)
	}
	create := time.Since(t0)
	pause(think)
	body, _ = json.Marshal(map[string]any{"attemptId": created.AttemptID, "number": "4242424242424242", "expMonth": 12, "expYear": 2030,
		"cvc": "123", "name": "Load Test", "postalCode": "10115"})
	var out struct{ Status string }
	t1 := time.Now()
	if err := post(c, base+"/pay/sandbox/confirm", token, body, &out); err != nil {
		return 0, 0, fmt.Errorf("confirm: %w", err)
	}
	pay := time.Since(t1)
	if out.Status != "succeeded" {
		return 0, 0, fmt.Errorf("payment %s", out.Status)
	}
	return create, pay, nil
}

func post(c *http.Client, url, token string, body []byte, into any) error {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", token)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var env envelope
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return fmt.Errorf("HTTP %d: %w", resp.StatusCode, err)
	}
	if env.Result != 200 {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, env.Message)
	}
	return json.Unmarshal(env.Data, into)
}
