import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openDatabase, trackWrites } from './db.ts';
import { KEPT_STATEMENTS, keepingStatements } from './statements.ts';

describe('trackWrites', () => {
  it('counts every statement that can change the database, raw or through Kysely, and no read', async () => {
    const database = openDatabase(':memory:');
    const { sqlite, db } = database;
    const writes = trackWrites(sqlite);
    expect(trackWrites(sqlite)).toBe(writes); // one counter per connection

    let n = writes.n;
    const moved = () => {
      const changed = writes.n !== n;
      n = writes.n;
      return changed;
    };
    sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    expect(moved()).toBe(true);
    sqlite.prepare('INSERT INTO t (v) VALUES (?)').run('a');
    expect(moved()).toBe(true);
    await sql`INSERT INTO t (v) VALUES ('b') RETURNING id`.execute(db); // a writer that returns rows
    expect(moved()).toBe(true);
    await sql`UPDATE t SET v = 'c' WHERE id = 1`.execute(db);
    expect(moved()).toBe(true);
    expect(sqlite.prepare('DELETE FROM t WHERE id = ? RETURNING id').get(2)).toEqual({ id: 2 });
    expect(moved()).toBe(true);

    expect(sqlite.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
    await sql`SELECT v FROM t`.execute(db);
    const stmt = sqlite.prepare('SELECT v FROM t WHERE id = ?');
    expect(stmt.pluck().get(1)).toBe('c'); // chained statement options keep working
    expect(moved()).toBe(false);

    // A write that fails still counts (it may have changed rows before failing, in a transaction).
    expect(() => sqlite.prepare('INSERT INTO t (id, v) VALUES (1, ?)').run('dup')).toThrow();
    expect(moved()).toBe(true);
    await database.close();
  });
});

describe('openDatabase on disk', () => {
  it('maps none of the file into memory and bounds the page caches (the server stays small at a million ads)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-db-'));
    const database = openDatabase(path.join(dir, 'x.sqlite'));
    try {
      for (const conn of [database.sqlite, database.reader]) {
        expect(conn.pragma('mmap_size', { simple: true })).toBe(0);
        const kib = -(conn.pragma('cache_size', { simple: true }) as number);
        expect(kib).toBeGreaterThan(0);
        expect(kib).toBeLessThanOrEqual(16 * 1024);
      }
      expect(database.reader).not.toBe(database.sqlite);
      expect(database.reader.readonly).toBe(true);
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the writer's kept statements", () => {
  /** Counts the statements prepared on the writer's connection from now on. */
  function countPrepares(sqlite: Database.Database): { n: number } {
    const count = { n: 0 };
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((source: string) => {
      count.n++;
      return prepare(source);
    }) as typeof sqlite.prepare;
    return count;
  }

  it('prepares a query Kysely runs again once, and its answers follow the data and the schema', async () => {
    const database = openDatabase(':memory:');
    const { sqlite, db } = database;
    try {
      sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
      const prepares = countPrepares(sqlite);
      const insert = (v: string) => sql`INSERT INTO t (v) VALUES (${v})`.execute(db);
      const read = async (id: number) => (await sql<Record<string, unknown>>`SELECT * FROM t WHERE id = ${id}`.execute(db)).rows;

      await insert('a');
      await insert('b');
      expect(await read(1)).toEqual([{ id: 1, v: 'a' }]);
      expect(await read(2)).toEqual([{ id: 2, v: 'b' }]);
      expect(prepares.n).toBe(2); // one INSERT, one SELECT, whatever the values

      // A kept statement that failed runs again; one in a transaction sees the transaction's rows.
      await expect(insert('a')).rejects.toThrow(/UNIQUE/);
      await db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t (v) VALUES (${'c'})`.execute(trx);
        expect((await sql`SELECT * FROM t WHERE id = ${3}`.execute(trx)).rows).toEqual([{ id: 3, v: 'c' }]);
      });
      expect(await read(3)).toEqual([{ id: 3, v: 'c' }]);

      // The schema changed under a kept statement: SQLite prepares it again itself (`*` now has w).
      sqlite.exec("ALTER TABLE t ADD COLUMN w TEXT NOT NULL DEFAULT 'x'");
      expect(await read(1)).toEqual([{ id: 1, v: 'a', w: 'x' }]);
      expect(prepares.n).toBe(4); // and the transaction's BEGIN IMMEDIATE and COMMIT, once each
    } finally {
      await database.close();
    }
  });

  it('hands a statement that is still iterating to nobody else', () => {
    const sqlite = new Database(':memory:');
    try {
      sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t (v) VALUES ('a'), ('b'), ('c')");
      const kept = keepingStatements(sqlite);
      const all = 'SELECT id FROM t ORDER BY id';
      const rows = kept.prepare(all).iterate([]) as IterableIterator<{ id: number }>;
      expect(rows.next().value).toEqual({ id: 1 });
      expect(kept.prepare(all).all([])).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]); // mid-iteration
      expect([...rows]).toEqual([{ id: 2 }, { id: 3 }]);
      expect(kept.prepare(all).all([])).toHaveLength(3);
    } finally {
      sqlite.close();
    }
  });

  it(`keeps at most ${KEPT_STATEMENTS}, the least recently used going first`, () => {
    const sqlite = new Database(':memory:');
    try {
      const prepares = countPrepares(sqlite);
      const kept = keepingStatements(sqlite);
      const query = (i: number) => `SELECT ${i} AS n`;
      kept.prepare(query(0));
      for (let i = 1; i <= KEPT_STATEMENTS; i++) {
        kept.prepare(query(i));
        kept.prepare(query(0)); // used all along: stays
      }
      expect(kept.kept).toBe(KEPT_STATEMENTS);
      expect(prepares.n).toBe(KEPT_STATEMENTS + 1);
      kept.prepare(query(0));
      kept.prepare(query(KEPT_STATEMENTS)); // the newest: kept
      expect(prepares.n).toBe(KEPT_STATEMENTS + 1);
      kept.prepare(query(1)); // the oldest, pushed out when the last one came in
      expect(prepares.n).toBe(KEPT_STATEMENTS + 2);
      expect(kept.kept).toBe(KEPT_STATEMENTS);
    } finally {
      sqlite.close();
    }
  });
});

describe('offThread (reads on a worker thread)', () => {
  it('reads what is committed, refuses writes and transactions, survives an error, and ends with close()', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-offthread-'));
    const database = openDatabase(path.join(dir, 'x.sqlite'));
    try {
      database.sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b')");
      const read = database.offThread;
      expect(read).not.toBe(database.db);
      expect((await sql<{ name: string }>`SELECT name FROM t ORDER BY id`.execute(read)).rows).toEqual([{ name: 'a' }, { name: 'b' }]);
      // An open transaction on the writer is not seen until it commits.
      database.sqlite.exec("BEGIN; INSERT INTO t (name) VALUES ('c')");
      expect((await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(read)).rows).toEqual([{ n: 2 }]);
      database.sqlite.exec('COMMIT');
      expect((await sql<{ n: number }>`SELECT count(*) AS n FROM t WHERE name = ${'c'}`.execute(read)).rows).toEqual([{ n: 1 }]);
      // Errors come back as errors, and the worker goes on.
      await expect(sql`SELECT nope FROM t`.execute(read)).rejects.toThrow(/no such column: nope/);
      await expect(sql`DELETE FROM t`.execute(read)).rejects.toThrow(/SELECTs only/);
      await expect(read.transaction().execute(async () => undefined)).rejects.toThrow(/no transaction/);
      expect((await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(read)).rows).toEqual([{ n: 3 }]);
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends its worker thread after a while without a read, and starts one again for the next read', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-offthread-'));
    const database = openDatabase(path.join(dir, 'x.sqlite'), { offThreadIdleMs: 100 });
    const threads = () => fs.readdirSync('/proc/self/task').length; // the process's threads (Linux)
    try {
      database.sqlite.exec("CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('a')");
      expect((await sql<{ name: string }>`SELECT name FROM t`.execute(database.offThread)).rows).toEqual([{ name: 'a' }]);
      const working = threads();
      await new Promise((r) => setTimeout(r, 500));
      expect(threads()).toBe(working - 1);
      expect((await sql<{ name: string }>`SELECT name FROM t`.execute(database.offThread)).rows).toEqual([{ name: 'a' }]);
      expect(threads()).toBe(working);
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is the writer itself for an in-memory database, which no other connection can open', async () => {
    const database = openDatabase(':memory:');
    expect(database.offThread).toBe(database.db);
    await database.close();
  });
});
