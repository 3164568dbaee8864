import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asAdmin, cookieOf, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { liveAd, placeIn } from '../ads/ads.testkit.ts';
import { CRON_JOBS } from './cron.jobs.ts';
import { runJob, startScheduler } from './cron.service.ts';

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const expireJob = CRON_JOBS.find((j) => j.name === 'expire-ads')!;
const runs = () => ctx.app.deps.db.selectFrom('cron_runs').selectAll().orderBy('id').execute();

describe('cron', () => {
  it('expire-ads expires approved ads past their time and records the run', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ny = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, admin, ny);
    const first = await runJob(ctx.app.deps, expireJob);
    expect(first).toMatchObject({ name: 'expire-ads', outcome: 'ok', message: '0 ads expired', startedAt: ctx.clock.now().toISOString() });
    ctx.clock.advance(30 * DAY_MS);
    const second = await runJob(ctx.app.deps, expireJob);
    expect(second).toMatchObject({ outcome: 'ok', message: '1 ad expired' });
    const row = await ctx.app.deps.db.selectFrom('ads').select(['status', 'visible']).where('id', '=', ad.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'expired', visible: 0 });
    expect(await ctx.app.deps.database.sqlite.prepare('SELECT count(*) AS n FROM ads_fts').get()).toEqual({ n: 0 });
    const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: owner.email, password: owner.password } }); // 30-day session ran out
    const mine = (await ctx.app.inject({ method: 'GET', url: '/api/all-ads-by-user', headers: { cookie: cookieOf(login) } })).json();
    expect(mine.approvedAds[0]).toMatchObject({ id: ad.id, status: 'expired' });
  });

  it('records a failing job as an error with its message', async () => {
    const run = await runJob(ctx.app.deps, {
      name: 'broken',
      schedule: '* * * * *',
      run: async () => {
        throw new Error('disk on fire');
      },
    });
    expect(run).toMatchObject({ name: 'broken', outcome: 'error', message: 'disk on fire', finishedAt: expect.any(String) });
  });

  it('lists runs newest first for staff and deletes one, audited', async () => {
    await runJob(ctx.app.deps, expireJob);
    ctx.clock.advance(3600_000);
    const last = await runJob(ctx.app.deps, expireJob);
    const list = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-cron-jobs?pageSize=10', headers: { cookie: admin.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      total: 2,
      page: 1,
      pageSize: 10,
      jobs: [
        { name: 'expire-ads', schedule: '0 * * * *' },
        { name: 'sweep-orphan-uploads', schedule: '30 * * * *' },
      ],
    });
    expect(list.json().cronJobs[0].id).toBe(last.id);
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/admin/delete-cron-job-status-by-id/${last.id}`, headers: { cookie: admin.cookie } });
    expect(del.json()).toEqual({ deleted: true });
    expect((await runs()).map((r) => r.id)).not.toContain(last.id);
    const again = await ctx.app.inject({ method: 'DELETE', url: `/api/admin/delete-cron-job-status-by-id/${last.id}`, headers: { cookie: admin.cookie } });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Cron job run not found.', code: 'cron.run_not_found' });
    const bad = await ctx.app.inject({ method: 'DELETE', url: '/api/admin/delete-cron-job-status-by-id/abc', headers: { cookie: admin.cookie } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/id/);
    expect(bad.json()).toMatchObject({ code: 'validation.invalid', params: { field: 'id' } });
    const audit = await ctx.app.deps.db.selectFrom('audit_log').selectAll().execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'cron_run.delete', target_id: String(last.id), actor_id: admin.id })]);
    const provider = await makeUser(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/get-cron-jobs', headers: { cookie: provider.cookie } })).statusCode).toBe(403);
  });

  it('the scheduler runs registered jobs on their schedule and stops', async () => {
    // Croner reads Date and setTimeout: fake both and move time exactly, instead of sleeping.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2025-03-01T10:00:00.000Z') });
    try {
      let n = 0;
      const scheduler = startScheduler(ctx.app.deps, [{ name: 'tick', schedule: '* * * * * *', run: async () => `tick ${++n}` }]);
      await vi.advanceTimersByTimeAsync(999);
      expect(n).toBe(0); // the first second boundary is 10:00:01
      await vi.advanceTimersByTimeAsync(1);
      expect(n).toBe(1);
      await vi.advanceTimersByTimeAsync(2000);
      expect(n).toBe(3);
      scheduler.stop();
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(5000);
      expect(n).toBe(3);
      const ticks = (await runs()).filter((r) => r.name === 'tick');
      expect(ticks.map((r) => [r.outcome, r.message])).toEqual([
        ['ok', 'tick 1'],
        ['ok', 'tick 2'],
        ['ok', 'tick 3'],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an app with CRON on starts and closes cleanly', async () => {
    const on = await createTestApp({ env: { CRON: '1' } });
    expect(on.config.cron).toBe(true);
    await on.close();
  });
});
