// Package locales embeds the go-i18n message files, one per locale.
//
// Keys are grouped in TOML tables by area ([nav], [consent], ...) and become
// dotted ids ("nav.home"). A table's own keys must not be go-i18n's reserved
// names (id, description, hash, leftdelim, rightdelim, zero, one, two, few,
// many, other) unless the table is a plural message.
package locales

import "embed"

// Files holds every message file: <tag>.toml and <area>.<tag>.toml.
//
//go:embed *.toml
var Files embed.FS
