package subscription

import "selfmap/internal/store"

// Subscription is a stored subscription, named here so the screens that
// show one need not reach into the store.
type Subscription = store.Subscription

// Invoice is the stored charge of one period of a subscription.
type Invoice = store.Invoice

// PricedPlan is a plan with its price in one country.
type PricedPlan = store.PricedPlan
