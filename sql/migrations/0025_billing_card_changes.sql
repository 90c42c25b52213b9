-- The member's billing page (issue 16): each card replaced on a
-- subscription, with the card it replaced, so a receipt names the card a
-- period was charged to even after the card on file changed. A charge paid
-- before a change was made to that change's old card; one paid after the
-- last change to the subscription's card.
CREATE TABLE subscription_card_changes (
    id               TEXT PRIMARY KEY,
    subscription_id  TEXT NOT NULL REFERENCES subscriptions (id),
    old_brand        TEXT,
    old_last4        TEXT,
    new_brand        TEXT,
    new_last4        TEXT,
    changed_at       TIMESTAMP NOT NULL
);
CREATE INDEX subscription_card_changes_sub ON subscription_card_changes (subscription_id, changed_at);
