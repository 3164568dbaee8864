-- Where the next renewal-reminders run starts looking for expired ads still owed their "it expired"
-- notice (ads.reminders.ts expiredNoticeSince): one row. `owed_since` is the end of the oldest term
-- a run left unhandled (past its 500 a run, an e-mail that failed, a claim another run still held),
-- or the start of the last run that handled every one it found. Not a job run: purge-old-runs
-- leaves it, so an outage of over 30 days still reaches the last 30 days; a restored backup keeps
-- its own, so its old expiries are not mailed. Seeded from the last successful run, which the
-- window started from until now.
CREATE TABLE reminder_backlog (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  owed_since TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO reminder_backlog (id, owed_since, updated_at)
  SELECT 1, started_at, started_at FROM cron_runs WHERE name = 'renewal-reminders' AND outcome = 'ok' ORDER BY id DESC LIMIT 1;
