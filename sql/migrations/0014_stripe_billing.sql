-- Stripe Billing for subscriptions (PAYMENT_PROVIDER=stripe): Stripe renews
-- and retries, and our rows follow its events. These tables and columns tie
-- our customers, prices, subscriptions and invoices to Stripe's objects.

-- The Stripe Customer of each of our (opaque) customer ids.
CREATE TABLE stripe_customers (
    customer_id         TEXT PRIMARY KEY,
    stripe_customer_id  TEXT NOT NULL UNIQUE,
    created_at          TIMESTAMP NOT NULL
);

-- The Stripe Price made for a plan_prices row, found again by its lookup
-- key, which names the plan, country, currency, amount and period: a price
-- changed in plan_prices has a new key, so a new Stripe Price, and
-- subscriptions already running keep theirs. kind is 'recurring' (the
-- plan's price) or 'trial' (the one-off trial price).
CREATE TABLE stripe_prices (
    lookup_key       TEXT PRIMARY KEY,
    stripe_price_id  TEXT NOT NULL UNIQUE,
    plan_id          TEXT NOT NULL REFERENCES plans (id),
    country          TEXT NOT NULL,
    kind             TEXT NOT NULL,
    created_at       TIMESTAMP NOT NULL
);

-- provider_ref (0011) holds the Stripe subscription id; one of ours per
-- Stripe subscription. provider_synced_at is the creation time of the
-- newest Stripe event (or API answer) applied to the subscription's state,
-- so an older event delivered late changes nothing.
ALTER TABLE subscriptions ADD COLUMN provider_synced_at TIMESTAMP;
CREATE UNIQUE INDEX subscriptions_provider_ref ON subscriptions (provider, provider_ref);

-- The Stripe invoice an invoice row records (Stripe invoices are charged
-- and retried by Stripe; ours are their record, for receipts and history).
ALTER TABLE subscription_invoices ADD COLUMN provider_invoice_id TEXT;
CREATE UNIQUE INDEX subscription_invoices_provider_invoice ON subscription_invoices (provider_invoice_id);
