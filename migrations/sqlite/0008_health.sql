-- Operations (issue #12): a cron run that failed is 'failed' (was 'error'); health check results
-- are 'ok', 'degraded' or 'failing' (were 'ok', 'warn', 'error'), always with a message and a
-- duration. SQLite cannot change a CHECK constraint: both tables are rebuilt, their rows kept.

CREATE TABLE cron_runs_new (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('running', 'ok', 'failed')),
  message TEXT
);
INSERT INTO cron_runs_new (id, name, started_at, finished_at, outcome, message)
  SELECT id, name, started_at, finished_at, CASE outcome WHEN 'error' THEN 'failed' ELSE outcome END, message FROM cron_runs;
DROP TABLE cron_runs;
ALTER TABLE cron_runs_new RENAME TO cron_runs;
CREATE INDEX cron_runs_started ON cron_runs (started_at);
-- A job's runs, and its latest run (the schedules' last outcome).
CREATE INDEX cron_runs_name ON cron_runs (name, id);

CREATE TABLE health_checks_new (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'degraded', 'failing')),
  message TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  checked_at TEXT NOT NULL
);
INSERT INTO health_checks_new (id, name, status, message, duration_ms, checked_at)
  SELECT id, name, CASE outcome WHEN 'warn' THEN 'degraded' WHEN 'error' THEN 'failing' ELSE 'ok' END,
    coalesce(message, ''), coalesce(duration_ms, 0), checked_at
  FROM health_checks;
DROP TABLE health_checks;
ALTER TABLE health_checks_new RENAME TO health_checks;
CREATE INDEX health_checks_checked ON health_checks (checked_at);
-- A check's history, and its latest result (GET /api/health, the overview, failing transitions).
CREATE INDEX health_checks_name ON health_checks (name, id);
