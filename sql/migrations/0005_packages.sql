-- Orders of two kinds: the report a submission opens, and the packs bought
-- on the upsell steps once the report is paid. A result has one order per
-- pack, so two clicks on "add" make one order (and, through its attempts,
-- one charge).
ALTER TABLE orders ADD COLUMN kind TEXT NOT NULL DEFAULT 'report';
CREATE UNIQUE INDEX orders_pack ON orders (result_id, sku_id) WHERE kind = 'pack';
CREATE INDEX orders_result_kind ON orders (result_id, kind);
-- orders_result_kind serves every lookup orders_result_id did.
DROP INDEX orders_result_id;
