-- The mailboxes whose welcome promo code was redeemed, so the $20 is one per inbox for good: deleting
-- the account and signing up again, or an alias of the same inbox (+tag, Gmail's dots), gets no
-- second. Redeemed, not mailed: addresses are never proven, so a code mailed to an inbox may be a
-- stranger's request (an alias of it) and must not use up its owner's credit.
-- `mailbox` is a keyed hash (HMAC with the server's secret) of the canonical mailbox
-- (contract/rules.ts canonicalMailbox), not the address: the row outlives the account's erasure.
-- `user_id`: the account that redeemed it, until that account is erased.
CREATE TABLE welcome_given (
  mailbox TEXT PRIMARY KEY,
  user_id TEXT,
  code_id TEXT,
  given_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX welcome_given_user ON welcome_given (user_id) WHERE user_id IS NOT NULL;

-- Each account's welcome code, once: first a claim (sent_at null: a process is e-mailing the code
-- `code_id` to the mailbox `mailbox`, hashed as above), then the record that it was sent. A claim
-- whose e-mail never left (the process died on the way) is taken over after the mail timeouts
-- (wallets.service.ts WELCOME_CLAIM_MS). Goes with its account.
CREATE TABLE welcome_claims (
  user_id TEXT PRIMARY KEY,
  code_id TEXT NOT NULL,
  mailbox TEXT NOT NULL,
  claimed_at TEXT NOT NULL,
  sent_at TEXT
) WITHOUT ROWID;
CREATE INDEX welcome_claims_code ON welcome_claims (code_id);

-- The accounts that redeemed their welcome code (the personal code they own) before these tables:
-- their mailboxes are hashed by the server at its start (SQL has no secret), then the rows go
-- (wallets.service.ts backfillWelcomeGiven).
CREATE TABLE welcome_given_backfill (
  user_id TEXT PRIMARY KEY,
  code_id TEXT NOT NULL,
  given_at TEXT NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO welcome_given_backfill (user_id, code_id, given_at)
  SELECT r.user_id, r.code_id, r.created_at FROM promo_redemptions r
  JOIN promo_codes c ON c.id = r.code_id AND c.owner_user_id = r.user_id
  JOIN users u ON u.id = r.user_id;
