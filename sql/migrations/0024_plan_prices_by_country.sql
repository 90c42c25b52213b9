-- Plans priced per country and currency like the reports (issue 16): a
-- member in Japan saw the report in yen and the plans in dollars. Every
-- country with a report price in its own currency now has plan prices in
-- that currency, at round local price points rather than converted
-- decimals. Amounts are in hundredths of the currency, as everywhere:
-- JPY 298000 is 2,980 yen (zero-decimal currencies are shown in whole
-- units, so their prices here are whole units too).
-- Britain and the euro countries had theirs since 0011.
INSERT INTO plan_prices (plan_id, country, currency, price, trial_price) VALUES
    ('basic-weekly', 'JP', 'JPY', 298000, 20000),
    ('basic-weekly', 'KR', 'KRW', 2590000, 190000),
    ('basic-weekly', 'CN', 'CNY', 13800, 1000),
    ('basic-weekly', 'HK', 'HKD', 15800, 1200),
    ('basic-weekly', 'BR', 'BRL', 9990, 790),
    ('premium-monthly', 'JP', 'JPY', 598000, NULL),
    ('premium-monthly', 'KR', 'KRW', 5190000, NULL),
    ('premium-monthly', 'CN', 'CNY', 26800, NULL),
    ('premium-monthly', 'HK', 'HKD', 31800, NULL),
    ('premium-monthly', 'BR', 'BRL', 19990, NULL);
