import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestContext, TestUser } from '../../test/harness.ts';
import { liveAd, ownerAdminNy, type Place, placeIn } from '../ads/ads.testkit.ts';

// Public reads go through their own read-only connection (core/db.ts): a guest request served
// while a service's transaction is open on the writer (between two of its awaits) sees only what
// is committed, never the transaction's rows, and the page it caches is dropped as soon as that
// transaction commits.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ({ ctx, owner, admin, ny } = await ownerAdminNy());
});
afterEach(async () => {
  await ctx.close();
});

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

/** Runs `write` in a transaction, then `during` while it is still open, then rolls it back. */
async function rolledBack(write: string, during: () => Promise<void>) {
  await expect(
    ctx.app.deps.db.transaction().execute(async (trx) => {
      await sql.raw(write).execute(trx);
      await during();
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
}

/** Runs `write` in a transaction, then `during` while it is still open, then commits. */
async function committed(write: string, during: () => Promise<void>) {
  await ctx.app.deps.db.transaction().execute(async (trx) => {
    await sql.raw(write).execute(trx);
    await during();
  });
}

describe('public reads and open transactions', () => {
  it('a guest never sees an uncommitted change, and a page read meanwhile is not served after a rollback', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const url = `/api/listings?state=${ny.stateSlug}`;
    await rolledBack(`UPDATE ads SET online = 0, visible = 0 WHERE id = '${ad.id}'`, async () => {
      expect((await get(url)).json().ads.map((a: { id: string }) => a.id)).toEqual([ad.id]); // the committed state
    });
    await liveAd(ctx, owner, admin, await placeIn(ctx, 'tx')); // a later public change, elsewhere: the list read meanwhile stays
    expect((await get(url)).json().ads.map((a: { id: string }) => a.id)).toEqual([ad.id]);
  });

  it('an ad detail read during a transaction shows the committed text, then the new one once committed', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const before = (await get(`/api/ads/${ad.id}`)).json().ad.title;
    await committed(`UPDATE ads SET title = 'Committed new title', bump_seq = bump_seq + 1000 WHERE id = '${ad.id}'`, async () => {
      expect((await get(`/api/ads/${ad.id}`)).json().ad.title).toBe(before);
    });
    expect((await get(`/api/ads/${ad.id}`)).json().ad.title).toBe('Committed new title');
  });

  it('a listing cached while a transaction was open is dropped when it commits', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const url = `/api/listings?state=${ny.stateSlug}`;
    await committed(`UPDATE ads SET online = 0, visible = 0 WHERE id = '${ad.id}'`, async () => {
      expect((await get(url)).json().ads).toHaveLength(1);
    });
    expect((await get(url)).json().ads).toEqual([]);
  });

  it('a change another process writes to the file (a maintenance script) reaches the cached answers within a second', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const list = `/api/listings?state=${ny.stateSlug}`;
    const ids = async () => (await get(list)).json().ads.map((a: { id: string }) => a.id);
    expect(await ids()).toEqual([ad.id]);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200); // both cached now
    const script = `const db = require('better-sqlite3')(process.argv[1]); db.pragma('busy_timeout = 5000');
      db.prepare("UPDATE ads SET online = 0, visible = 0 WHERE id = ?").run(process.argv[2]); db.close();`;
    execFileSync(process.execPath, ['-e', script, path.join(ctx.dataDir, 'xg.sqlite'), ad.id], { cwd: path.resolve(import.meta.dirname, '../../..') });
    // This process wrote nothing: it reads the change log again once RECHECK_MS (1 s) has passed.
    await new Promise((r) => setTimeout(r, 1100));
    expect(await ids()).toEqual([]);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(404);
  });

  it('the read connection is a separate, read-only handle on the same file', () => {
    const { reader, sqlite } = ctx.app.deps.database;
    expect(reader).not.toBe(sqlite);
    expect(reader.readonly).toBe(true);
    expect(reader.name).toBe(sqlite.name);
  });
});
