-- 0042 kept a mailbox as given its welcome credit once its code was mailed. Addresses are never
-- proven, so a stranger registering an alias of someone's inbox used up its owner's credit by
-- asking for a code the stranger could not even read. From here on a mailbox is given its credit
-- when a welcome code mailed to it is redeemed (wallets.service.ts), and each account's code on its
-- way is a claim of its own. 0042 is left as it landed; this reshapes its tables.

-- Each account's welcome code, once: first a claim (sent_at null: a process is e-mailing the code
-- `code_id` to the mailbox `mailbox`, a keyed hash of the canonical mailbox as in 0042), then the
-- record that it was sent. A claim whose e-mail never left (the process died on the way) is taken
-- over after the mail timeouts (wallets.service.ts WELCOME_CLAIM_MS). Goes with its account.
CREATE TABLE welcome_claims (
  user_id TEXT PRIMARY KEY,
  code_id TEXT NOT NULL,
  mailbox TEXT NOT NULL,
  claimed_at TEXT NOT NULL,
  sent_at TEXT
) WITHOUT ROWID;
CREATE INDEX welcome_claims_code ON welcome_claims (code_id);
INSERT OR IGNORE INTO welcome_claims (user_id, code_id, mailbox, claimed_at, sent_at)
  SELECT user_id, code_id, mailbox, claimed_at, sent_at FROM welcome_given WHERE user_id IS NOT NULL AND code_id IS NOT NULL;

-- The mailboxes whose welcome code was redeemed: of those 0042 kept, the ones whose code was.
-- `user_id`: the account that redeemed it, until that account is erased.
CREATE TABLE welcome_given_redeemed (
  mailbox TEXT PRIMARY KEY,
  user_id TEXT,
  code_id TEXT,
  given_at TEXT NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO welcome_given_redeemed (mailbox, user_id, code_id, given_at)
  SELECT g.mailbox, g.user_id, g.code_id, r.created_at FROM welcome_given g JOIN promo_redemptions r ON r.code_id = g.code_id;
DROP TABLE welcome_given;
ALTER TABLE welcome_given_redeemed RENAME TO welcome_given;
CREATE INDEX welcome_given_user ON welcome_given (user_id) WHERE user_id IS NOT NULL;

-- What the server hashes at its next start (SQL has no secret; wallets.service.ts
-- backfillWelcomeGiven), then the rows go: each account holding its personal (welcome) code that
-- has no claim yet, with when it was redeemed (null: not yet). A redeemed one gives its mailbox its
-- credit; one not yet redeemed gets its claim, on the address it has now, so that an e-mail change
-- before it is redeemed does not free the inbox it was mailed to. An erased account has only its
-- placeholder left: nothing to hash.
DROP TABLE welcome_given_backfill;
CREATE TABLE welcome_given_backfill (
  user_id TEXT PRIMARY KEY,
  code_id TEXT NOT NULL,
  given_at TEXT
) WITHOUT ROWID;
INSERT OR IGNORE INTO welcome_given_backfill (user_id, code_id, given_at)
  SELECT c.owner_user_id, c.id, r.created_at FROM promo_codes c
  LEFT JOIN promo_redemptions r ON r.code_id = c.id AND r.user_id = c.owner_user_id
  WHERE c.owner_user_id IS NOT NULL
    AND (r.created_at IS NOT NULL OR NOT EXISTS (SELECT 1 FROM welcome_claims w WHERE w.user_id = c.owner_user_id));
