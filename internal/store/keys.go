package store

import (
	"strings"
	"unicode/utf8"
)

// storable reports whether a key read from a request (an order number, a
// promo code, a SKU id) could be stored at all: PostgreSQL refuses text
// with a NUL byte or broken UTF-8 with an error, where such a key should
// simply find nothing, as it does on SQLite.
func storable(key string) bool {
	return utf8.ValidString(key) && !strings.ContainsRune(key, 0)
}
