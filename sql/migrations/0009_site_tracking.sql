-- What third-party scripts a site loads once a visitor consents: its ad
-- pixels (by vendor), tag manager, session replay and bot protection, as
-- JSON (internal/tracking.Config). '{}' loads nothing.
ALTER TABLE sites ADD COLUMN tracking TEXT NOT NULL DEFAULT '{}';
