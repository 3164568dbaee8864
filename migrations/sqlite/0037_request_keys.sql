-- Request keys (the Idempotency-Key header, server/core/idempotency.ts): a provider's action that
-- moves money or fills the cart (post-ad, bump, renewal), sent again with the same key after its
-- answer was lost, gets the stored answer back instead of being done twice. One row per user and
-- key: the action and its target (the ad; for a post, a digest of the form), the answer's status
-- and body, and when. Rows older than a day are no longer answered and are deleted as new ones
-- are written. A new table: nothing of ads is rewritten.
CREATE TABLE request_keys (
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  status INTEGER NOT NULL,
  answer_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX request_keys_created ON request_keys (created_at);
