-- Verification texts sent, per number, for the hourly limit per number (PRODUCT §11). The codes
-- (phone_codes) go with an account's erasure, and accounts are free to make: the texts a number got
-- are counted here instead, so that deleting the asking account and making another does not give
-- the number its hour back, after a restart or in another process too. A number is kept only as an
-- HMAC keyed with the server's secret (no account, no number in clear); rows go after a day
-- (purge-sms). Texts sent before this table are not in it: for the hour after the upgrade a number
-- may get up to three more.
CREATE TABLE phone_texts (
  id INTEGER PRIMARY KEY,
  phone_key TEXT NOT NULL,
  sent_at TEXT NOT NULL
);
CREATE INDEX phone_texts_key ON phone_texts (phone_key, sent_at);
CREATE INDEX phone_texts_sent ON phone_texts (sent_at);
