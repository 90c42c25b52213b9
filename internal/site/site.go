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
)

// Site is one host name's configuration.
type Site struct {
	Host  string
	Theme string
	Home  exam.Pair
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

// Lookup finds the site of a normalized host name. When the table cannot be
// read, the last good copy keeps serving and the error is logged.
func (d *Directory) Lookup(ctx context.Context, host string) (Site, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.byHost == nil || time.Since(d.loadedAt) > d.ttl {
		d.refresh(ctx)
	}
	s, ok := d.byHost[host]
	return s, ok
}

func (d *Directory) refresh(ctx context.Context) {
	sites, err := d.load(ctx)
	d.loadedAt = time.Now()
	if err != nil {
		d.log.ErrorContext(ctx, "site: load sites", "err", err)
		if d.byHost == nil {
			d.byHost = map[string]Site{}
		}
		return
	}
	byHost := make(map[string]Site, len(sites))
	for _, s := range sites {
		byHost[s.Host] = s
	}
	d.byHost = byHost
}
