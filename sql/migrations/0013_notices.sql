-- Service notices of the user centre (issue 7): written once per locale,
-- shown to an audience (all signed-in users, basic and above, or premium
-- only) from published_at on; a notice without published_at is a draft.
-- slug names a notice for the seed, so seeding again updates it.
CREATE TABLE notices (
    id            TEXT PRIMARY KEY,
    slug          TEXT NOT NULL,
    audience      TEXT NOT NULL DEFAULT 'all' CHECK (audience IN ('all', 'basic', 'premium')),
    published_at  TIMESTAMP,
    created_at    TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX notices_slug ON notices (slug);
CREATE INDEX notices_published_at ON notices (published_at);

-- A notice's title and body in one locale (a go-i18n tag: en, zh-CN, ...);
-- a locale without its own text falls back to en.
CREATE TABLE notice_texts (
    notice_id  TEXT NOT NULL REFERENCES notices (id) ON DELETE CASCADE,
    locale     TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (notice_id, locale)
);

-- Which user has opened which notice; gone with the account.
CREATE TABLE notice_reads (
    notice_id  TEXT NOT NULL REFERENCES notices (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    read_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, notice_id)
);
