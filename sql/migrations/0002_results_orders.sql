-- A result is one scored answer set. Its id carries 128 random bits and is
-- the key of every link to it. The answers and the versions of items and
-- norms are kept so the scores can always be recomputed.
CREATE TABLE results (
    id                TEXT PRIMARY KEY,
    exam_id           INTEGER NOT NULL,
    page_code         TEXT NOT NULL,
    locale            TEXT NOT NULL,
    answers           TEXT NOT NULL,
    exam_version      TEXT NOT NULL,
    items_version     TEXT NOT NULL,
    norms_version     TEXT NOT NULL,
    norm_group        TEXT NOT NULL,
    scores            TEXT NOT NULL,
    result_code       TEXT NOT NULL,
    duration_seconds  INTEGER NOT NULL,
    email             TEXT,
    first_name        TEXT,
    last_name         TEXT,
    birth_year        INTEGER,
    gender            TEXT,
    country           TEXT,
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL
);
CREATE INDEX results_email ON results (email);
CREATE INDEX results_created_at ON results (created_at);

-- The report order a submission opens, unpaid until checkout.
CREATE TABLE orders (
    id            TEXT PRIMARY KEY,
    order_number  TEXT NOT NULL UNIQUE,
    result_id     TEXT NOT NULL REFERENCES results (id),
    exam_id       INTEGER NOT NULL,
    status        TEXT NOT NULL,
    email         TEXT,
    created_at    TIMESTAMP NOT NULL,
    updated_at    TIMESTAMP NOT NULL
);
CREATE INDEX orders_result_id ON orders (result_id);
