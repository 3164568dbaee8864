-- SMS through Textbelt: the key admins set, the messages sent, the phone verification codes.
-- users.phone and users.phone_verified_at exist since 0001: a confirmed code fills them.

-- One row (id 1, the seed's "token record"): the Textbelt key. NULL: messages go to the outbox.
CREATE TABLE textbelt_tokens (
  id INTEGER PRIMARY KEY,
  token TEXT,
  updated_at TEXT,
  updated_by TEXT REFERENCES users (id)
);
INSERT INTO textbelt_tokens (id, token) VALUES (1, NULL);

-- Every message sent (or written to the outbox). A verification code never appears in `body`:
-- it is masked before the row is written. text_id is Textbelt's id, always as text.
CREATE TABLE sms_messages (
  id INTEGER PRIMARY KEY,
  to_phone TEXT NOT NULL,
  body TEXT NOT NULL,
  purpose TEXT NOT NULL CHECK (purpose IN ('verification', 'test')),
  user_id TEXT REFERENCES users (id),
  status TEXT NOT NULL CHECK (status IN ('outbox', 'test', 'accepted', 'refused', 'error', 'sending', 'sent', 'delivered', 'failed', 'unknown')),
  text_id TEXT,
  error TEXT,
  quota_remaining INTEGER,
  created_at TEXT NOT NULL,
  status_checked_at TEXT
);
CREATE INDEX sms_messages_created ON sms_messages (created_at, id);

-- Codes asked for: only an HMAC of the code is kept. The hourly limits (per user and per number)
-- count these rows, so they hold across restarts and between processes on one file.
CREATE TABLE phone_codes (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  phone TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  used_at TEXT,
  burned_at TEXT
);
CREATE INDEX phone_codes_user ON phone_codes (user_id, created_at);
CREATE INDEX phone_codes_phone ON phone_codes (phone, created_at);

-- A public ad says whether its phone is its owner's verified phone: when that changes, the
-- cached public answers (keyed by ads_public_version) are out of date.
CREATE TRIGGER ads_public_owner_phone AFTER UPDATE OF phone, phone_verified_at ON users
WHEN (OLD.phone IS NOT NEW.phone OR OLD.phone_verified_at IS NOT NEW.phone_verified_at)
  AND EXISTS (SELECT 1 FROM ads WHERE owner_id = NEW.id AND visible = 1)
BEGIN
  UPDATE ads_public_version SET v = v + 1 WHERE id = 1;
END;
