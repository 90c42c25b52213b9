-- Social proof from real data: what test-takers say about their result, and
-- the reviews shown on the landing pages.

-- One accuracy rating per result (1 = not like me at all, 5 = exactly me),
-- written from the report; a second rating of the same result replaces the
-- first. The landing pages show the average only above a minimum count.
CREATE TABLE ratings (
    result_id   TEXT PRIMARY KEY REFERENCES results (id),
    score       INTEGER NOT NULL CHECK (score BETWEEN 1 AND 5),
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX ratings_created_at ON ratings (created_at);

-- Reviews and testimonials, in the language they were written in. Only
-- approved rows are shown; nothing is shown when there are none. avatar is
-- an image URL (empty: initials are drawn instead); location is free text
-- such as "Lyon, France".
CREATE TABLE reviews (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    type_code   TEXT NOT NULL DEFAULT '',
    content     TEXT NOT NULL,
    avatar      TEXT NOT NULL DEFAULT '',
    location    TEXT NOT NULL DEFAULT '',
    locale      TEXT NOT NULL,
    approved    INTEGER NOT NULL DEFAULT 0,
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX reviews_locale ON reviews (locale, approved, created_at);

-- The counters and activity notices read results by country and time, and
-- paid orders by time.
CREATE INDEX results_country_created_at ON results (country, created_at);
CREATE INDEX orders_status_updated_at ON orders (status, updated_at);
