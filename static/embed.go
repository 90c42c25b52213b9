// Package static embeds the stylesheet and the island bundles. dist/ is built
// by `make islands` (esbuild) before the Go build and is not committed.
package static

import "embed"

// CSS holds the site-wide stylesheets, served fingerprinted.
//
//go:embed css
var CSS embed.FS

// Dist holds the esbuild output: content-hashed modules and manifest.json.
//
//go:embed all:dist
var Dist embed.FS
