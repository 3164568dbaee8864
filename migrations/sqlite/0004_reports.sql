-- Trust-and-safety reports (ads, trafficking, contact, law enforcement) and the site's own page views.

-- ad_id has no foreign key on purpose: a report must outlive the ad it names (evidence for staff
-- and law enforcement), and the ads table belongs to another module.
CREATE TABLE reports (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('ad', 'trafficking', 'contact', 'law_enforcement')),
  ad_id TEXT,
  message TEXT NOT NULL,
  contact TEXT,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  -- A keyed hash of the sender's IP: lets staff see repeated senders without keeping the address.
  ip_hash TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX reports_status_created ON reports (status, created_at);
CREATE INDEX reports_kind_created ON reports (kind, created_at);
CREATE INDEX reports_ad ON reports (ad_id) WHERE ad_id IS NOT NULL;

-- Page views reported by the client on route change (no third-party tracker).
CREATE TABLE page_views (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  locale TEXT NOT NULL,
  referrer_host TEXT,
  at TEXT NOT NULL
);
CREATE INDEX page_views_at ON page_views (at);
CREATE INDEX page_views_path_at ON page_views (path, at);
