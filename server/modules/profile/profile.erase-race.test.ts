import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { liveAd, placeIn } from '../ads/ads.testkit.ts';

// PRODUCT §2: a suspended user cannot sign in, and core/auth.ts transactionAs: a suspension
// committed while a request waited for the write lock refuses it. A master suspends an account
// (e.g. suspected trafficking) while that user's "delete my profile" is in flight (the password
// check takes a while): the erasure is refused like any ended session (401), and the account and
// its ads stay for staff, not erased after the suspension committed.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(() => ctx.close());

describe('an account deletion racing a suspension', () => {
  it('is refused (401) when the suspension commits first, and nothing is erased', async () => {
    const master = await asMaster(ctx);
    const admin = await asAdmin(ctx);
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, owner, admin, await placeIn(ctx, 'ny'));
    const del = () =>
      ctx.app.inject({
        method: 'DELETE',
        url: '/api/delete-my-profile?confirm=true',
        headers: { cookie: owner.cookie },
        payload: { password: owner.password },
      });
    const suspend = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/master/update-user-status',
        headers: { cookie: master.cookie },
        payload: { userId: owner.id, status: 'suspended' },
      });
    const [deleted, suspended] = await Promise.all([del(), suspend()]);
    // 200: the suspension found the account live (master.service.ts answers 404 for an erased one), so it committed first.
    expect(suspended.statusCode, suspended.body).toBe(200);
    const db = ctx.app.deps.db;
    const user = await db.selectFrom('users').select(['email', 'deleted_at', 'status']).where('id', '=', owner.id).executeTakeFirstOrThrow();
    const ads = await db.selectFrom('ads').select('id').where('id', '=', ad.id).execute();
    expect({
      status: deleted.statusCode,
      code: deleted.json().code,
      email: user.email,
      deletedAt: user.deleted_at,
      userStatus: user.status,
      ads: ads.length,
    }).toEqual({
      status: 401,
      code: 'auth.sign_in_required',
      email: owner.email,
      deletedAt: null,
      userStatus: 'suspended',
      ads: 1,
    });
  });
});
