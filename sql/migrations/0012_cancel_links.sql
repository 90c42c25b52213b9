-- One-time links that cancel a mailbox's subscriptions (issue 7): asked
-- for at /cancel/subscription by e-mail, mailed, and used once. Only a
-- SHA-256 of the token is kept, as for report links.
CREATE TABLE cancel_links (
    token_hash  TEXT PRIMARY KEY,
    email       TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    expires_at  TIMESTAMP NOT NULL,
    used_at     TIMESTAMP
);
CREATE INDEX cancel_links_email ON cancel_links (email, created_at);
