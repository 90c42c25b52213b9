-- Promo limits hold at payment (issue 14). A use of a promo code is held by
-- the payment attempt that carries it, from the attempt's start until
-- hold_until (at most 30 minutes, never past the code's end): a code with
-- one use left can no longer be put on three open payments at once. The
-- hold ends when the attempt is paid (the use is then counted in
-- promo_codes.uses), replaced, declined, or left past hold_until.
ALTER TABLE payment_attempts ADD COLUMN promo_code TEXT;
ALTER TABLE payment_attempts ADD COLUMN hold_until TIMESTAMP;
CREATE INDEX payment_attempts_promo ON payment_attempts (promo_code, status, hold_until);

-- Payments still open carry their order's code, without a hold: their
-- success counts the use only if one is still free.
UPDATE payment_attempts SET promo_code = (SELECT o.promo_code FROM orders o WHERE o.id = payment_attempts.order_id)
    WHERE status = 'started';

-- A failure delivered after a payment's success marked the payment failed;
-- a recorded success is the truth (issue 14, item 7).
UPDATE payment_attempts SET status = 'succeeded', failure_code = NULL
    WHERE status = 'failed' AND id IN (SELECT e.attempt_id FROM payment_events e WHERE e.kind = 'payment.succeeded');
