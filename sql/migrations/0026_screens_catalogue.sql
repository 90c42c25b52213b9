-- The reports of the two clinical screens (issue 17): the depression
-- screen (exam 2001, PHQ-9, report DEPS) and the general psychological
-- test (exam 2002, K10, report YDGX). Each is one report product, priced in
-- every country the 16-type report has a price of its own, in the same
-- currency and below the 16-type's price: the report is shorter and has no
-- packs. Amounts are hundredths of the currency (JPY 80000 is 800 yen).
-- No reference price is set: these prices never changed, so nothing is
-- struck through (0018).
INSERT INTO skus (id, exam_id, product, kind, step, sort) VALUES
    ('deps-report', 2001, 'DEPS', 'report', NULL, 10),
    ('ydgx-report', 2002, 'YDGX', 'report', NULL, 10);

INSERT INTO sku_prices (sku_id, country, currency, amount) VALUES
    ('deps-report', '*', 'USD', 499),
    ('deps-report', 'GB', 'GBP', 449),
    ('deps-report', 'DE', 'EUR', 499),
    ('deps-report', 'FR', 'EUR', 499),
    ('deps-report', 'ES', 'EUR', 499),
    ('deps-report', 'PT', 'EUR', 499),
    ('deps-report', 'JP', 'JPY', 80000),
    ('deps-report', 'KR', 'KRW', 690000),
    ('deps-report', 'CN', 'CNY', 3400),
    ('deps-report', 'HK', 'HKD', 3900),
    ('deps-report', 'BR', 'BRL', 2490),
    ('ydgx-report', '*', 'USD', 499),
    ('ydgx-report', 'GB', 'GBP', 449),
    ('ydgx-report', 'DE', 'EUR', 499),
    ('ydgx-report', 'FR', 'EUR', 499),
    ('ydgx-report', 'ES', 'EUR', 499),
    ('ydgx-report', 'PT', 'EUR', 499),
    ('ydgx-report', 'JP', 'JPY', 80000),
    ('ydgx-report', 'KR', 'KRW', 690000),
    ('ydgx-report', 'CN', 'CNY', 3400),
    ('ydgx-report', 'HK', 'HKD', 3900),
    ('ydgx-report', 'BR', 'BRL', 2490);
