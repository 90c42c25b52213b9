// Package ratelimit keeps rate limits in the database, so that every app
// instance behind a load balancer counts against the same buckets: a client
// who alternates between instances gets no more than one instance allows.
package ratelimit

import (
	"context"
	"fmt"
	"time"

	"selfmap/internal/store"
)

// DefaultTimeout bounds one check: echo's store interface carries no
// request context, and a limit must not hold a request longer than this.
const DefaultTimeout = 2 * time.Second

// Limit is a token bucket: Burst requests at once, then Rate a second.
type Limit struct {
	// Name keys the limit's buckets in the database (auth, retrieve, ...).
	Name  string
	Rate  float64
	Burst int
}

// Interval is the time one token takes to come back.
func (l Limit) Interval() time.Duration {
	return time.Duration(float64(time.Second) / l.Rate)
}

// Buckets is the database side: one atomic check of a bucket.
type Buckets interface {
	TakeToken(ctx context.Context, name, subject string, now time.Time, interval time.Duration, burst int) (bool, error)
}

// InDatabase is the buckets kept in the database's rate_limits table, each
// token taken outside any transaction.
func InDatabase(st *store.Store) Buckets { return dbBuckets{st} }

type dbBuckets struct{ st *store.Store }

func (b dbBuckets) TakeToken(ctx context.Context, name, subject string, now time.Time, interval time.Duration, burst int) (bool, error) {
	return b.st.TakeToken(ctx, b.st.DB, name, subject, now, interval, burst)
}

// Store is a rate limiter store (echo's middleware.RateLimiterStore; the
// HTTP layer checks that it fits) whose buckets live in the database.
// Instances sharing the database share the limit.
type Store struct {
	Buckets Buckets
	Limit   Limit
	Now     func() time.Time
	// Timeout bounds each check (DefaultTimeout when zero).
	Timeout time.Duration
}

// New returns a store for one limit.
func New(b Buckets, l Limit, now func() time.Time) (*Store, error) {
	if l.Name == "" || l.Rate <= 0 || l.Burst < 1 {
		return nil, fmt.Errorf("ratelimit: limit %q needs a name, a positive rate and a burst of at least 1", l.Name)
	}
	return &Store{Buckets: b, Limit: l, Now: now}, nil
}

// Limits makes the stores of the limits kept in one database: the HTTP
// layer names each limit it needs and never sees the database.
type Limits struct {
	Buckets Buckets
	Now     func() time.Time
	// Shared says whether other app instances count against the same
	// buckets (PostgreSQL). A SQLite file serves one instance, where a
	// bucket in the database shares nothing and only costs a write.
	Shared bool
}

// Store returns the store of one limit.
func (l *Limits) Store(limit Limit) (*Store, error) {
	return New(l.Buckets, limit, l.Now)
}

// Allow takes a token from the identifier's bucket. An error means the
// database did not answer; the caller decides whether to fail open.
func (s *Store) Allow(identifier string) (bool, error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ok, err := s.Buckets.TakeToken(ctx, s.Limit.Name, identifier, s.Now(), s.Limit.Interval(), s.Limit.Burst)
	if err != nil {
		return false, fmt.Errorf("ratelimit: %s: %w", s.Limit.Name, err)
	}
	return ok, nil
}
