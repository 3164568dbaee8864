import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';

// A report about a staff member's own ad stays another staff member's to read and to close after
// that staff member deletes the ad (the owner is then read from the ad's versions).

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

type Seen = { id: string; message: string; contact: string | null; ipHash: string | null };
const reportsSeenBy = async (cookie: string) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-reports', headers: { cookie } })).json().reports as Seen[];
const setStatus = (cookie: string, id: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/admin/set-report-status', payload: { id, status: 'closed' }, headers: { cookie } });

describe('a report about an ad its staff owner deleted', () => {
  it('stays masked and unclosable for that admin, and readable and closable by another', async () => {
    const ad = await liveAd(ctx, admin, master, ny);
    const filed = await ctx.app.inject({
      method: 'POST',
      url: `/api/report-ad/${ad.id}`,
      payload: { message: 'This person looks under age to me.', contact: 'tipster@example.org' },
      remoteAddress: '203.0.113.9',
    });
    expect(filed.statusCode).toBe(201);
    const id = filed.json().id as string;
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: admin.cookie } })).statusCode).toBe(200);

    const mine = (await reportsSeenBy(admin.cookie)).find((r) => r.id === id)!;
    expect({ message: mine.message, contact: mine.contact, ipHash: mine.ipHash }).toEqual({ message: '', contact: null, ipHash: null });
    const refused = await setStatus(admin.cookie, id);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'reports.own_ad']);

    const theirs = (await reportsSeenBy(master.cookie)).find((r) => r.id === id)!;
    expect({ message: theirs.message, contact: theirs.contact }).toEqual({ message: 'This person looks under age to me.', contact: 'tipster@example.org' });
    expect(theirs.ipHash).toEqual(expect.any(String));
    expect((await setStatus(master.cookie, id)).statusCode).toBe(200);
  });
});
