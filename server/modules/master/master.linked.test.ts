import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { decide, fundedUsd, liveAd, pay, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';

// Staff review no ad of an account the product links to them by a phone or a photo
// (ads.review.service.ts, accountsLinkedTo). A pending owner's ads go public when a master approves
// the owner (PRODUCT §2): that approval is their last review, and the rule holds there too, or a
// master's second account goes live with the master signing off its publication.

let ctx: TestContext;
let admin: TestUser;
let master: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
  master = await asMaster(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

const setStatus = (by: TestUser, userId: string, status: 'approved' | 'suspended' | 'pending') =>
  ctx.app.inject({ method: 'POST', url: '/api/master/update-user-status', payload: { userId, status }, headers: { cookie: by.cookie } });
const statusOf = async (id: string) => (await ctx.app.deps.db.selectFrom('users').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const auditCount = async () => (await ctx.app.deps.db.selectFrom('audit_log').select('id').where('action', '=', 'user.status').execute()).length;
/** The master's verified phone: the carrier gave it, say, to a second account's ads. */
const verifyPhone = (u: TestUser, phone: string) =>
  ctx.app.deps.db.updateTable('users').set({ phone, phone_verified_at: ctx.clock.now().toISOString() }).where('id', '=', u.id).execute();

describe('approving an account linked to the master', () => {
  it('refuses a master approving a pending account linked by the master’s verified phone; its approved ad stays hidden; another master may', async () => {
    await verifyPhone(master, '+12125550177');
    const sock = await makeUser(ctx, { status: 'pending', nickname: 'masters_sock' });
    const ad = await postAd(ctx, sock, ny, { phone: '(212) 555-0177' });
    expect((await pay(ctx, sock, ad.id, await fundedUsd(ctx, sock, 1500))).statusCode).toBe(200);
    expect((await decide(ctx, master, [ad.id], 'approve')).statusCode).toBe(409); // ad.review_own_ad
    expect((await decide(ctx, admin, [ad.id], 'approve')).json()).toEqual({ updated: 1 }); // an admin who knows nothing of the link
    const audits = await auditCount();

    const res = await setStatus(master, sock.id, 'approved');
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 409,
      body: { code: 'master.user_linked', message: 'This account is linked to yours (the same phone or photo): another master must decide.' },
    });
    expect({
      user: await statusOf(sock.id),
      publicAd: (await ctx.app.inject({ method: 'GET', url: `/api/ads/${ad.id}` })).statusCode,
      audits: await auditCount(),
    }).toEqual({
      user: 'pending',
      publicAd: 404,
      audits,
    });

    const other = await asMaster(ctx);
    expect((await setStatus(other, sock.id, 'approved')).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/ads/${ad.id}` })).statusCode).toBe(200);
  });

  it('refuses reinstating a suspended account linked by the phone of the master’s own ad, and lets the master suspend it', async () => {
    await liveAd(ctx, master, admin, ny, { phone: '(212) 555-0188' }); // the master's own listing
    const second = await makeUser(ctx, { status: 'approved' });
    await postAd(ctx, second, ny, { phone: '(212) 555-0188', title: 'Another elegant companion' });
    // Taking it down is the cautious direction: the link does not stop it (nor sending it back to pending).
    expect((await setStatus(master, second.id, 'suspended')).statusCode).toBe(200);
    const res = await setStatus(master, second.id, 'approved');
    expect({ status: res.statusCode, code: res.json().code, user: await statusOf(second.id) }).toEqual({
      status: 409,
      code: 'master.user_linked',
      user: 'suspended',
    });
    expect((await setStatus(master, second.id, 'pending')).statusCode).toBe(200);
    expect((await setStatus(master, second.id, 'approved')).json().code).toBe('master.user_linked');
    // Setting the status an account already has changes nothing, and is not refused.
    const approved = await makeUser(ctx, { status: 'approved' });
    await postAd(ctx, approved, ny, { phone: '(212) 555-0188', title: 'A third elegant companion' });
    expect((await setStatus(master, approved.id, 'approved')).statusCode).toBe(200);
  });

  it('lets a master approve an account that shares only a network with them', async () => {
    const colleague = await makeUser(ctx, { status: 'pending' });
    for (const u of [master, colleague]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '198.51.100.7', payload: { email: u.email, password: u.password } });
      expect(res.statusCode).toBe(200);
    }
    await postAd(ctx, colleague, ny, { phone: '(212) 555-0199' });
    expect((await setStatus(master, colleague.id, 'approved')).statusCode).toBe(200);
  });
});
