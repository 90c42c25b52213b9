// Package islands knows the bundles esbuild built for the React islands and
// serves them.
package islands

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"

	"selfmap/internal/assets"
)

// Prefix is the URL path of the bundles.
const Prefix = "/static/dist/"

// Entry is one island's module and the chunks it imports.
type Entry struct {
	File    string   `json:"file"`
	Imports []string `json:"imports"`
}

// Manifest maps island names to their bundles.
type Manifest struct {
	entries map[string]Entry
	files   fs.FS
}

// Load reads manifest.json from the esbuild output folder.
func Load(dist fs.FS) (*Manifest, error) {
	buf, err := fs.ReadFile(dist, "manifest.json")
	if err != nil {
		return nil, fmt.Errorf("islands: read manifest (run `make islands`): %w", err)
	}
	m := &Manifest{files: dist}
	if err := json.Unmarshal(buf, &m.entries); err != nil {
		return nil, fmt.Errorf("islands: parse manifest: %w", err)
	}
	return m, nil
}

// Script returns the module URL of an island; an unknown island is a build
// error and panics at the first render.
func (m *Manifest) Script(name string) string {
	e, ok := m.entries[name]
	if !ok {
		panic("islands: no island " + name)
	}
	return Prefix + e.File
}

// Preloads returns the URLs of the chunks an island imports.
func (m *Manifest) Preloads(name string) []string {
	var out []string
	for _, f := range m.entries[name].Imports {
		out = append(out, Prefix+f)
	}
	return out
}

// Handler serves the bundles; their names carry content hashes, so they are
// cached for a year.
func (m *Manifest) Handler() http.Handler {
	files := http.StripPrefix(Prefix, http.FileServerFS(m.files))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assets.Immutable(w.Header())
		files.ServeHTTP(w, r)
	})
}
