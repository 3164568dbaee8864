-- Two server processes on one database file each run the scheduler. A run now says which process
-- runs it and when that process last said it was still at it (every 15 s, real time): another
-- process starts that job only when no run of it is alive, and records as interrupted only runs
-- whose process stopped saying so (a crash), never a run another process is still doing.
ALTER TABLE cron_runs ADD COLUMN owner TEXT;
ALTER TABLE cron_runs ADD COLUMN heartbeat_at TEXT;
CREATE INDEX cron_runs_running ON cron_runs (name) WHERE outcome = 'running';
