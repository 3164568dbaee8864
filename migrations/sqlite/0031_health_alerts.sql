-- The failing checks staff were e-mailed about, one row per check until it is ok again: kept in
-- the database, so a restart or a second server does not mail a failure that goes on once more.
-- A row is first a claim (alerted_at null: one process is sending the e-mail; the INSERT only one
-- process wins), then the record that staff were told; a failed send deletes its claim, for the
-- next run to try again. `claim` tells the sender's own row from one taken over after it died.
CREATE TABLE health_alerts (
  name TEXT PRIMARY KEY,
  claim TEXT NOT NULL,
  claimed_at TEXT NOT NULL,
  alerted_at TEXT
) WITHOUT ROWID;
