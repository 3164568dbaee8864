-- The marketplace core: pricing, promo codes, ads (with their public visibility and full-text
-- index kept in step by triggers), the screening log and the cron run log.

CREATE TABLE pricing (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('ad', 'bump')),
  listing_type TEXT NOT NULL CHECK (listing_type IN ('female_esc', 'female_rub', 'shemale_esc')),
  price_cents INTEGER NOT NULL CHECK (price_cents BETWEEN 0 AND 100000000),
  -- Ads run for duration_days after approval; bumps have no duration.
  duration_days INTEGER CHECK ((kind = 'ad' AND duration_days BETWEEN 1 AND 365) OR (kind = 'bump' AND duration_days IS NULL)),
  updated_at TEXT NOT NULL,
  UNIQUE (kind, listing_type)
);
-- Defaults: $15.00 for a 30-day ad, $3.00 per bump, for every listing type.
INSERT INTO pricing (id, kind, listing_type, price_cents, duration_days, updated_at)
SELECT lower(hex(randomblob(10))), k.kind, t.lt, CASE k.kind WHEN 'ad' THEN 1500 ELSE 300 END,
       CASE k.kind WHEN 'ad' THEN 30 ELSE NULL END, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM (SELECT 'ad' AS kind UNION ALL SELECT 'bump') k,
     (SELECT 'female_esc' AS lt UNION ALL SELECT 'female_rub' UNION ALL SELECT 'shemale_esc') t;

CREATE TABLE promo_codes (
  id TEXT PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  amount_cents INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 100000000),
  max_uses INTEGER NOT NULL CHECK (max_uses >= 1),
  uses INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
  expires_at TEXT,
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  -- Set for a personal code (the welcome code): only that user may redeem it.
  owner_user_id TEXT REFERENCES users (id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX promo_codes_created ON promo_codes (created_at);

-- One row per (code, user): the primary key is what makes "once per user" hold under any race.
CREATE TABLE promo_redemptions (
  code_id TEXT NOT NULL REFERENCES promo_codes (id),
  user_id TEXT NOT NULL REFERENCES users (id),
  wallet_id TEXT NOT NULL REFERENCES wallets (id),
  amount_cents INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (code_id, user_id)
) WITHOUT ROWID;

CREATE TABLE ads (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users (id),
  listing_type TEXT NOT NULL CHECK (listing_type IN ('female_esc', 'female_rub', 'shemale_esc')),
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  age TEXT NOT NULL,
  state_id TEXT NOT NULL REFERENCES states (id),
  city_id TEXT NOT NULL REFERENCES cities (id),
  phone TEXT NOT NULL,
  photos_json TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'unpaid' CHECK (status IN ('unpaid', 'in_review', 'approved', 'rejected', 'disabled', 'expired')),
  online INTEGER NOT NULL DEFAULT 1 CHECK (online IN (0, 1)),
  rejection_reason TEXT,
  -- What was paid and from where, so a rejection refunds exactly that to exactly there.
  price_cents INTEGER,
  duration_days INTEGER,
  paid_wallet_id TEXT REFERENCES wallets (id),
  paid_at TEXT,
  -- Newest bump = largest bump_seq; it is also the ad's rowid in ads_fts, so search can walk
  -- the full-text index in bump order and stop after one page instead of ranking every match.
  bump_seq INTEGER UNIQUE,
  bumped_at TEXT,
  published_at TEXT,
  expires_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- 1 when approved, online, owner approved and live, city and state enabled (expiry is checked
  -- at read time). Recomputed by the code that changes an ad and by triggers on users, cities
  -- and states; the public indexes below hold visible ads only.
  visible INTEGER NOT NULL DEFAULT 0 CHECK (visible IN (0, 1))
);
CREATE INDEX ads_owner ON ads (owner_id, created_at);
CREATE INDEX ads_status ON ads (status, created_at);
CREATE INDEX ads_expiry ON ads (expires_at) WHERE status = 'approved';
-- For the visibility triggers on cities and states: only approved ads can be visible.
CREATE INDEX ads_approved_city ON ads (city_id) WHERE status = 'approved';
CREATE INDEX ads_approved_state ON ads (state_id) WHERE status = 'approved';
CREATE INDEX ads_pub_city_type ON ads (city_id, listing_type, bump_seq DESC, expires_at) WHERE visible = 1;
CREATE INDEX ads_pub_city ON ads (city_id, bump_seq DESC, expires_at) WHERE visible = 1;
CREATE INDEX ads_pub_state_type ON ads (state_id, listing_type, bump_seq DESC, expires_at) WHERE visible = 1;
CREATE INDEX ads_pub_state ON ads (state_id, bump_seq DESC, expires_at) WHERE visible = 1;
CREATE INDEX ads_pub_type ON ads (listing_type, bump_seq DESC, expires_at) WHERE visible = 1;
CREATE INDEX ads_pub_all ON ads (bump_seq DESC, expires_at) WHERE visible = 1;

-- Full-text index over visible ads only: title, description, place (city, state name and code)
-- and tags (type and state tokens, so filters are index intersections, not row lookups).
CREATE VIRTUAL TABLE ads_fts USING fts5 (
  title, description, place, tags,
  content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);

-- Bumped whenever the public set changes; read-side caches (aggregates, home) compare it.
CREATE TABLE ads_public_version (id INTEGER PRIMARY KEY CHECK (id = 1), v INTEGER NOT NULL);
INSERT INTO ads_public_version (id, v) VALUES (1, 0);

-- Visible ads per city and listing type, kept by the triggers below, so the location aggregate
-- and the home page read a few thousand counters instead of counting a million ads. Expiry is a
-- matter of time, not of a write: an expired ad leaves these counts when the expire-ads job runs.
CREATE TABLE ads_public_counts (
  city_id TEXT NOT NULL,
  listing_type TEXT NOT NULL,
  state_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (city_id, listing_type)
) WITHOUT ROWID;
CREATE INDEX ads_public_counts_type ON ads_public_counts (listing_type);
CREATE INDEX ads_public_counts_state ON ads_public_counts (state_id, listing_type);

CREATE TRIGGER ads_fts_insert AFTER INSERT ON ads WHEN NEW.visible = 1
BEGIN
  INSERT INTO ads_fts (rowid, title, description, place, tags)
  SELECT NEW.bump_seq, NEW.title, NEW.description, c.name || ' ' || s.name || ' ' || s.code,
         'ty' || replace(NEW.listing_type, '_', '') || ' st' || NEW.state_id
  FROM cities c JOIN states s ON s.id = NEW.state_id WHERE c.id = NEW.city_id;
  INSERT INTO ads_public_counts (city_id, listing_type, state_id, n) SELECT NEW.city_id, NEW.listing_type, NEW.state_id, 1 WHERE true
    ON CONFLICT (city_id, listing_type) DO UPDATE SET n = n + 1;
  UPDATE ads_public_version SET v = v + 1 WHERE id = 1;
END;

CREATE TRIGGER ads_fts_update AFTER UPDATE OF visible, bump_seq, title, description, city_id, state_id, listing_type ON ads
WHEN OLD.visible = 1 OR NEW.visible = 1
BEGIN
  DELETE FROM ads_fts WHERE OLD.visible = 1 AND rowid = OLD.bump_seq;
  INSERT INTO ads_fts (rowid, title, description, place, tags)
  SELECT NEW.bump_seq, NEW.title, NEW.description, c.name || ' ' || s.name || ' ' || s.code,
         'ty' || replace(NEW.listing_type, '_', '') || ' st' || NEW.state_id
  FROM cities c JOIN states s ON s.id = NEW.state_id WHERE NEW.visible = 1 AND c.id = NEW.city_id;
  UPDATE ads_public_counts SET n = n - 1 WHERE OLD.visible = 1 AND city_id = OLD.city_id AND listing_type = OLD.listing_type;
  INSERT INTO ads_public_counts (city_id, listing_type, state_id, n) SELECT NEW.city_id, NEW.listing_type, NEW.state_id, 1 WHERE NEW.visible = 1
    ON CONFLICT (city_id, listing_type) DO UPDATE SET n = n + 1;
  UPDATE ads_public_version SET v = v + 1 WHERE id = 1;
END;

CREATE TRIGGER ads_fts_delete AFTER DELETE ON ads WHEN OLD.visible = 1
BEGIN
  DELETE FROM ads_fts WHERE rowid = OLD.bump_seq;
  UPDATE ads_public_counts SET n = n - 1 WHERE city_id = OLD.city_id AND listing_type = OLD.listing_type;
  UPDATE ads_public_version SET v = v + 1 WHERE id = 1;
END;

-- Visibility follows the owner's status and the location's enabled flag, whoever changes them.
CREATE TRIGGER ads_visible_owner AFTER UPDATE OF status, deleted_at ON users
WHEN OLD.status IS NOT NEW.status OR OLD.deleted_at IS NOT NEW.deleted_at
BEGIN
  UPDATE ads SET visible = (
    status = 'approved' AND online = 1 AND bump_seq IS NOT NULL
    AND NEW.status = 'approved' AND NEW.deleted_at IS NULL
    AND EXISTS (SELECT 1 FROM cities c JOIN states s ON s.id = c.state_id WHERE c.id = ads.city_id AND c.enabled = 1 AND s.enabled = 1)
  ) WHERE owner_id = NEW.id;
END;

CREATE TRIGGER ads_visible_city AFTER UPDATE OF enabled ON cities WHEN OLD.enabled IS NOT NEW.enabled
BEGIN
  UPDATE ads SET visible = (
    status = 'approved' AND online = 1 AND bump_seq IS NOT NULL
    AND EXISTS (SELECT 1 FROM users u WHERE u.id = ads.owner_id AND u.status = 'approved' AND u.deleted_at IS NULL)
    AND NEW.enabled = 1 AND EXISTS (SELECT 1 FROM states s WHERE s.id = ads.state_id AND s.enabled = 1)
  ) WHERE city_id = NEW.id AND status = 'approved';
END;

CREATE TRIGGER ads_visible_state AFTER UPDATE OF enabled ON states WHEN OLD.enabled IS NOT NEW.enabled
BEGIN
  UPDATE ads SET visible = (
    status = 'approved' AND online = 1 AND bump_seq IS NOT NULL
    AND EXISTS (SELECT 1 FROM users u WHERE u.id = ads.owner_id AND u.status = 'approved' AND u.deleted_at IS NULL)
    AND NEW.enabled = 1 AND EXISTS (SELECT 1 FROM cities c WHERE c.id = ads.city_id AND c.enabled = 1)
  ) WHERE state_id = NEW.id AND status = 'approved';
END;

-- Attempts refused by the screening of ad text (minors, coercion), for staff review.
CREATE TABLE screening_log (
  id INTEGER PRIMARY KEY,
  user_id TEXT REFERENCES users (id),
  ad_id TEXT,
  field TEXT NOT NULL,
  term TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  ip TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX screening_log_created ON screening_log (created_at);

-- One row per run of an in-process cron job (back office: cron jobs).
CREATE TABLE cron_runs (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('running', 'ok', 'error')),
  message TEXT
);
CREATE INDEX cron_runs_started ON cron_runs (started_at);

-- Results of the periodic health checks (written by the health job).
CREATE TABLE health_checks (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'warn', 'error')),
  message TEXT,
  duration_ms INTEGER,
  checked_at TEXT NOT NULL
);
CREATE INDEX health_checks_checked ON health_checks (checked_at);
