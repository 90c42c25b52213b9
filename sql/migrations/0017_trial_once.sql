-- One trial per customer (issue 7): a trial is offered only to a customer,
-- by account or by e-mail address, with no paid trial before. Looking that
-- up by address needs this index; by account, subscriptions_customer
-- serves.
CREATE INDEX subscriptions_email ON subscriptions (email);
