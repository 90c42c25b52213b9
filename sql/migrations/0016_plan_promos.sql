-- Promo codes of the subscription plans (issue 7, the subscription
-- screens). A code takes a percentage off the first charge of the plans it
-- names: the trial price of a trial, or the first period's price of "pay
-- now". Renewals are always charged at the subscription's full price.
-- At most 90% off: a first charge is never free (the card is proven by
-- a real charge).
-- Validity is a window of UTC dates (starts_on inclusive, ends_on
-- exclusive, NULL: open), kept as ISO text so both databases compare it
-- the same way.
CREATE TABLE plan_promos (
    code         TEXT NOT NULL,
    plan_id      TEXT NOT NULL REFERENCES plans (id),
    percent_off  INTEGER NOT NULL CHECK (percent_off BETWEEN 1 AND 90),
    starts_on    TEXT NOT NULL,
    ends_on      TEXT,
    PRIMARY KEY (code, plan_id)
);

-- WELCOME20: 20% off the first charge of either plan, open-ended.
-- SUMMER26: half off the basic trial, summer 2026 only (ended; it shows
-- the "expired" answer).
INSERT INTO plan_promos (code, plan_id, percent_off, starts_on, ends_on) VALUES
    ('WELCOME20', 'basic-weekly', 20, '2026-01-01', NULL),
    ('WELCOME20', 'premium-monthly', 20, '2026-01-01', NULL),
    ('SUMMER26', 'basic-weekly', 50, '2026-06-01', '2026-09-01');
