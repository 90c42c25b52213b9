// Package themes embeds the site themes: one folder per theme holding
// theme.css (CSS custom properties), logo.svg, footer-logo.svg and icon.svg.
package themes

import "embed"

// Files holds every theme folder.
//
//go:embed */*.css */*.svg
var Files embed.FS
