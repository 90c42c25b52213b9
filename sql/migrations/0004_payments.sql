-- One row per attempt at paying an order. The idempotency key is derived
-- from the row, so a retried call to the provider never charges twice.
CREATE TABLE payment_attempts (
    id               TEXT PRIMARY KEY,
    order_id         TEXT NOT NULL REFERENCES orders (id),
    provider         TEXT NOT NULL,
    provider_ref     TEXT,
    client_secret    TEXT,
    status           TEXT NOT NULL,
    amount           BIGINT NOT NULL,
    currency         TEXT NOT NULL,
    card_brand       TEXT,
    card_last4       TEXT,
    failure_code     TEXT,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);
CREATE INDEX payment_attempts_order ON payment_attempts (order_id, created_at);
CREATE INDEX payment_attempts_status ON payment_attempts (status, created_at);

-- Every provider event applied, so a replayed event changes nothing.
CREATE TABLE payment_events (
    provider     TEXT NOT NULL,
    event_id     TEXT NOT NULL,
    kind         TEXT NOT NULL,
    attempt_id   TEXT,
    received_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (provider, event_id)
);

-- The built-in sandbox provider's own books: what a real provider would
-- keep on its side. The reconciler asks it, as it would ask Stripe.
CREATE TABLE sandbox_payments (
    ref         TEXT PRIMARY KEY,
    attempt_id  TEXT NOT NULL,
    amount      BIGINT NOT NULL,
    currency    TEXT NOT NULL,
    state       TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);

-- Conversions, recorded at fulfilment for consent-gated pixels later.
CREATE TABLE conversions (
    id          TEXT PRIMARY KEY,
    order_id    TEXT NOT NULL REFERENCES orders (id),
    kind        TEXT NOT NULL,
    amount      BIGINT NOT NULL,
    currency    TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);

-- Mail waiting to be sent, written in the same transaction as what caused
-- it; a job sends it (or, without MAIL_URL, keeps it for /dev/mail).
CREATE TABLE mail_outbox (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    to_address  TEXT NOT NULL,
    locale      TEXT NOT NULL,
    subject     TEXT NOT NULL,
    body        TEXT NOT NULL,
    ref         TEXT NOT NULL,
    status      TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    sent_at     TIMESTAMP
);
CREATE UNIQUE INDEX mail_outbox_kind_ref ON mail_outbox (kind, ref);
