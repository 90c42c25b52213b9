package result

import "selfmap/internal/store"

// Result is a stored test result: the answers, their scores and the
// visitor's details. Callers name it through this package, which owns who
// may read it and whether it is paid.
type Result = store.Result
