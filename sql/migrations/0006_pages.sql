-- Help centre articles, one row per article and locale. The built-in
-- articles are product content: they are written in embedded files
-- (internal/content) and loaded at every start, so a fresh install has them.
-- A built-in row is refreshed when its file changes (source_hash) unless the
-- back office has edited it (edited_at). exam_id 0 means every exam.
CREATE TABLE help_articles (
    slug         TEXT NOT NULL,
    locale       TEXT NOT NULL,
    exam_id      INTEGER NOT NULL DEFAULT 0,
    section      TEXT NOT NULL,
    sort         INTEGER NOT NULL DEFAULT 0,
    title        TEXT NOT NULL,
    body         TEXT NOT NULL,
    source_hash  TEXT NOT NULL DEFAULT '',
    edited_at    TIMESTAMP,
    updated_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (slug, locale)
);
CREATE INDEX help_articles_locale ON help_articles (locale, exam_id, sort);

-- Legal documents ("protocols" in the spec), one row per document and
-- locale, loaded like the help articles. flag says which document it is:
-- 1 terms of service, 2 privacy policy, 3 subscription terms, 4 cookie
-- policy. version is the date the text takes effect.
CREATE TABLE protocols (
    slug         TEXT NOT NULL,
    locale       TEXT NOT NULL,
    exam_id      INTEGER NOT NULL DEFAULT 0,
    flag         INTEGER NOT NULL,
    title        TEXT NOT NULL,
    body         TEXT NOT NULL,
    version      TEXT NOT NULL,
    source_hash  TEXT NOT NULL DEFAULT '',
    edited_at    TIMESTAMP,
    updated_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (slug, locale)
);
CREATE INDEX protocols_locale_flag ON protocols (locale, flag);

-- Messages sent with the contact form. Each one is also queued in
-- mail_outbox for the support address, in the same transaction.
CREATE TABLE contact_messages (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    email       TEXT NOT NULL,
    topic       TEXT NOT NULL,
    message     TEXT NOT NULL,
    locale      TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'new',
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX contact_messages_created_at ON contact_messages (created_at);
