-- Accounts. The e-mail is kept lower-cased and unique, so two submits of the
-- same registration make one account. session_gen counts the times every
-- session of the user was ended (a password change): a session cookie
-- carries the generation it was made in and is refused once it differs.
CREATE TABLE users (
    id                 TEXT PRIMARY KEY,
    email              TEXT NOT NULL,
    name               TEXT NOT NULL,
    password_hash      TEXT NOT NULL,
    email_verified_at  TIMESTAMP,
    session_gen        INTEGER NOT NULL DEFAULT 1,
    nickname           TEXT NOT NULL DEFAULT '',
    phone              TEXT NOT NULL DEFAULT '',
    birthday           TEXT NOT NULL DEFAULT '',
    sex                TEXT NOT NULL DEFAULT '',
    introduction       TEXT NOT NULL DEFAULT '',
    avatar             BYTEA,
    avatar_type        TEXT NOT NULL DEFAULT '',
    created_at         TIMESTAMP NOT NULL,
    updated_at         TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX users_email ON users (email);

-- Failed log-ins, per address tried, so the limit per account holds across
-- every app instance.
CREATE TABLE login_failures (
    email       TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_email ON login_failures (email, created_at);

-- Results and orders joined to an account (by a verified e-mail or by the
-- browser that made them).
ALTER TABLE results ADD COLUMN user_id TEXT REFERENCES users (id);
CREATE INDEX results_user_id ON results (user_id);
ALTER TABLE orders ADD COLUMN user_id TEXT REFERENCES users (id);
CREATE INDEX orders_user_id ON orders (user_id);
