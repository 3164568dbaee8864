-- Page views counted per UTC day as they are recorded, so that the staff's page-view figures read
-- a few thousand counters instead of every view of the year (at 4M views: 3 s for 365 days).
-- page_views keeps every view (the ads' own 7- and 30-day counts read it); these tables are kept
-- by triggers in the view's own statement, and purged by the purge-page-views job after it.
--
-- A day is substr(at, 1, 10): `at` is an ISO instant in UTC, and the summary's window starts at the
-- beginning of a UTC day, so whole days give the same numbers.

-- Views per day and language: the total, per day, per language.
CREATE TABLE page_view_days (
  day TEXT NOT NULL,
  locale TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (day, locale)
) WITHOUT ROWID;

-- Views per day and path: the most viewed pages and ads of the last days. By day first: a view
-- updates a row of its day, among the last pages of the table, that stay in the cache (by path
-- first, each view wrote a page of its own somewhere in the year: inserts a fifth slower). A path's
-- count over a window is read a day at a time (day IN (...) AND path = ?). No other index: each
-- would cost every new (day, path) a write somewhere in the year.
CREATE TABLE page_view_paths (
  day TEXT NOT NULL,
  path TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (day, path)
) WITHOUT ROWID;

-- Each path's views over every day still in page_view_paths (their sum there): a bound of its
-- views in any window, which lets the top 20 of a long window be found by counting the days of a
-- few paths instead of all of them (analytics.repository.ts). No index on n: each view would move
-- an entry of it, and the few tens of thousands of paths are ordered when read.
CREATE TABLE page_view_path_totals (
  path TEXT PRIMARY KEY,
  n INTEGER NOT NULL
) WITHOUT ROWID;

-- Each view is counted in the statement that records it.
CREATE TRIGGER page_views_counted AFTER INSERT ON page_views
BEGIN
  INSERT INTO page_view_days (day, locale, n) VALUES (substr(NEW.at, 1, 10), NEW.locale, 1)
    ON CONFLICT (day, locale) DO UPDATE SET n = n + 1;
  INSERT INTO page_view_paths (day, path, n) VALUES (substr(NEW.at, 1, 10), NEW.path, 1)
    ON CONFLICT (day, path) DO UPDATE SET n = n + 1;
  INSERT INTO page_view_path_totals (path, n) VALUES (NEW.path, 1)
    ON CONFLICT (path) DO UPDATE SET n = n + 1;
END;

-- A purged day of a path leaves its total (which stays the sum of its days in page_view_paths).
CREATE TRIGGER page_view_paths_purged AFTER DELETE ON page_view_paths
BEGIN
  UPDATE page_view_path_totals SET n = n - OLD.n WHERE path = OLD.path;
  DELETE FROM page_view_path_totals WHERE path = OLD.path AND n <= 0;
END;

-- The views recorded before this migration.
INSERT INTO page_view_days (day, locale, n)
  SELECT substr(at, 1, 10), locale, count(*) FROM page_views GROUP BY substr(at, 1, 10), locale;
INSERT INTO page_view_paths (day, path, n)
  SELECT substr(at, 1, 10), path, count(*) FROM page_views GROUP BY substr(at, 1, 10), path;
INSERT INTO page_view_path_totals (path, n)
  SELECT path, sum(n) FROM page_view_paths GROUP BY path;
