-- Demo data is marked (issue 13): `selfmap seed` records here what it
-- loaded, and every figure a page shows from stored results (landing
-- counters, accuracy ratings, a report's shares and rankings) says it
-- includes demo data while a row is here. `seed` refuses to run with
-- APP_ENV=prod, so a production database never has one.
CREATE TABLE demo_data (
    kind       TEXT PRIMARY KEY,
    rows_added INTEGER NOT NULL,
    loaded_at  TIMESTAMP NOT NULL
);
