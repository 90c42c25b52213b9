package checkout

import "selfmap/internal/store"

// Order is a stored order: what handlers and views read of one. The store
// keeps the row type (and its typed status); callers name it through the
// checkout package, which owns what an order may do.
type Order = store.Order

// Attempt is a stored attempt at paying an order: what the payment API and
// the sandbox's pages read of one.
type Attempt = store.Attempt
