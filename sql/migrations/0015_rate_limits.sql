-- Rate limits shared by every app instance (issue 8): one row per limit and
-- client, a token bucket kept as its theoretical arrival time (GCRA), in
-- microseconds since the Unix epoch. A row whose tat has passed is a full
-- bucket, the same as no row, so the prune job deletes those.
CREATE TABLE rate_limits (
    name     TEXT NOT NULL,
    subject  TEXT NOT NULL,
    tat      BIGINT NOT NULL,
    allowed  BOOLEAN NOT NULL,
    PRIMARY KEY (name, subject)
);
CREATE INDEX rate_limits_tat ON rate_limits (tat);
