// Package theme chooses a site's look: by host name, then page code, then the
// home theme.
package theme

import (
	"fmt"
	"io/fs"
	"strings"
)

// Home is the default theme's name.
const Home = "home"

// Landing lists the landing themes of the product, in the order the spec
// names them.
var Landing = []string{"founder", "free", "girl", "new", "personal", "psychological", "relax", "roles", "third", "types", "young"}

// Theme is one look: its stylesheet and images, as fingerprinted URLs.
type Theme struct {
	Name          string
	CSSURL        string
	LogoURL       string
	FooterLogoURL string
	IconURL       string
}

// URLer turns a logical asset name into its served URL.
type URLer interface {
	URL(logical string) string
}

// Set holds every theme, built once at start-up.
type Set struct {
	byName map[string]*Theme
}

// Load checks that every theme folder has its four files and resolves their
// URLs.
func Load(files fs.FS, urls URLer) (*Set, error) {
	s := &Set{byName: map[string]*Theme{}}
	for _, name := range append([]string{Home}, Landing...) {
		for _, f := range []string{"theme.css", "logo.svg", "footer-logo.svg", "icon.svg"} {
			if _, err := fs.Stat(files, name+"/"+f); err != nil {
				return nil, fmt.Errorf("theme: %s lacks %s: %w", name, f, err)
			}
		}
		s.byName[name] = &Theme{
			Name:          name,
			CSSURL:        urls.URL("themes/" + name + "/theme.css"),
			LogoURL:       urls.URL("themes/" + name + "/logo.svg"),
			FooterLogoURL: urls.URL("themes/" + name + "/footer-logo.svg"),
			IconURL:       urls.URL("themes/" + name + "/icon.svg"),
		}
	}
	return s, nil
}

// Get returns a theme by name.
func (s *Set) Get(name string) (*Theme, bool) {
	t, ok := s.byName[name]
	return t, ok
}

// Default returns the home theme.
func (s *Set) Default() *Theme { return s.byName[Home] }

// NormalizeHost lower-cases a Host header and drops its port and a leading
// "www.".
func NormalizeHost(host string) string {
	host = strings.ToLower(host)
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		host = host[:i]
	}
	return strings.TrimPrefix(host, "www.")
}
