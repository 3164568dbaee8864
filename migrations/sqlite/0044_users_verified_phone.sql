-- Verified phones link accounts (moderation.linked.repository.ts: a suspended provider back with a
-- new account, staff with their own second account) and flag a new ad whose phone is another
-- account's (moderation.duplicates.ts). Without an index each of those read the whole users table.
CREATE INDEX users_verified_phone ON users (phone) WHERE phone_verified_at IS NOT NULL;
