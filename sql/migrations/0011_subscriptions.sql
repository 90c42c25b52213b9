-- Subscriptions (issue 7): plans are data, a subscription is a state
-- machine, and every period's charge is an invoice row that can be paid
-- once only.

-- A plan: its tier (what it unlocks), how long a period is (interval x
-- period) and how long its trial (0: none). Prices are per country, like
-- sku_prices.
CREATE TABLE plans (
    id           TEXT PRIMARY KEY,
    tier         TEXT NOT NULL,
    title        TEXT NOT NULL,
    time_unit    TEXT NOT NULL,
    billing_interval TEXT NOT NULL,
    period       INTEGER NOT NULL,
    trial_days   INTEGER NOT NULL DEFAULT 0,
    sort         INTEGER NOT NULL DEFAULT 0,
    active       BOOLEAN NOT NULL DEFAULT TRUE
);

-- One price per plan and country; country '*' is the price everywhere
-- else. trial_price is NULL for a plan without a trial. Amounts are in
-- hundredths of the currency, as everywhere.
CREATE TABLE plan_prices (
    plan_id      TEXT NOT NULL REFERENCES plans (id),
    country      TEXT NOT NULL,
    currency     TEXT NOT NULL,
    price        BIGINT NOT NULL,
    trial_price  BIGINT,
    PRIMARY KEY (plan_id, country)
);

-- A subscription belongs to an opaque customer: a user id once accounts
-- exist, or a guest's e-mail address. Price and currency are fixed when it
-- starts; an upgrade replaces them with the new plan's.
CREATE TABLE subscriptions (
    id                    TEXT PRIMARY KEY,
    customer_id           TEXT NOT NULL,
    email                 TEXT NOT NULL,
    locale                TEXT NOT NULL,
    country               TEXT NOT NULL,
    plan_id               TEXT NOT NULL REFERENCES plans (id),
    status                TEXT NOT NULL,
    price                 BIGINT NOT NULL,
    currency              TEXT NOT NULL,
    current_period_start  TIMESTAMP NOT NULL,
    current_period_end    TIMESTAMP NOT NULL,
    trial_end             TIMESTAMP,
    cancel_at_period_end  BOOLEAN NOT NULL DEFAULT FALSE,
    canceled_at           TIMESTAMP,
    ended_at              TIMESTAMP,
    provider              TEXT NOT NULL,
    provider_ref          TEXT,
    payment_method_ref    TEXT,
    card_brand            TEXT,
    card_last4            TEXT,
    version               INTEGER NOT NULL DEFAULT 0,
    created_at            TIMESTAMP NOT NULL,
    updated_at            TIMESTAMP NOT NULL
);
-- One live subscription per customer: a double submit starts one.
CREATE UNIQUE INDEX subscriptions_live_customer ON subscriptions (customer_id)
    WHERE status IN ('incomplete', 'trialing', 'active', 'past_due');
CREATE INDEX subscriptions_customer ON subscriptions (customer_id, created_at);
CREATE INDEX subscriptions_due ON subscriptions (status, current_period_end);

-- One charge for one period of a subscription. The idempotency key is
-- derived from the subscription, the period start and the attempt number,
-- so a retried call to the provider never charges twice.
CREATE TABLE subscription_invoices (
    id               TEXT PRIMARY KEY,
    subscription_id  TEXT NOT NULL REFERENCES subscriptions (id),
    kind             TEXT NOT NULL,
    plan_id          TEXT NOT NULL REFERENCES plans (id),
    period_start     TIMESTAMP NOT NULL,
    period_end       TIMESTAMP NOT NULL,
    amount           BIGINT NOT NULL,
    currency         TEXT NOT NULL,
    status           TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    attempt_open     BOOLEAN NOT NULL DEFAULT FALSE,
    next_attempt_at  TIMESTAMP NOT NULL,
    idempotency_key  TEXT,
    provider_ref     TEXT,
    failure_code     TEXT,
    paid_at          TIMESTAMP,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);
-- A period is charged once.
CREATE UNIQUE INDEX subscription_invoices_period ON subscription_invoices (subscription_id, period_start);
-- One charge in flight per subscription: a renewal and an upgrade never
-- both take money for the same time.
CREATE UNIQUE INDEX subscription_invoices_open ON subscription_invoices (subscription_id) WHERE status = 'pending';
CREATE UNIQUE INDEX subscription_invoices_key ON subscription_invoices (idempotency_key);
CREATE INDEX subscription_invoices_due ON subscription_invoices (status, next_attempt_at);

-- The sandbox provider's saved cards: what a real provider keeps so it can
-- charge a customer later without them. Never the number: the brand, the
-- last four digits, the expiry and how the test card behaves.
CREATE TABLE sandbox_payment_methods (
    ref         TEXT PRIMARY KEY,
    brand       TEXT NOT NULL,
    last4       TEXT NOT NULL,
    exp_month   INTEGER NOT NULL,
    exp_year    INTEGER NOT NULL,
    behaviour   TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);

-- basic: weekly, after a 7-day trial at a small paid price; premium:
-- monthly, no trial.
INSERT INTO plans (id, tier, title, time_unit, billing_interval, period, trial_days, sort) VALUES
    ('basic-weekly', 'basic', 'Basic', 'week', 'WEEK', 4, 7, 10),
    ('premium-monthly', 'premium', 'Premium', 'month', 'MONTH', 1, 0, 20);

INSERT INTO plan_prices (plan_id, country, currency, price, trial_price) VALUES
    ('basic-weekly', '*', 'USD', 1999, 149),
    ('basic-weekly', 'GB', 'GBP', 1799, 129),
    ('basic-weekly', 'DE', 'EUR', 1999, 149),
    ('basic-weekly', 'FR', 'EUR', 1999, 149),
    ('basic-weekly', 'ES', 'EUR', 1999, 149),
    ('basic-weekly', 'PT', 'EUR', 1999, 149),
    ('premium-monthly', '*', 'USD', 3999, NULL),
    ('premium-monthly', 'GB', 'GBP', 3499, NULL),
    ('premium-monthly', 'DE', 'EUR', 3999, NULL),
    ('premium-monthly', 'FR', 'EUR', 3999, NULL),
    ('premium-monthly', 'ES', 'EUR', 3999, NULL),
    ('premium-monthly', 'PT', 'EUR', 3999, NULL);
