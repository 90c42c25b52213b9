-- Links to a paid report. A link carries a random token (256 bits); only its
-- SHA-256 is stored, so the database alone opens no report. Every e-mail
-- that carries a link makes a new one; old links keep working.
CREATE TABLE report_links (
    token_hash  TEXT PRIMARY KEY,
    result_id   TEXT NOT NULL REFERENCES results (id),
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX report_links_result ON report_links (result_id);

-- The report as a PDF, made once per result and locale by a job and then
-- served from here.
CREATE TABLE report_pdfs (
    result_id   TEXT NOT NULL REFERENCES results (id),
    locale      TEXT NOT NULL,
    pdf         BLOB NOT NULL,
    pages       INTEGER NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (result_id, locale)
);

-- Mail has an HTML part beside the plain text.
ALTER TABLE mail_outbox ADD COLUMN html_body TEXT;
-- Delivery retries back off: how many tries, when the next may run, and
-- what went wrong last.
ALTER TABLE mail_outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mail_outbox ADD COLUMN next_attempt_at TIMESTAMP;
ALTER TABLE mail_outbox ADD COLUMN last_error TEXT;
