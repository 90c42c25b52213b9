package account

import "selfmap/internal/store"

// User is a stored account. Callers name it through this package, which
// owns how one registers, signs in and changes its profile.
type User = store.User

// Profile is what a user edits about themself (User.Profile reads it from
// an account); callers name it through this package, which checks it.
type Profile = store.Profile
