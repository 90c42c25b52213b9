-- Report links can be withdrawn (issue 14): the signed-in owner of a report
-- withdraws all its links at once, and a withdrawn link opens nothing. The
-- row stays, so what was sent and when remains on record. A link also
-- expires a fixed time after created_at (internal/retrieve.LinkLifetime,
-- docs/report.md), which needs no column.
ALTER TABLE report_links ADD COLUMN revoked_at TIMESTAMP;
