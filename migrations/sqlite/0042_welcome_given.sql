-- The mailboxes ever given a welcome promo code, so the $20 is one per inbox for good: deleting the
-- account and signing up again, or an alias of the same inbox (+tag, Gmail's dots), gets no second.
-- `mailbox` is a keyed hash (HMAC with the server's secret) of the canonical mailbox
-- (contract/rules.ts canonicalMailbox), not the address: the row outlives the account's erasure.
-- A row is first a claim (sent_at null: a process is e-mailing the code `code_id`), then the record
-- that it was sent; a claim whose e-mail never left (the process died on the way) is taken over
-- after the mail timeouts (wallets.service.ts WELCOME_CLAIM_MS). `user_id`: the account that
-- claimed it, until that account is erased.
CREATE TABLE welcome_given (
  mailbox TEXT PRIMARY KEY,
  user_id TEXT,
  code_id TEXT,
  claimed_at TEXT NOT NULL,
  sent_at TEXT
) WITHOUT ROWID;
CREATE INDEX welcome_given_user ON welcome_given (user_id) WHERE user_id IS NOT NULL;

-- The accounts sent one before this table: their mailboxes are hashed by the server at its start
-- (SQL has no secret), then the rows go (wallets.service.ts backfillWelcomeGiven).
CREATE TABLE welcome_given_backfill (user_id TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT INTO welcome_given_backfill (user_id)
  SELECT id FROM users WHERE welcome_promo_sent_at IS NOT NULL AND deleted_at IS NULL;
