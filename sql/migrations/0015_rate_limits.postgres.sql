-- Rate limits shared by every app instance (issue 8); see
-- 0015_rate_limits.sql. On PostgreSQL the table is UNLOGGED: a check then
-- writes no WAL, and a crash, which empties the table, only refills every
-- bucket.
CREATE UNLOGGED TABLE rate_limits (
    name     TEXT NOT NULL,
    subject  TEXT NOT NULL,
    tat      BIGINT NOT NULL,
    allowed  BOOLEAN NOT NULL,
    PRIMARY KEY (name, subject)
);
CREATE INDEX rate_limits_tat ON rate_limits (tat);
