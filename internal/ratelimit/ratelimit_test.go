package ratelimit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"selfmap/internal/ratelimit"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// clock is a settable time shared by the limiters of a test.
type clock struct{ at atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.at.Store(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *clock) now() time.Time          { return time.Unix(0, c.at.Load()).UTC() }
func (c *clock) advance(d time.Duration) { c.at.Add(int64(d)) }

// login is the auth limit of routes.go: ten tries, then one every twelve
// seconds.
var login = ratelimit.Limit{Name: "auth", Rate: 1.0 / 12, Burst: 10}

func limiter(t *testing.T, db *store.Store, l ratelimit.Limit, c *clock) *ratelimit.Store {
	t.Helper()
	s, err := ratelimit.New(ratelimit.InDatabase(db), l, c.now)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func allow(t *testing.T, s *ratelimit.Store, who string) bool {
	t.Helper()
	ok, err := s.Allow(who)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// bothDatabases runs fn with two stores (two connection pools, as two app
// instances have) opened on one fresh database of each kind.
func bothDatabases(t *testing.T, fn func(t *testing.T, a, b *store.Store)) {
	for name, url := range map[string]func(testing.TB) string{"sqlite": storetest.SQLiteURL, "postgres": storetest.PostgresURL} {
		t.Run(name, func(t *testing.T) {
			u := url(t)
			a, b := open(t, u), open(t, u)
			fn(t, a, b)
		})
	}
}

func open(t *testing.T, url string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// A client alternating between two instances gets the burst once, not once
// per instance, and then one request per interval wherever it lands.
func TestLimitHoldsAcrossInstances(t *testing.T) {
	bothDatabases(t, func(t *testing.T, dbA, dbB *store.Store) {
		c := newClock()
		a, b := limiter(t, dbA, login, c), limiter(t, dbB, login, c)
		instances := []*ratelimit.Store{a, b}
		admitted := 0
		for i := range 2 * login.Burst {
			if allow(t, instances[i%2], "203.0.113.7") {
				admitted++
			}
		}
		if admitted != login.Burst {
			t.Fatalf("admitted %d of %d alternating requests, want the burst %d", admitted, 2*login.Burst, login.Burst)
		}
		c.advance(login.Interval() - time.Millisecond)
		if allow(t, a, "203.0.113.7") || allow(t, b, "203.0.113.7") {
			t.Fatal("a token came back before its interval")
		}
		c.advance(time.Millisecond)
		if !allow(t, b, "203.0.113.7") {
			t.Fatal("no token after one interval")
		}
		if allow(t, a, "203.0.113.7") {
			t.Fatal("two tokens after one interval")
		}
		if !allow(t, a, "198.51.100.2") {
			t.Fatal("another client shares the first one's bucket")
		}
		other := limiter(t, dbB, ratelimit.Limit{Name: "retrieve", Rate: 1.0 / 60, Burst: 5}, c)
		if !allow(t, other, "203.0.113.7") {
			t.Fatal("another limit shares the auth bucket")
		}
		// A bucket left alone for burst intervals is full again.
		c.advance(time.Duration(login.Burst) * login.Interval())
		admitted = 0
		for range login.Burst + 1 {
			if allow(t, a, "203.0.113.7") {
				admitted++
			}
		}
		if admitted != login.Burst {
			t.Fatalf("refilled bucket admitted %d, want %d", admitted, login.Burst)
		}
	})
}

// Many checks of one bucket at once, from two instances, admit exactly the
// burst: the upsert decides and writes in one statement.
func TestConcurrentChecksNeverOverAdmit(t *testing.T) {
	bothDatabases(t, func(t *testing.T, dbA, dbB *store.Store) {
		c := newClock()
		l := ratelimit.Limit{Name: "contact", Rate: 1.0 / 60, Burst: 7}
		instances := []*ratelimit.Store{limiter(t, dbA, l, c), limiter(t, dbB, l, c)}
		var admitted atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, 60)
		for i := range 60 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := instances[i%2].Allow("203.0.113.9")
				if err != nil {
					errs <- err
					return
				}
				if ok {
					admitted.Add(1)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if got := admitted.Load(); got != int32(l.Burst) {
			t.Fatalf("%d of 60 concurrent checks admitted, want the burst %d", got, l.Burst)
		}
	})
}

// A check the database cannot answer is an error, never an admission; the
// middleware decides what the request gets (handlers: sharedLimit).
func TestDatabaseFailureIsAnError(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		l := limiter(t, s, login, newClock())
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		ok, err := l.Allow("203.0.113.7")
		if err == nil || ok {
			t.Fatalf("closed database: allowed %v, err %v", ok, err)
		}
	})
}

// Pruning deletes the buckets that are full again and keeps the others.
func TestPruneKeepsLiveBuckets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		c := newClock()
		l := limiter(t, s, login, c)
		allow(t, l, "full-again")
		c.advance(login.Interval())
		for range login.Burst {
			allow(t, l, "emptied")
		}
		n, err := s.PruneRateLimits(context.Background(), s.DB, c.now())
		if err != nil || n != 1 {
			t.Fatalf("pruned %d, %v; want the one full bucket", n, err)
		}
		if allow(t, l, "emptied") {
			t.Fatal("pruning emptied a live bucket's state")
		}
	})
}

func TestNewRefusesEmptyLimits(t *testing.T) {
	for _, l := range []ratelimit.Limit{{Rate: 1, Burst: 1}, {Name: "x", Burst: 1}, {Name: "x", Rate: 1}} {
		if _, err := ratelimit.New(nil, l, time.Now); err == nil {
			t.Errorf("%+v accepted", l)
		}
	}
}

// Limits makes each named limit's store over its buckets and clock, and
// refuses a limit that cannot work.
func TestLimitsMakesStores(t *testing.T) {
	c := newClock()
	limits := &ratelimit.Limits{Buckets: ratelimit.InDatabase(storetest.SQLite(t)), Now: c.now}
	st, err := limits.Store(login)
	if err != nil {
		t.Fatal(err)
	}
	for i := range login.Burst {
		if !allow(t, st, "203.0.113.7") {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	if allow(t, st, "203.0.113.7") {
		t.Error("the request after the burst was let through")
	}
	c.advance(login.Interval())
	if !allow(t, st, "203.0.113.7") {
		t.Error("a token did not come back after one interval on the limits' clock")
	}
	if _, err := limits.Store(ratelimit.Limit{Name: "broken"}); err == nil {
		t.Error("a limit without a rate or burst was accepted")
	}
}
