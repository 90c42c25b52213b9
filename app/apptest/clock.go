package apptest

import (
	"sync"
	"time"
)

// Epoch is the instant a kit's clock shows until the test moves it:
// Tuesday 24 November 2026, 10:00 UTC. It is far from midnight, so no test
// sees the day change under it; after every date the shipped data carries
// (the notices' publication, the legal texts' versions, the promo codes'
// windows), so all of it is in force; and before any day a test runs, so a
// job the queue schedules by this clock is due at once. Move it on when
// newer dated data ships.
var Epoch = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

// Clock is the one clock of a kit's app (app.WithClock): every service and
// the handlers read it, and the test moves it to walk through a trial, a
// renewal or an expiry. It is safe for concurrent use, as the app reads it
// from its request goroutines.
type Clock struct {
	mu sync.Mutex
	at time.Time
	// wall is true while Now reads the wall clock: until Set or Add.
	wall bool
}

// NewClock returns a clock fixed at an instant.
func NewClock(at time.Time) *Clock { return &Clock{at: at} }

// WallClock returns a clock that reads the wall clock until the test sets
// or moves it, for a test that must agree with something the kit cannot
// fix (the real binary, the database's own timestamps).
func WallClock() *Clock { return &Clock{wall: true} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wall {
		return time.Now()
	}
	return c.at
}

// Set fixes the clock at an instant.
func (c *Clock) Set(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at, c.wall = at, false
}

// Add moves the clock on by d (back when d is negative) and returns the new
// time; a wall clock is fixed at the wall time plus d.
func (c *Clock) Add(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wall {
		c.at, c.wall = time.Now(), false
	}
	c.at = c.at.Add(d)
	return c.at
}
