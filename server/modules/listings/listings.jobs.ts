import { sql } from 'kysely';
import type { AppDeps } from '../../core/deps.ts';
import { jobReport, type JobReport } from '../../core/report.ts';

/** Index pages merged in one step: one short write (~20 ms on average, at most ~70 ms at a million ads), so other writes wait little. */
const MERGE_PAGES_PER_STEP = 64;

/**
 * Cron job compact-search-index (nightly): merges the search index (ads_fts) back into one
 * segment. Every change of a public ad writes a small segment and a tombstone; FTS5 merges them
 * only partly as it goes, and a search walks every segment: at a million ads, after 6,000 flips
 * a search's walk took 172 µs, merged again 88 µs (the whole merge: 3.5 s in 185 steps). The
 * merge goes MERGE_PAGES_PER_STEP pages at a time, each step its own write transaction, with the
 * event loop free between them (requests and other writes go on); it stops when a step finds
 * nothing left to merge, or when the run is aborted (the next night goes on from there).
 */
export async function compactSearchIndex(deps: Pick<AppDeps, 'db'>, signal: AbortSignal): Promise<JobReport> {
  let steps = 0;
  while (!signal.aborted) {
    // Each step is its own write transaction through Kysely's connection, so it never lands inside
    // a request's open transaction. 'merge' with a negative page count merges segments of every
    // level, as 'optimize' does, a step at a time; a step that did nothing moves total_changes() by
    // less than 2 (FTS5 documentation: the command's own row counts one).
    const worked = await deps.db.transaction().execute(async (trx) => {
      const before = (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(trx)).rows[0].n;
      await sql`INSERT INTO ads_fts (ads_fts, rank) VALUES ('merge', ${-MERGE_PAGES_PER_STEP})`.execute(trx);
      return (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(trx)).rows[0].n - before >= 2;
    });
    if (!worked) break;
    steps++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const done = `${steps} merge ${steps === 1 ? 'step' : 'steps'} of ${MERGE_PAGES_PER_STEP} pages`;
  const figures = { count: steps, pages: MERGE_PAGES_PER_STEP };
  if (signal.aborted) return jobReport(`stopped after ${done}`, 'cron.index_stopped', figures);
  return steps
    ? jobReport(`search index merged: ${done}`, 'cron.index_merged', figures)
    : jobReport('search index already merged', 'cron.index_already_merged');
}
