import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, trackWrites } from './db.ts';

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
