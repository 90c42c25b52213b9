// Package site maps a request's host name to the site it belongs to: a theme
// and a home pair, kept in the database so marketing can add a site without a
// deploy.
package site

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"selfmap/internal/exam"
	"selfmap/internal/tracking"
)

// Site is one host name's configuration.
type Site struct {
	Host  string
	Theme string
	Home  exam.Pair
	// Tracking is what third-party scripts the site loads after consent.
	Tracking tracking.Config
}

// Loader reads every site from storage.
type Loader func(ctx context.Context) ([]Site, error)

// Directory answers host lookups from a copy of the sites table that it
// refreshes at most every ttl, so a lookup costs a map read and a new site
// appears on every instance within ttl.
type Directory struct {
	load Loader
	ttl  time.Duration
	log  *slog.Logger

	mu       sync.Mutex
	byHost   map[string]Site
	loadedAt time.Time
}

// NewDirectory returns a directory that reads through load.
func NewDirectory(load Loader, ttl time.Duration, log *slog.Logger) *Directory {
	return &Directory{load: load, ttl: ttl, log: log}
}

// retryAfter is how soon a failed load is tried again.
const retryAfter = 2 * time.Second

// Lookup finds the site of a normalized host name. When the table cannot be
// read, the last good copy keeps serving, the error is logged, and the load
// is tried again shortly.
func (d *Directory) Lookup(ctx context.Context, host string) (Site, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if time.Now().After(d.loadedAt.Add(d.ttl)) {
		d.refresh(ctx)
	}
	s, ok := d.byHost[host]
	return s, ok
}

// Load reads the sites now; the serve command calls it before taking
// traffic.
func (d *Directory) Load(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.refresh(ctx)
}

func (d *Directory) refresh(ctx context.Context) error {
	// A visitor who hangs up must not cancel the load every other request
	// is waiting for.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	sites, err := d.load(ctx)
	if err != nil {
		d.log.ErrorContext(ctx, "site: load sites", "err", err)
		d.loadedAt = time.Now().Add(retryAfter - d.ttl)
		return err
	}
	d.loadedAt = time.Now()
	byHost := make(map[string]Site, len(sites))
	for _, s := range sites {
		byHost[s.Host] = s
	}
	d.byHost = byHost
	return nil
}
