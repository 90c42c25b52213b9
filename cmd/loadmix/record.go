package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// record is what a run measured; -json writes it for soakcheck.
type record struct {
	Start    time.Time `json:"start"`
	Seconds  float64   `json:"seconds"`
	Visitors int       `json:"visitors"`
	Think    string    `json:"think"`
	// Classes and Total hold the request figures.
	Classes map[string]*stats `json:"classes"`
	Total   *stats            `json:"total"`
	// PeakRSSKB is the highest VmHWM of the server's processes, in kB.
	PeakRSSKB int64 `json:"peakRssKB"`
	// PeakAnonKB is the highest sampled private resident memory (RssAnon):
	// PeakRSSKB without the pages of the 60 MB binary.
	PeakAnonKB int64 `json:"peakAnonKB"`
	Restarts   int   `json:"restarts"`
	// Bought counts payments created; PaidOrders are the orders whose card
	// confirmation answered "succeeded".
	Bought     int      `json:"bought"`
	PaidOrders []string `json:"paidOrders"`
	// Windows are the injected faults, from start to recovery.
	Windows []window `json:"windows"`
	// ServerErrors are the times of 5xx answers and transport errors.
	ServerErrors []time.Time `json:"serverErrors"`
	Failures     []failure   `json:"failures"`
	Replays      replayCount `json:"replays"`
}

// window is one injected fault.
type window struct {
	Kind  string    `json:"kind"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// failure is a request that did not get the answer it expected.
type failure struct {
	At     time.Time `json:"at"`
	Class  string    `json:"class"`
	Status int       `json:"status"`
	Err    string    `json:"err"`
}

// replayCount counts replayed webhook deliveries by answer.
type replayCount struct {
	Sent     int `json:"sent"`
	Accepted int `json:"accepted"`
	Refused  int `json:"refused"`
}

// stats are one class's figures.
type stats struct {
	N      int     `json:"n"`
	Errors int     `json:"errors"`
	RPS    float64 `json:"rps"`
	P50ms  float64 `json:"p50ms"`
	P99ms  float64 `json:"p99ms"`
	MaxMs  float64 `json:"maxMs"`
	lat    []time.Duration
}

func (s *stats) add(x sample) {
	s.N++
	if x.failed {
		s.Errors++
		return
	}
	s.lat = append(s.lat, x.latency)
}

func (s *stats) finish(wall time.Duration) {
	s.RPS = float64(s.N) / wall.Seconds()
	slices.Sort(s.lat)
	s.P50ms, s.P99ms, s.MaxMs = ms(pct(s.lat, .50)), ms(pct(s.lat, .99)), ms(pct(s.lat, 1))
}

// pct is the p-th fraction of sorted durations.
func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// print writes the figures as a Markdown table, ready for docs/performance.md.
func (r *record) print(w io.Writer, label string) {
	if label != "" {
		fmt.Fprintf(w, "\n%s: ", label)
	}
	fmt.Fprintf(w, "%d visitors, think %s, %.0f s, %d payments created, %d paid, peak RSS %.1f MB (private %.1f MB), %d restarts\n\n",
		r.Visitors, r.Think, r.Seconds, r.Bought, len(r.PaidOrders), float64(r.PeakRSSKB)/1024, float64(r.PeakAnonKB)/1024, r.Restarts)
	fmt.Fprintln(w, "| class | requests | req/s | p50 | p99 | max | errors |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	row := func(name string, s *stats) {
		fmt.Fprintf(w, "| %s | %d | %.0f | %.1f ms | %.1f ms | %.1f ms | %d |\n", name, s.N, s.RPS, s.P50ms, s.P99ms, s.MaxMs, s.Errors)
	}
	for _, c := range classes {
		if s := r.Classes[c]; s != nil {
			row(c, s)
		}
	}
	row("**total**", r.Total)
	if len(r.Failures) > 0 {
		fmt.Fprintf(w, "\nerrors: %s\n", errorLine(r.Failures))
	}
	for _, win := range r.Windows {
		fmt.Fprintf(w, "fault %s %s .. %s (%s)\n", win.Kind, win.Start.Format("15:04:05.000"), win.End.Format("15:04:05.000"),
			win.End.Sub(win.Start).Round(time.Millisecond))
	}
	if r.Replays.Sent > 0 {
		fmt.Fprintf(w, "webhook replays: %d sent, %d accepted, %d refused\n", r.Replays.Sent, r.Replays.Accepted, r.Replays.Refused)
	}
}
