import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asMaster, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { decide, expiredAd, fundedUsd, liveAd, ownerAdminNy, pay, postAd } from '../ads/ads.testkit.ts';
import { expireAds } from '../ads/ads.expiry.ts';
import { connector, until } from '../realtime/realtime.testkit.ts';

// What a change of an account's status does besides the status: the paid terms of ads approved
// while the account was not (PRODUCT §2: shown nowhere until it is), the e-mail that says it is
// approved, and the links mailed before a suspension.

let ctx: TestContext;
afterEach(async () => ctx?.close());

const post = (url: string, payload: unknown, cookie: string) => ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie } });
const setStatus = (master: TestUser, userId: string, status: string) => post('/api/master/update-user-status', { userId, status }, master.cookie);
const publicAd = (id: string) => ctx.app.inject({ method: 'GET', url: `/api/ads/${id}` });

describe('held paid terms', () => {
  // Only terms that never ran start at an approval: an owner put back under review and approved
  // again does not get the ads that already ran revived for free.
  it('re-approving a user after a pending review does not revive their expired ads', async () => {
    const w = await ownerAdminNy();
    ctx = w.ctx;
    const m = await asMaster(ctx);
    const ad = await expiredAd(ctx, w.owner, w.admin, w.ny);
    const now = ctx.clock.now().getTime();
    await ctx.app.deps.db
      .updateTable('ads')
      .set({ published_at: new Date(now - 31 * DAY_MS).toISOString(), bumped_at: new Date(now - 31 * DAY_MS).toISOString() })
      .where('id', '=', ad.id)
      .execute(); // a real 30-day term that ran out yesterday
    expect((await setStatus(m, w.owner.id, 'pending')).statusCode).toBe(200);
    expect((await setStatus(m, w.owner.id, 'approved')).statusCode).toBe(200);
    const row = await ctx.app.deps.db.selectFrom('ads').select(['status']).where('id', '=', ad.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    expect((await publicAd(ad.id)).statusCode).toBe(410);
  });

  // Pending → suspended (while a master checks it) → approved: its ads never showed, so their
  // whole paid terms start at that approval.
  it('a pending account suspended and then approved gets its held ads their whole terms', async () => {
    const w = await ownerAdminNy({ env: { SESSION_DAYS: '365' } });
    ctx = w.ctx;
    const m = await asMaster(ctx);
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, w.admin, w.ny);
    ctx.clock.advance(31 * DAY_MS); // the term ran out while it showed nowhere
    await expireAds(ctx.app.deps);
    expect((await setStatus(m, pending.id, 'suspended')).statusCode).toBe(200);
    expect((await setStatus(m, pending.id, 'approved')).statusCode).toBe(200);
    expect((await publicAd(ad.id)).statusCode).toBe(200);
    ctx.clock.advance(29 * DAY_MS);
    expect((await publicAd(ad.id)).statusCode).toBe(200);
    ctx.clock.advance(DAY_MS);
    expect((await publicAd(ad.id)).statusCode).toBe(410);
  });

  // An ad staff approve while its owner is suspended is held the same way, and starts at reinstatement.
  it('an ad approved while its owner was suspended starts its term at the reinstatement; one approved before does not restart', async () => {
    const w = await ownerAdminNy({ env: { SESSION_DAYS: '365' } });
    ctx = w.ctx;
    const m = await asMaster(ctx);
    const before = await liveAd(ctx, w.owner, w.admin, w.ny, { title: 'Approved while the account was fine' });
    const { published_at: firstPublished } = await ctx.app.deps.db
      .selectFrom('ads')
      .select('published_at')
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    const waiting = await postAd(ctx, w.owner, w.ny, { title: 'Paid, in review at the suspension' });
    expect((await pay(ctx, w.owner, waiting.id, await fundedUsd(ctx, w.owner, 1500))).statusCode).toBe(200);
    expect((await setStatus(m, w.owner.id, 'suspended')).statusCode).toBe(200);
    expect((await decide(ctx, w.admin, [waiting.id], 'approve')).json()).toEqual({ updated: 1 });
    ctx.clock.advance(10 * DAY_MS);
    expect((await setStatus(m, w.owner.id, 'approved')).statusCode).toBe(200);
    const rows = await ctx.app.deps.db.selectFrom('ads').select(['id', 'published_at', 'expires_at']).where('id', 'in', [before.id, waiting.id]).execute();
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[before.id].published_at).toBe(firstPublished); // its term ran as it was
    const now = ctx.clock.now().getTime();
    expect([byId[waiting.id].published_at, byId[waiting.id].expires_at]).toEqual([new Date(now).toISOString(), new Date(now + 30 * DAY_MS).toISOString()]);
  });
});

describe('the approval e-mail', () => {
  it('tells a pending user whose account a master approves, in their language, naming the ads that start showing', async () => {
    const w = await ownerAdminNy();
    ctx = w.ctx;
    const m = await asMaster(ctx);
    const pending = await makeUser(ctx, { status: 'pending' });
    await ctx.app.deps.db.updateTable('users').set({ locale: 'es' }).where('id', '=', pending.id).execute();
    await liveAd(ctx, pending, w.admin, w.ny, { title: 'Acompañante elegante en el centro' });
    const sent = ctx.mailer.sent.length;
    expect((await setStatus(m, pending.id, 'approved')).statusCode).toBe(200);
    const mails = ctx.mailer.sent.slice(sent).filter((x) => x.to === pending.email);
    expect(mails.map((x) => x.subject)).toEqual(['Tu cuenta de XG Marketplace fue aprobada']);
    expect(mails[0].text).toContain('Se muestran desde hoy, durante todo su plazo pagado: “Acompañante elegante en el centro”.');
    expect(mails[0].text).toContain('/es/admin/dashboard/my-ads');
    // a reinstatement is not an approval: no second welcome
    expect((await setStatus(m, pending.id, 'suspended')).statusCode).toBe(200);
    expect((await setStatus(m, pending.id, 'approved')).statusCode).toBe(200);
    expect(ctx.mailer.sent.filter((x) => x.to === pending.email && x.subject.includes('aprobada'))).toHaveLength(1);
  });
});

describe('the approval e-mail, once', () => {
  const approvalMails = (u: TestUser) => ctx.mailer.sent.filter((x) => x.to === u.email && x.subject === 'Your XG Marketplace account is approved');

  // Suspended while still pending (a master checking it), then approved: it was never approved
  // before, so this is its approval, and the user is told.
  it('welcomes a pending account suspended and then approved', async () => {
    const w = await ownerAdminNy();
    ctx = w.ctx;
    const m = await asMaster(ctx);
    const pending = await makeUser(ctx, { status: 'pending' });
    expect((await setStatus(m, pending.id, 'suspended')).statusCode).toBe(200);
    expect((await setStatus(m, pending.id, 'approved')).statusCode).toBe(200);
    expect(approvalMails(pending)).toHaveLength(1);
    expect((await setStatus(m, pending.id, 'suspended')).statusCode).toBe(200);
    expect((await setStatus(m, pending.id, 'approved')).statusCode).toBe(200);
    expect(approvalMails(pending)).toHaveLength(1); // reinstated: not a second welcome
  });

  // An approved account put back under review and approved again was welcomed once already; told
  // again only when ads held meanwhile start their paid terms.
  it('does not welcome again an account put back to pending and approved, unless held ads start', async () => {
    const w = await ownerAdminNy();
    ctx = w.ctx;
    const m = await asMaster(ctx);
    const u = await makeUser(ctx, { status: 'approved' });
    expect((await setStatus(m, u.id, 'pending')).statusCode).toBe(200);
    expect((await setStatus(m, u.id, 'approved')).statusCode).toBe(200);
    expect(approvalMails(u)).toHaveLength(0);
    expect((await setStatus(m, u.id, 'pending')).statusCode).toBe(200);
    await liveAd(ctx, u, w.admin, w.ny, { title: 'Held while under review' });
    expect((await setStatus(m, u.id, 'approved')).statusCode).toBe(200);
    expect(approvalMails(u)).toHaveLength(1);
    expect(approvalMails(u)[0].text).toContain('“Held while under review”');
  });

  // Accounts from before migration 0032: the migrations tell from the audit who was ever approved,
  // suspended or back under review (pending) at the upgrade.
  it('migrations 0032 and 0039 record who was approved, so that only the never-approved are welcomed at reinstatement or approval', async () => {
    const w = await ownerAdminNy();
    ctx = w.ctx;
    const m = await asMaster(ctx);
    const neverApproved = await makeUser(ctx, { status: 'pending' });
    const approvedByMaster = await makeUser(ctx, { status: 'pending' });
    const approvedLongAgo = await makeUser(ctx, { status: 'approved' }); // no audit kept of it
    const backUnderReview = await makeUser(ctx, { status: 'pending' }); // pending at the upgrade (0039)
    const pendingNeverApproved = await makeUser(ctx, { status: 'pending' });
    for (const [u, steps] of [
      [neverApproved, ['suspended']],
      [approvedByMaster, ['approved', 'suspended']],
      [approvedLongAgo, ['suspended']],
      [backUnderReview, ['approved', 'pending']],
    ] as const) {
      for (const s of steps) expect((await setStatus(m, u.id, s)).statusCode).toBe(200);
    }
    // As a database from before 0032 would be: nothing recorded; the migration's statements fill it.
    await ctx.app.deps.db.updateTable('users').set({ approved_at: null }).execute();
    const migration = (file: string) => fs.readFileSync(path.join(import.meta.dirname, '../../../migrations/sqlite', file), 'utf8');
    const sql = migration('0032_users_approved_at.sql');
    ctx.app.deps.database.sqlite.exec(sql.slice(sql.indexOf('-- Accounts approved now')));
    ctx.app.deps.database.sqlite.exec(migration('0039_users_approved_before_review.sql'));
    const approvedAt = async (u: TestUser) =>
      (await ctx.app.deps.db.selectFrom('users').select('approved_at').where('id', '=', u.id).executeTakeFirstOrThrow()).approved_at;
    expect(await approvedAt(m)).not.toBeNull();
    expect(await approvedAt(neverApproved)).toBeNull();
    expect(await approvedAt(approvedByMaster)).not.toBeNull();
    expect(await approvedAt(approvedLongAgo)).not.toBeNull();
    expect(await approvedAt(backUnderReview)).not.toBeNull();
    expect(await approvedAt(pendingNeverApproved)).toBeNull();
    const sent = ctx.mailer.sent.length;
    for (const u of [neverApproved, approvedByMaster, approvedLongAgo, backUnderReview, pendingNeverApproved])
      expect((await setStatus(m, u.id, 'approved')).statusCode).toBe(200);
    const welcomed = ctx.mailer.sent.slice(sent).filter((x) => x.subject === 'Your XG Marketplace account is approved');
    expect(welcomed.map((x) => x.to).sort()).toEqual([neverApproved.email, pendingNeverApproved.email].sort());
  });
});

describe('links mailed before a suspension', () => {
  // Opened after the suspension, an e-mail change would move the suspended account away from the
  // address staff know it by, and free that address for a new sign-up.
  it('an e-mail change link opened after the suspension changes nothing', async () => {
    const w = await ownerAdminNy();
    ctx = w.ctx;
    const m = await asMaster(ctx);
    const x = await makeUser(ctx, { status: 'approved' });
    const req = await post('/api/email-reset', { newEmail: 'fresh-address@example.com', password: x.password }, x.cookie);
    expect(req.statusCode, req.body).toBe(200);
    const mail = ctx.mailer.sent.find((s) => s.to === 'fresh-address@example.com')!;
    const token = decodeURIComponent(/confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(mail.text)![1]);
    expect((await setStatus(m, x.id, 'suspended')).statusCode).toBe(200);
    const confirm = await ctx.app.inject({ method: 'POST', url: '/api/confirm-email-reset', payload: { token } });
    expect(confirm.json().code).toBe('profile.confirmation_link_invalid');
    const row = await ctx.app.deps.db.selectFrom('users').select('email').where('id', '=', x.id).executeTakeFirstOrThrow();
    expect(row.email).toBe(x.email);
  });
});

describe('an open page follows a change of its account', () => {
  // A pending provider watching "my ads" when a master approves them: their ads show from now, so
  // the page must say so without a reload (the event makes it read the session and the ads again).
  it('tells the user over the socket when a master approves the account, once, and nothing when nothing changes', async () => {
    const w = await ownerAdminNy();
    ctx = w.ctx;
    const m = await asMaster(ctx);
    const pending = await makeUser(ctx, { status: 'pending' });
    const base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const sockets = connector(() => base);
    try {
      const conn = await sockets.connect({ cookie: pending.cookie });
      await until(() => ctx.app.deps.hub.connectionCount === 1);
      expect((await setStatus(m, pending.id, 'approved')).statusCode).toBe(200);
      expect(await conn.next()).toEqual({ event: 'accountStatusUpdate', data: { status: 'approved' } });
      expect((await setStatus(m, pending.id, 'approved')).statusCode).toBe(200); // already approved: no event
      expect((await setStatus(m, pending.id, 'pending')).statusCode).toBe(200);
      expect(await conn.next()).toEqual({ event: 'accountStatusUpdate', data: { status: 'pending' } });
    } finally {
      sockets.closeAll();
    }
  });
});
