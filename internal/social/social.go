// Package social gives the landing pages their proof from real data: the
// test counters, the accuracy rating, the recent activity notices and the
// approved reviews. Every figure is read from the database at most once per
// TTL (a minute) per exam or locale and kept in memory, so a page view costs
// map reads, never a query; nothing is ever invented.
package social

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"selfmap/internal/store"
)

// Buckets are the ages, in minutes, an activity notice may state. An event
// is shown at the first bucket its age does not exceed; older events are
// not shown.
var Buckets = []int{1, 3, 5, 10, 15, 20, 25, 30, 45}

// Bucket returns the minutes a notice states for an event of this age, and
// false when the event is older than the last bucket.
func Bucket(age time.Duration) (int, bool) {
	if age < 0 {
		age = 0
	}
	for _, b := range Buckets {
		if age <= time.Duration(b)*time.Minute {
			return b, true
		}
	}
	return 0, false
}

// MinRatings is how many ratings it takes before an average is shown: below
// it the number would say more about chance than about the test.
const MinRatings = 20

// ActivityLimit is how many recent events are kept per exam, and
// ReviewLimit how many reviews per locale.
const (
	ActivityLimit = 6
	ReviewLimit   = 6
)

// Counters are the figures a landing page shows.
type Counters struct {
	// Today counts the tests completed since midnight UTC.
	Today int
	// Total counts every completed test.
	Total int
	// Region is the visitor's country code ("" when unknown) and InRegion
	// the tests completed by people who gave that country.
	Region   string
	InRegion int
	// Ratings counts the accuracy ratings; Accuracy is their mean (1 to 5),
	// or 0 when there are fewer than MinRatings.
	Ratings  int
	Accuracy float64
	// Demo is set while the database holds demo data (selfmap seed): the
	// figures are then labelled as including made-up results.
	Demo bool
}

// Notice is one activity notice: what happened, where (a country code or
// ""), and how many minutes ago, as a bucket.
type Notice struct {
	Kind    store.ActivityKind
	Country string
	Minutes int
}

// Unlocked reports whether the notice is of a report paid for (else a test
// completed).
func (n Notice) Unlocked() bool { return n.Kind == store.ActivityUnlocked }

// Source is where the figures come from; *store.Store is one.
type Source interface {
	ResultCounts(ctx context.Context, examID int, since time.Time) (store.ResultCounts, error)
	RatingStats(ctx context.Context, examID int) (store.RatingStats, error)
	RecentActivity(ctx context.Context, examID int, since time.Time, limit int) ([]store.Activity, error)
	ApprovedReviews(ctx context.Context, locale string, limit int) ([]store.Review, error)
	HasDemoData(ctx context.Context) (bool, error)
}

// Service answers from memory and reloads a figure once its TTL has passed.
// When a load fails, the last good figures keep serving (none, the first
// time), the error is logged and the load is tried again shortly: a page
// never fails for want of its counters.
type Service struct {
	source Source
	now    func() time.Time
	ttl    time.Duration
	log    *slog.Logger

	counts   cache[int, examCounts]
	activity cache[int, []store.Activity]
	reviews  cache[string, []store.Review]
}

// New returns a service that reads source at most once per ttl per key.
func New(source Source, now func() time.Time, ttl time.Duration, log *slog.Logger) *Service {
	return &Service{source: source, now: now, ttl: ttl, log: log}
}

type examCounts struct {
	results store.ResultCounts
	ratings store.RatingStats
	demo    bool
}

// Counters returns an exam's counters, with the tests of region (a country
// code, or "" for none).
func (s *Service) Counters(ctx context.Context, examID int, region string) Counters {
	c := s.counts.get(ctx, s, examID, func(ctx context.Context) (examCounts, error) {
		now := s.now().UTC()
		r, err := s.source.ResultCounts(ctx, examID, now.Truncate(24*time.Hour))
		if err != nil {
			return examCounts{}, err
		}
		st, err := s.source.RatingStats(ctx, examID)
		if err != nil {
			return examCounts{}, err
		}
		demo, err := s.source.HasDemoData(ctx)
		return examCounts{results: r, ratings: st, demo: demo}, err
	})
	out := Counters{Today: c.results.Since, Total: c.results.Total, Ratings: c.ratings.Count, Demo: c.demo}
	if region != "" {
		out.Region, out.InRegion = region, c.results.ByCountry[region]
	}
	if c.ratings.Count >= MinRatings {
		out.Accuracy = c.ratings.Mean
	}
	return out
}

// Notices returns the recent activity of an exam as notices, newest first,
// each aged by Bucket at the time of the call.
func (s *Service) Notices(ctx context.Context, examID int) []Notice {
	last := time.Duration(Buckets[len(Buckets)-1]) * time.Minute
	events := s.activity.get(ctx, s, examID, func(ctx context.Context) ([]store.Activity, error) {
		return s.source.RecentActivity(ctx, examID, s.now().Add(-last), ActivityLimit)
	})
	now := s.now()
	var out []Notice
	for _, e := range events {
		if m, ok := Bucket(now.Sub(e.At)); ok {
			out = append(out, Notice{Kind: e.Kind, Country: e.Country, Minutes: m})
		}
	}
	return out
}

// Reviews returns the newest approved reviews written in a locale.
func (s *Service) Reviews(ctx context.Context, locale string) []store.Review {
	return s.reviews.get(ctx, s, locale, func(ctx context.Context) ([]store.Review, error) {
		return s.source.ApprovedReviews(ctx, locale, ReviewLimit)
	})
}

// retryAfter is how soon a failed load is tried again.
const retryAfter = 5 * time.Second

// cache keeps one value per key until its TTL passes. Loads of one cache
// are serialised: once a minute a visitor waits for a query, the others for
// that visitor.
type cache[K comparable, V any] struct {
	mu      sync.Mutex
	entries map[K]entry[V]
}

type entry[V any] struct {
	value   V
	expires time.Time
}

func (c *cache[K, V]) get(ctx context.Context, s *Service, key K, load func(context.Context) (V, error)) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := s.now()
	e, ok := c.entries[key]
	if ok && now.Before(e.expires) {
		return e.value
	}
	// A visitor who hangs up must not cancel the load others wait for.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	v, err := load(lctx)
	if err != nil {
		s.log.ErrorContext(ctx, "social: load figures", "key", key, "err", err)
		e.expires = now.Add(retryAfter)
	} else {
		e = entry[V]{value: v, expires: now.Add(s.ttl)}
	}
	if c.entries == nil {
		c.entries = map[K]entry[V]{}
	}
	c.entries[key] = e
	return e.value
}
