// Package locales embeds the go-i18n message files.
//
// Keys are grouped in TOML tables by area ([nav], [consent], ...) and become
// dotted ids ("nav.home"). A message whose id starts with "<prefix>." lives in
// <prefix>.<tag>.toml, one file per prefix and locale, so an id alone says
// which file holds it (README.md; layout_test.go enforces it). A table's own
// keys must not be go-i18n's reserved names (id, description, hash, leftdelim,
// rightdelim, zero, one, two, few, many, other) unless the table is a plural
// message.
package locales

import "embed"

// Files holds every message file: <prefix>.<tag>.toml, and <tag>.toml for
// ids without a dot (none today).
//
//go:embed *.toml
var Files embed.FS
