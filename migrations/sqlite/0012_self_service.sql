-- Providers manage their own ads (issue #13): edits of approved ads as revisions reviewed before
-- they show, every version kept, renewals, reminders, richer ads and e-mail preferences.

-- The richer parts of an ad (contract/ad-extras.ts): up to five rate lines, incall / outcall, and
-- hours by weekday.
ALTER TABLE ads ADD COLUMN rates_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE ads ADD COLUMN incall INTEGER NOT NULL DEFAULT 0 CHECK (incall IN (0, 1));
ALTER TABLE ads ADD COLUMN outcall INTEGER NOT NULL DEFAULT 0 CHECK (outcall IN (0, 1));
ALTER TABLE ads ADD COLUMN availability_json TEXT NOT NULL DEFAULT '{}';
-- Each time a rejected ad goes back to the cart it is paid again: the payment and the refund of
-- each attempt have their own ledger keys (ad-payment:<id>:<n>, ad-refund:<id>:<n>; n = 0 keeps
-- the keys of ads paid before this column).
ALTER TABLE ads ADD COLUMN pay_attempt INTEGER NOT NULL DEFAULT 0;
-- Renewals: when the last one was made (a double click must not pay twice), and the term
-- (expires_at) the reminder / the expiry notice was sent for, so each is sent once per term.
ALTER TABLE ads ADD COLUMN renewed_at TEXT;
ALTER TABLE ads ADD COLUMN reminded_for TEXT;
ALTER TABLE ads ADD COLUMN expired_notice_for TEXT;

-- An edit of an approved (or expired) ad waiting for review: the public keeps seeing the ad as it
-- was approved until staff approve the revision. One pending revision per ad (a newer edit
-- replaces it: 'superseded'); every revision is kept.
CREATE TABLE ad_revisions (
  id TEXT PRIMARY KEY,
  ad_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'superseded')),
  listing_type TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  age TEXT NOT NULL,
  state_id TEXT NOT NULL,
  city_id TEXT NOT NULL,
  phone TEXT NOT NULL,
  photos_json TEXT NOT NULL,
  rates_json TEXT NOT NULL,
  incall INTEGER NOT NULL,
  outcall INTEGER NOT NULL,
  availability_json TEXT NOT NULL,
  rejection_reason TEXT,
  created_at TEXT NOT NULL,
  decided_at TEXT,
  decided_by TEXT
);
CREATE UNIQUE INDEX ad_revisions_one_pending ON ad_revisions (ad_id) WHERE status = 'pending';
CREATE INDEX ad_revisions_status ON ad_revisions (status, created_at);

-- Every version of every ad, as it was stored (posted, edited in place, a revision approved):
-- the evidence export's "every ad version". No foreign key: kept when the ad is deleted.
CREATE TABLE ad_versions (
  id INTEGER PRIMARY KEY,
  ad_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('posted', 'edited', 'revision_approved')),
  fields_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX ad_versions_ad ON ad_versions (ad_id, id);

-- Reminder e-mails (expiring soon, expired) can be turned off with a signed one-click link.
ALTER TABLE users ADD COLUMN reminders_opt_out INTEGER NOT NULL DEFAULT 0 CHECK (reminders_opt_out IN (0, 1));
