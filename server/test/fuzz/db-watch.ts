import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * Tells whether a request changed the database's content, cheaply enough to ask after every
 * request.
 *
 * Each table has a content hash: the sum (mod 2^64) of a hash of each row, so the order of rows
 * does not matter and a table's hash can be kept up to date from the rows that change, without
 * reading the table again. The hashes are taken in full once, at the start.
 *
 * 1. `SELECT total_changes()` before and after a request: rows written by this connection (the
 *    app's only one), triggers included. Unmoved means nothing was written: done.
 * 2. When it moved, temp triggers (in the connection's temp schema, never in the database file)
 *    have copied every row image written: the new row of an INSERT, the old and new rows of an
 *    UPDATE, the old row of a DELETE, each as the text of quote() of every column. A write rolled
 *    back takes its copies with it (they were written in the same transaction).
 * 3. The table's hash moves by + hash(new rows) − hash(old rows). A table whose hash moved
 *    changed content; an UPDATE that wrote the same values, or a row added then removed, did not.
 *
 * Tables no trigger can watch (SQLite protects FTS shadow tables) are hashed in full whenever
 * total_changes moved; they are small. `verify()` hashes everything again from scratch and
 * compares, so a write the triggers missed would show up as a failure of the detector itself.
 */
const IMAGES = 'fz_rows';
const MASK = (1n << 64n) - 1n;

export interface Change {
  table: string;
  detail: string;
}

function rowHash(text: string): bigint {
  return createHash('sha1').update(text).digest().readBigUInt64LE(0);
}

export class DbWatch {
  private readonly sqlite: Database.Database;
  private readonly tables: string[] = [];
  private readonly unwatched: string[] = [];
  private readonly hashes = new Map<string, bigint>();
  private readonly scans = new Map<string, Database.Statement>();
  private readonly totalChanges: Database.Statement;
  private readonly readImages: Database.Statement;
  private readonly clearImages: Database.Statement;
  private last = 0;
  /** Row images folded into the hashes, and full scans of unwatched tables, over the run. */
  rowsSeen = 0;
  fullScans = 0;

  constructor(sqlite: Database.Database) {
    this.sqlite = sqlite;
    const all = sqlite.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
      name: string;
      sql: string;
    }[];
    // No key and no constraint: a copy can never fail the app's statement.
    sqlite.exec(`CREATE TEMP TABLE IF NOT EXISTS ${IMAGES} (t TEXT NOT NULL, sign INTEGER NOT NULL, row TEXT NOT NULL)`);
    for (const { name, sql } of all) {
      if (/^CREATE VIRTUAL TABLE/i.test(sql)) continue; // its shadow tables hold its content
      this.tables.push(name);
      const cols = (sqlite.prepare('SELECT name FROM pragma_table_info(?)').all(name) as { name: string }[]).map((c) => `"${c.name.replace(/"/g, '""')}"`);
      // quote() never fails (blobs, NULLs, huge text): a trigger must not break the app's write.
      const image = (prefix: string) => cols.map((c) => `quote(${prefix}.${c})`).join(` || ',' || `);
      const q = `"${name.replace(/"/g, '""')}"`;
      const lit = name.replace(/'/g, "''");
      this.scans.set(name, sqlite.prepare(`SELECT ${image(q)} AS row FROM ${q}`).pluck());
      try {
        sqlite.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS "fz_${name}_i" AFTER INSERT ON main.${q} BEGIN ` +
            `INSERT INTO temp.${IMAGES} (t, sign, row) VALUES ('${lit}', 1, ${image('NEW')}); END;` +
            `CREATE TEMP TRIGGER IF NOT EXISTS "fz_${name}_u" AFTER UPDATE ON main.${q} BEGIN ` +
            `INSERT INTO temp.${IMAGES} (t, sign, row) VALUES ('${lit}', -1, ${image('OLD')}), ('${lit}', 1, ${image('NEW')}); END;` +
            `CREATE TEMP TRIGGER IF NOT EXISTS "fz_${name}_d" AFTER DELETE ON main.${q} BEGIN ` +
            `INSERT INTO temp.${IMAGES} (t, sign, row) VALUES ('${lit}', -1, ${image('OLD')}); END;`,
        );
      } catch {
        this.unwatched.push(name);
      }
      this.hashes.set(name, this.scan(name));
    }
    this.totalChanges = sqlite.prepare('SELECT total_changes() AS n').pluck();
    this.readImages = sqlite.prepare(`SELECT t, sign, row FROM temp.${IMAGES}`).raw(true);
    this.clearImages = sqlite.prepare(`DELETE FROM temp.${IMAGES}`);
    this.clearImages.run();
    this.last = this.tc();
  }

  private tc(): number {
    return this.totalChanges.get() as number;
  }

  private scan(table: string): bigint {
    let h = 0n;
    for (const row of this.scans.get(table)!.iterate() as Iterable<string>) h = (h + rowHash(row)) & MASK;
    return h;
  }

  /** Call before a request: remembers where the connection's change counter stands. */
  mark(): void {
    this.last = this.tc();
  }

  /** Call after a request: the tables whose content changed since mark() (empty when none did). */
  changes(): Change[] {
    if (this.tc() === this.last) return [];
    const delta = new Map<string, { h: bigint; added: number; removed: number }>();
    const images = this.readImages.all() as [string, number, string][];
    for (const [t, sign, row] of images) {
      const d = delta.get(t) ?? { h: 0n, added: 0, removed: 0 };
      d.h = (d.h + (sign > 0 ? rowHash(row) : MASK + 1n - rowHash(row))) & MASK;
      if (sign > 0) d.added++;
      else d.removed++;
      delta.set(t, d);
    }
    this.rowsSeen += images.length;
    if (images.length) this.clearImages.run();
    const changed: Change[] = [];
    for (const [t, d] of delta) {
      if (d.h === 0n) continue;
      this.hashes.set(t, (this.hashes.get(t)! + d.h) & MASK);
      const net = d.added - d.removed;
      changed.push({ table: t, detail: net > 0 ? `+${net} row(s)` : net < 0 ? `${net} row(s)` : `${d.added} row(s) edited` });
    }
    for (const t of this.unwatched) {
      this.fullScans++;
      const h = this.scan(t);
      if (h !== this.hashes.get(t)) changed.push({ table: t, detail: 'content changed' });
      this.hashes.set(t, h);
    }
    this.last = this.tc();
    return changed;
  }

  /** Takes the current state as the baseline (after making rows for a seed). */
  sync(): void {
    this.changes();
  }

  /** Hashes every table from scratch: the tables whose kept hash disagrees (a write the triggers missed). */
  verify(): string[] {
    this.sync();
    return this.tables.filter((t) => this.scan(t) !== this.hashes.get(t));
  }

  get watchedTables(): number {
    return this.tables.length - this.unwatched.length;
  }

  get unwatchedTables(): string[] {
    return [...this.unwatched];
  }
}
