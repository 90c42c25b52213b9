-- Sites map a host name (without a leading www.) to a theme and a home page pair,
-- so marketing can add a site without a deploy.
CREATE TABLE sites (
    host        TEXT PRIMARY KEY,
    theme       TEXT NOT NULL,
    home_code   TEXT NOT NULL DEFAULT 'BMBTI',
    home_exam   INTEGER NOT NULL DEFAULT 1807,
    created_at  TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- One-time e-mail codes (sign-up, password reset, unsubscribe). Only a hash of
-- the code is kept; a code expires, allows a few tries and is used once.
CREATE TABLE email_codes (
    id          TEXT PRIMARY KEY,
    email       TEXT NOT NULL,
    purpose     TEXT NOT NULL,
    code_hash   TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    expires_at  TIMESTAMP NOT NULL,
    used_at     TIMESTAMP,
    created_at  TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX email_codes_email_purpose ON email_codes (email, purpose);
CREATE INDEX email_codes_expires_at ON email_codes (expires_at);
