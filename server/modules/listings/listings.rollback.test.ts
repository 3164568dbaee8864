import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';

// The public reads use the same SQLite connection as every transaction, without Kysely's mutex,
// so a guest request served while a transaction is open sees its uncommitted rows. Such a page
// must never be cached: after a rollback the version number goes back, the next real change
// brings it to the same number again, and the uncommitted page would be served as current.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => {
  await ctx.close();
});

const get = (url: string) => ctx.app.inject({ method: 'GET', url });
const bumpVersion = () => ctx.app.deps.database.sqlite.prepare('UPDATE ads_public_version SET v = v + 1').run();

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

describe('public caches and open transactions', () => {
  it('a listing page read during a transaction that rolls back is not served later', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const url = `/api/listings?state=${ny.stateSlug}`;
    await rolledBack(`UPDATE ads SET online = 0, visible = 0 WHERE id = '${ad.id}'`, async () => {
      expect((await get(url)).json().ads).toEqual([]); // the uncommitted state is visible on this connection
    });
    bumpVersion(); // any later public change: the version is back to the number seen inside the transaction
    expect((await get(url)).json().ads.map((a: { id: string }) => a.id)).toEqual([ad.id]);
  });

  it('an ad detail read during a transaction that rolls back is not served later', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    // a bump (new bump_seq: the version moves) with new text, never committed
    await rolledBack(`UPDATE ads SET title = 'Uncommitted title here', bump_seq = bump_seq + 1000 WHERE id = '${ad.id}'`, async () => {
      expect((await get(`/api/ads/${ad.id}`)).json().ad.title).toBe('Uncommitted title here');
    });
    bumpVersion();
    expect((await get(`/api/ads/${ad.id}`)).json().ad.title).not.toBe('Uncommitted title here');
  });
});
