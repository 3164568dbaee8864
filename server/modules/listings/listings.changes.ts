import type Database from 'better-sqlite3';
import { trackWrites, type WriteCounter } from '../../core/db.ts';
import type { PublicReads } from './listings.repository.ts';
import { changeSet, type ChangeSet } from './listings.tags.ts';

/** How long the change log may go unread when this process wrote nothing (writers in other processes). */
const RECHECK_MS = 1000;
/** Rows read per query; past MAX_BATCH rows behind, everything is dropped instead of read. */
const BATCH = 5000;
const MAX_BATCH = 50_000;

/**
 * Follows ads_public_changes (migration 0011) on the read connection and tells the caches what
 * each committed change touches (listings.tags.ts), so a change in one city leaves every other
 * city's pages cached.
 *
 * Reading the log is a read transaction (file locks and a stat: ~10 µs, more than the rest of a
 * cache hit), so it is read only when it can have grown: after any write on the writer connection
 * of this process (trackWrites' counter, kept in JavaScript: no SQLite call on a hit) or after
 * RECHECK_MS (writers outside this process, e.g. a maintenance script). An answer is computed
 * only after the log was read up to a point, and its rows are read after it: any change it may
 * have missed comes later in the log and drops it.
 */
export class PublicChanges {
  private readonly reads: PublicReads;
  private readonly writer: Database.Database;
  private readonly writes: WriteCounter;
  private readonly listeners: Array<(c: ChangeSet) => void> = [];
  private last = -1;
  private seen = { writes: -1, at: 0 };
  /** Batches of changes handed to the caches (tests and the benchmark read it). */
  syncs = 0;

  constructor(reads: PublicReads, writer: Database.Database) {
    this.reads = reads;
    this.writer = writer;
    this.writes = trackWrites(writer);
  }

  subscribe(fn: (c: ChangeSet) => void): void {
    this.listeners.push(fn);
  }

  /**
   * Brings every cache up to date with what is committed. False while reads share the writer's
   * connection (an in-memory database) inside a transaction: the rows read then may still roll
   * back, so nothing may be cached or served from a cache.
   */
  sync(): boolean {
    if (this.reads.sqlite === this.writer && this.writer.inTransaction) return false;
    const writes = this.writes.n;
    const t = performance.now();
    if (writes === this.seen.writes && t - this.seen.at < RECHECK_MS) return true;
    this.seen = { writes, at: t };
    if (this.last < 0) {
      this.last = this.reads.lastChange(); // nothing is cached yet
      return true;
    }
    let read = 0;
    for (;;) {
      const rows = this.reads.changesAfter(this.last, BATCH);
      if (!rows.length) return true;
      const missed = rows[0].seq !== this.last + 1; // pruned before we read them
      read += rows.length;
      if (missed || read > MAX_BATCH) {
        this.last = this.reads.lastChange();
        this.emit(changeSet([], true));
        return true;
      }
      this.last = rows[rows.length - 1].seq;
      this.emit(changeSet(rows));
      if (rows.length < BATCH) return true;
    }
  }

  private emit(c: ChangeSet): void {
    this.syncs++;
    for (const fn of this.listeners) fn(c);
  }
}
