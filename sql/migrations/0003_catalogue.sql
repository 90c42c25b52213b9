-- The catalogue: what can be bought for an exam, and at what price in each
-- country. Amounts are integers in hundredths of the currency for every
-- currency (JPY 150000 is 1,500 yen), as the product formats them; the
-- payment provider converts where its own units differ.
CREATE TABLE skus (
    id        TEXT PRIMARY KEY,
    exam_id   INTEGER NOT NULL,
    product   TEXT NOT NULL,
    kind      TEXT NOT NULL,
    step      TEXT,
    sort      INTEGER NOT NULL DEFAULT 0,
    active    INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX skus_exam ON skus (exam_id, kind);

-- One price per SKU and country; country '*' is the price everywhere else.
CREATE TABLE sku_prices (
    sku_id       TEXT NOT NULL REFERENCES skus (id),
    country      TEXT NOT NULL,
    currency     TEXT NOT NULL,
    amount       BIGINT NOT NULL,
    list_amount  BIGINT,
    PRIMARY KEY (sku_id, country)
);

-- Promo codes: a percentage or a fixed amount in one currency, valid in a
-- window, for a limited number of uses.
CREATE TABLE promo_codes (
    code         TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    value        BIGINT NOT NULL,
    currency     TEXT,
    valid_from   TIMESTAMP NOT NULL,
    valid_until  TIMESTAMP,
    max_uses     INTEGER,
    uses         INTEGER NOT NULL DEFAULT 0
);

-- Orders carry what was bought and what it cost, as the server priced it.
ALTER TABLE orders ADD COLUMN sku_id TEXT;
ALTER TABLE orders ADD COLUMN exam_order_number TEXT;
ALTER TABLE orders ADD COLUMN currency TEXT;
ALTER TABLE orders ADD COLUMN subtotal BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN discount BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN tax BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN total BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN promo_code TEXT;
ALTER TABLE orders ADD COLUMN country TEXT;
UPDATE orders SET status = 'created' WHERE status = 'unpaid';

-- The 16-type report and the packs of the upsell steps.
INSERT INTO skus (id, exam_id, product, kind, step, sort) VALUES
    ('mbti-report', 1807, 'MBTI', 'report', NULL, 10),
    ('mbti-pack-relationships', 1807, 'MBTI', 'pack', 'add_packs', 20),
    ('mbti-pack-career', 1807, 'MBTI', 'pack', 'depth_content', 30),
    ('mbti-pack-growth', 1807, 'MBTI', 'pack', 'member_exclusive', 40);

INSERT INTO sku_prices (sku_id, country, currency, amount, list_amount) VALUES
    ('mbti-report', '*', 'USD', 999, 2999),
    ('mbti-report', 'GB', 'GBP', 899, 2499),
    ('mbti-report', 'DE', 'EUR', 999, 2999),
    ('mbti-report', 'FR', 'EUR', 999, 2999),
    ('mbti-report', 'ES', 'EUR', 999, 2999),
    ('mbti-report', 'PT', 'EUR', 999, 2999),
    ('mbti-report', 'JP', 'JPY', 150000, 450000),
    ('mbti-report', 'KR', 'KRW', 1300000, 3900000),
    ('mbti-report', 'CN', 'CNY', 6800, 19800),
    ('mbti-report', 'HK', 'HKD', 7800, 23800),
    ('mbti-report', 'BR', 'BRL', 4990, 14990),
    ('mbti-pack-relationships', '*', 'USD', 499, 999),
    ('mbti-pack-relationships', 'DE', 'EUR', 499, 999),
    ('mbti-pack-relationships', 'JP', 'JPY', 75000, 150000),
    ('mbti-pack-relationships', 'KR', 'KRW', 650000, 1300000),
    ('mbti-pack-career', '*', 'USD', 499, 999),
    ('mbti-pack-career', 'DE', 'EUR', 499, 999),
    ('mbti-pack-career', 'JP', 'JPY', 75000, 150000),
    ('mbti-pack-career', 'KR', 'KRW', 650000, 1300000),
    ('mbti-pack-growth', '*', 'USD', 699, 1499),
    ('mbti-pack-growth', 'DE', 'EUR', 699, 1499),
    ('mbti-pack-growth', 'JP', 'JPY', 100000, 200000),
    ('mbti-pack-growth', 'KR', 'KRW', 900000, 1800000);
