import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { writeAudit } from '../../core/audit.ts';
import { liveAd, placeIn } from '../ads/ads.testkit.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('GET /api/admin/get-audit-log', () => {
  it('lists entries newest first with parsed before/after, filtered and paginated', async () => {
    const admin = await asAdmin(ctx);
    const m = await asMaster(ctx);
    const u = await makeUser(ctx);
    const db = ctx.app.deps.db;
    await writeAudit(db, {
      actor: { id: m.id, email: m.email },
      action: 'pricing.update',
      targetType: 'pricing',
      targetId: 'p1',
      before: { priceCents: 100 },
      after: { priceCents: 200 },
      at: '2026-01-15T12:00:00.000Z',
    });
    // Through the real master endpoints: these rows are written by the actions themselves.
    await ctx.app.inject({
      method: 'POST',
      url: '/api/master/update-user-status',
      payload: { userId: u.id, status: 'approved' },
      headers: { cookie: m.cookie },
    });
    ctx.clock.advance(1000);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/master/update-user-roles',
      payload: { userId: u.id, roles: ['ADMIN_USER'] },
      headers: { cookie: m.cookie },
    });
    await writeAudit(db, { actor: null, action: 'system.note', targetType: 'system', targetId: null, at: '2026-01-15T12:00:01.000Z' });

    const all = await get('/api/admin/get-audit-log', admin.cookie);
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBe(4);
    expect(all.json().auditLog.map((e: { action: string }) => e.action)).toEqual(['system.note', 'user.roles', 'user.status', 'pricing.update']);
    expect(all.json().auditLog[1]).toEqual({
      id: expect.any(Number),
      actorId: m.id,
      actorEmail: m.email,
      action: 'user.roles',
      targetType: 'user',
      targetId: u.id,
      before: { roles: ['PROVIDER_USER'] },
      after: { roles: ['PROVIDER_USER', 'ADMIN_USER'] },
      at: '2026-01-15T12:00:01.000Z',
    });
    expect(all.json().auditLog[0]).toMatchObject({ actorId: null, actorEmail: null, targetId: null, before: null, after: null });

    const byTarget = await get(`/api/admin/get-audit-log?targetType=user&targetId=${u.id}`, admin.cookie);
    expect(byTarget.json().auditLog.map((e: { action: string }) => e.action)).toEqual(['user.roles', 'user.status']);
    expect((await get('/api/admin/get-audit-log?action=pricing.update', m.cookie)).json()).toMatchObject({
      total: 1,
      auditLog: [{ targetId: 'p1', after: { priceCents: 200 } }],
    });
    const page = await get('/api/admin/get-audit-log?page=2&pageSize=3', admin.cookie);
    expect(page.json()).toMatchObject({ total: 4, auditLog: [{ action: 'pricing.update' }] });
  });

  it('refuses bad paging naming the field', async () => {
    const admin = await asAdmin(ctx);
    for (const [q, field] of [
      ['pageSize=500', 'pageSize'],
      ['page=-1', 'page'],
      ['action=', 'action'],
    ]) {
      const res = await get(`/api/admin/get-audit-log?${q}`, admin.cookie);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message).toContain(field);
    }
  });

  it('leaves out, for staff reading it, how another admin closed a report about their own ad (live or kept under a hold)', async () => {
    const admin = await asAdmin(ctx);
    const owner = await makeUser(ctx, { roles: ['ADMIN_USER'], status: 'approved' });
    const place = await placeIn(ctx, 'ny');
    const [live, gone] = [await liveAd(ctx, owner, admin, place), await liveAd(ctx, owner, admin, place)];
    const close = async (adId: string, note: string) => {
      const report = await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${adId}`, payload: { message: 'This advert looks wrong to me.' } });
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/admin/set-report-status',
        headers: { cookie: admin.cookie },
        payload: { id: report.json().id, status: 'closed', note },
      });
      expect(res.statusCode).toBe(200);
      return report.json().id as string;
    };
    const first = await close(live.id, 'Sender is Jane Roe, called twice');
    const second = await close(gone.id, 'Sender is John Doe, from the agency');
    const hold = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/place-legal-hold',
      headers: { cookie: admin.cookie },
      payload: { targetType: 'ad', targetId: gone.id, reason: 'Preservation request 2026-1' },
    });
    expect(hold.statusCode).toBe(201);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${gone.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    type Entry = { targetId: string; before: unknown; after: unknown };
    const reportRows = async (cookie: string) =>
      ((await get('/api/admin/get-audit-log?targetType=report', cookie)).json().auditLog as Entry[]).map((e) => [e.targetId, e.before, e.after]);
    // The rows stay (that staff acted is no secret), without the notes.
    expect(await reportRows(owner.cookie)).toEqual([
      [second, { status: 'open' }, { status: 'closed', note: '' }],
      [first, { status: 'open' }, { status: 'closed', note: '' }],
    ]);
    expect(JSON.stringify((await get('/api/admin/get-audit-log?pageSize=100', owner.cookie)).json())).not.toMatch(/Jane Roe|John Doe/);
    expect(await reportRows(admin.cookie)).toEqual([
      [second, { status: 'open' }, { status: 'closed', note: 'Sender is John Doe, from the agency' }],
      [first, { status: 'open' }, { status: 'closed', note: 'Sender is Jane Roe, called twice' }],
    ]);
  });

  // Investigating a rogue or hijacked staff account: its actions alone, in a UTC range (since
  // included, until excluded), found by audit_log_actor and audit_log_at rather than paging the log.
  it("narrows the log to one staff member's actions within a date range", async () => {
    const admin = await asAdmin(ctx);
    const other = await asAdmin(ctx);
    const rows: [typeof admin, string, string][] = [
      [admin, 'x1', '2026-01-10T23:59:59.999Z'],
      [admin, 'x2', '2026-01-11T00:00:00.000Z'],
      [other, 'x3', '2026-01-11T12:00:00.000Z'],
      [admin, 'x4', '2026-01-12T00:00:00.000Z'],
    ];
    for (const [who, targetId, at] of rows)
      await writeAudit(ctx.app.deps.db, { actor: { id: who.id, email: who.email }, action: 'ad.approve', targetType: 'ad', targetId, at });
    const targets = async (q: string) => {
      const r = await get(`/api/admin/get-audit-log?${q}`, admin.cookie);
      expect(r.statusCode, q).toBe(200);
      return [r.json().total, r.json().auditLog.map((e: { targetId: string }) => e.targetId)];
    };
    expect(await targets(`actorId=${admin.id}&since=2026-01-11T00:00:00.000Z&until=2026-01-12T00:00:00.000Z`)).toEqual([1, ['x2']]);
    // A day is its midnight; seconds and milliseconds may be left out.
    expect(await targets(`actorId=${admin.id}&since=2026-01-11&until=2026-01-12T00:00Z`)).toEqual([1, ['x2']]);
    expect(await targets(`actorId=${admin.id}`)).toEqual([3, ['x4', 'x2', 'x1']]);
    expect(await targets('since=2026-01-11')).toEqual([3, ['x4', 'x3', 'x2']]);
    expect(await targets('until=2026-01-11T12:00:00Z')).toEqual([2, ['x2', 'x1']]);
    expect(await targets(`actorId=${other.id}&action=ad.approve`)).toEqual([1, ['x3']]);
  });

  it('refuses a date that is not an ISO 8601 UTC day or moment, and a range that ends before it starts', async () => {
    const admin = await asAdmin(ctx);
    for (const [q, code, field] of [
      ['since=yesterday', 'audit.date_invalid', 'since'],
      ['until=2026-02-31', 'audit.date_invalid', 'until'],
      ['since=2026-01-11T00:00:00%2B02:00', 'audit.date_invalid', 'since'],
      ['since=2026-01-12&until=2026-01-11', 'audit.range_invalid', 'until'],
      ['since=2026-01-11&until=2026-01-11T00:00:00.000Z', 'audit.range_invalid', 'until'],
    ]) {
      const res = await get(`/api/admin/get-audit-log?${q}`, admin.cookie);
      expect([res.statusCode, res.json().code, res.json().params?.field], q).toEqual([400, code, field]);
    }
  });

  it('is for staff only', async () => {
    const u = await makeUser(ctx);
    expect((await get('/api/admin/get-audit-log', u.cookie)).statusCode).toBe(403);
    expect((await get('/api/admin/get-audit-log')).statusCode).toBe(401);
  });
});
