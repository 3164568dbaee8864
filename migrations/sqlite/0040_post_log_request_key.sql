-- The request key (core/idempotency.ts) a post was sent with: the same form sent again while the
-- first try still encodes its photos (another server, or a retry after a lost answer) shares that
-- try's place in the daily limit instead of taking a second one (and being refused at the limit).
ALTER TABLE ad_post_log ADD COLUMN request_key TEXT;
