-- Honest reference prices (issue 13). The catalogue's fixed "list" prices
-- were never charged, so a struck-through "was 29.99" beside 9.99 was a
-- claim the shop could not back. The EU rule for price reductions
-- (Directive 98/6/EC art. 6a, as amended by the Omnibus Directive) says a
-- reduction names the lowest price actually applied in the 30 days before
-- it. A price row now records when its amount took effect (price_since) and
-- where that 30-day window starts (reference_from); the reference price is
-- read from the orders paid in that window (store.pricedSKUs), and a page
-- strikes it through only when it is above today's price. Rows whose price
-- never changed have neither, so nothing is struck through.
ALTER TABLE sku_prices DROP COLUMN list_amount;
ALTER TABLE sku_prices ADD COLUMN price_since TIMESTAMP;
ALTER TABLE sku_prices ADD COLUMN reference_from TIMESTAMP;

-- Packs are priced per country and currency like the report: a visitor in
-- Hong Kong, Britain, France, Spain, Portugal, mainland China or Brazil no
-- longer sees a bare US-dollar price.
INSERT INTO sku_prices (sku_id, country, currency, amount) VALUES
    ('mbti-pack-relationships', 'GB', 'GBP', 449),
    ('mbti-pack-relationships', 'FR', 'EUR', 499),
    ('mbti-pack-relationships', 'ES', 'EUR', 499),
    ('mbti-pack-relationships', 'PT', 'EUR', 499),
    ('mbti-pack-relationships', 'CN', 'CNY', 3400),
    ('mbti-pack-relationships', 'HK', 'HKD', 3900),
    ('mbti-pack-relationships', 'BR', 'BRL', 2490),
    ('mbti-pack-career', 'GB', 'GBP', 449),
    ('mbti-pack-career', 'FR', 'EUR', 499),
    ('mbti-pack-career', 'ES', 'EUR', 499),
    ('mbti-pack-career', 'PT', 'EUR', 499),
    ('mbti-pack-career', 'CN', 'CNY', 3400),
    ('mbti-pack-career', 'HK', 'HKD', 3900),
    ('mbti-pack-career', 'BR', 'BRL', 2490),
    ('mbti-pack-growth', 'GB', 'GBP', 599),
    ('mbti-pack-growth', 'FR', 'EUR', 699),
    ('mbti-pack-growth', 'ES', 'EUR', 699),
    ('mbti-pack-growth', 'PT', 'EUR', 699),
    ('mbti-pack-growth', 'CN', 'CNY', 4800),
    ('mbti-pack-growth', 'HK', 'HKD', 5500),
    ('mbti-pack-growth', 'BR', 'BRL', 3490);
