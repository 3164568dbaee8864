-- When each user posted an ad, for the daily posting limit (PRODUCT §11). Counting rows of ads
-- let a user post, delete from the cart and post again without end: a deleted ad left the count.
-- These rows are never deleted with the ad; the service prunes a user's rows older than a day.

-- ad_id has no foreign key on purpose: the row must outlive the ad it names.
CREATE TABLE ad_post_log (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  ad_id TEXT NOT NULL,
  posted_at TEXT NOT NULL
);
CREATE INDEX ad_post_log_user_at ON ad_post_log (user_id, posted_at);

-- Posts of the last day made before this table existed still count.
INSERT INTO ad_post_log (user_id, ad_id, posted_at)
SELECT owner_id, id, created_at FROM ads WHERE created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day');
