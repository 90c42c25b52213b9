-- Reports a plan opened without an order being paid (issue 16): a Premium
-- member's own reports ("your reports anytime"), and the free reports a
-- Basic plan includes each billing period. One row per result: once a
-- report is open it stays open, even after the plan that opened it ends.
-- subscription_id is the subscription that opened it, so a Basic plan's
-- free reports are counted per subscription and period.
CREATE TABLE report_unlocks (
    result_id        TEXT PRIMARY KEY REFERENCES results (id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    how              TEXT NOT NULL CHECK (how IN ('premium', 'basic_free')),
    subscription_id  TEXT NOT NULL REFERENCES subscriptions (id),
    created_at       TIMESTAMP NOT NULL
);
CREATE INDEX report_unlocks_by_subscription ON report_unlocks (subscription_id, how, created_at);
CREATE INDEX report_unlocks_by_user ON report_unlocks (user_id);
