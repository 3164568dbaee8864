-- A renewal reminder or expiry notice is taken (reminded_for, expired_notice_for: the term it is
-- for) before its e-mail goes out. These hold the time it was taken until the e-mail has left (then
-- null again): a claim still there 15 minutes later lost its process on the way (a kill -9, a power
-- cut) and a later run sends it. Null on every existing row: what was taken before counts as sent.
ALTER TABLE ads ADD COLUMN reminder_claimed_at TEXT;
ALTER TABLE ads ADD COLUMN expired_notice_claimed_at TEXT;
