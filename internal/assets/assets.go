// Package assets serves static files at content-addressed URLs, so browsers
// and CDNs may keep them for a year and a deploy never serves a stale copy.
package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// Prefix is the URL path under which fingerprinted files are served.
const Prefix = "/assets/"

type file struct {
	body        []byte
	contentType string
}

// Assets maps logical names ("themes/home/logo.svg") to fingerprinted URLs
// ("/assets/themes/home/logo.3f2a9c1d0b.svg") and serves the latter.
type Assets struct {
	urls  map[string]string
	files map[string]file
}

// New reads every file of the mounts, keyed by mount name, into memory. The
// files are small and few; holding them spares a disk read per request.
func New(mounts map[string]fs.FS) (*Assets, error) {
	a := &Assets{urls: map[string]string{}, files: map[string]file{}}
	for mount, fsys := range mounts {
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, ".go") {
				return err
			}
			body, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			logical := path.Join(mount, p)
			sum := sha256.Sum256(body)
			ext := path.Ext(logical)
			url := Prefix + strings.TrimSuffix(logical, ext) + "." + hex.EncodeToString(sum[:5]) + ext
			ctype := mime.TypeByExtension(ext)
			if ctype == "" {
				ctype = "application/octet-stream"
			}
			a.urls[logical] = url
			a.files[url] = file{body: body, contentType: ctype}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("assets: read %s: %w", mount, err)
		}
	}
	return a, nil
}

// URL returns the fingerprinted URL of a logical name. A missing name is a
// build error, so it panics at the first render rather than serving a broken
// link.
func (a *Assets) URL(logical string) string {
	u, ok := a.urls[logical]
	if !ok {
		panic("assets: no file " + logical)
	}
	return u
}

// Bytes returns the content of a logical name (for a document that carries
// its styles inline, such as the PDF report), or nil.
func (a *Assets) Bytes(logical string) []byte {
	u, ok := a.urls[logical]
	if !ok {
		return nil
	}
	return a.files[u].body
}

// Has reports whether a logical name exists.
func (a *Assets) Has(logical string) bool {
	_, ok := a.urls[logical]
	return ok
}

// ServeHTTP answers a fingerprinted URL with its file and a one-year,
// immutable cache lifetime; anything else is a 404.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f, ok := a.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	Immutable(w.Header())
	w.Header().Set("Content-Type", f.contentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(f.body) //nolint:errcheck // the client went away
}

// Immutable marks a response as cacheable for a year, never revalidated.
func Immutable(h http.Header) {
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
}
