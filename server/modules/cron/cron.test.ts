import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asAdmin, cookieOf, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import type { AppDeps } from '../../core/deps.ts';
import { jobReport, type JobReport } from '../../core/report.ts';
import { openDatabase } from '../../core/db.ts';
import { migrate, readMigrations } from '../../core/migrate.ts';
import { liveAd, placeIn } from '../ads/ads.testkit.ts';
import { CRON_JOBS, findJob, type CronJob } from './cron.jobs.ts';
import { ERRORS } from '../../../contract/errors/index.ts';
import { addressDigest } from '../../core/mailer.ts';
import { failLeftoverRuns, nextRunAt, runJob, startScheduler, tryRunJob } from './cron.service.ts';
import { Forbidden } from '../../core/errors.ts';
import Database from 'better-sqlite3';

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const expireJob = findJob('expire-ads')!;
const runs = () => ctx.app.deps.db.selectFrom('cron_runs').selectAll().orderBy('id').execute();
const audit = () => ctx.app.deps.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A job of the test's own; one that answers plain words reports them under the code test.done. */
const job = (name: string, run: (deps: AppDeps, signal: AbortSignal) => Promise<string | JobReport>, extra: Partial<CronJob> = {}): CronJob => ({
  name,
  schedule: '* * * * *',
  run: (deps, signal) => run(deps, signal).then((r) => (typeof r === 'string' ? jobReport(r, 'test.done') : r)),
  ...extra,
});
/** A job that runs until the test lets it finish. */
function gated(name: string) {
  let finish!: (message: string) => void;
  let started = 0;
  const j = job(name, () => {
    started++;
    return new Promise<string>((r) => (finish = r));
  });
  return { job: j, finish: (m: string) => finish(m), started: () => started };
}

/** A legal hold on an account, placed by the admin through the API. */
async function holdAccount(userId: string, reason: string): Promise<void> {
  const hold = await ctx.app.inject({
    method: 'POST',
    url: '/api/admin/place-legal-hold',
    headers: { cookie: admin.cookie },
    payload: { targetType: 'user', targetId: userId, reason },
  });
  expect(hold.statusCode).toBe(201);
}

describe('cron jobs', () => {
  it('registers every job: issue #12, renewal-reminders (#13), the sign-in purge (#14) and the search index merge (#15)', () => {
    expect(CRON_JOBS.map((j) => [j.name, j.schedule])).toEqual([
      ['expire-ads', '*/5 * * * *'],
      ['sweep-orphan-uploads', '30 * * * *'],
      ['reconcile-invoices', '* * * * *'],
      ['expire-invoices', '*/15 * * * *'],
      ['purge-email-changes', '15 3 * * *'],
      ['purge-password-resets', '25 3 * * *'],
      ['health-checks', '*/5 * * * *'],
      ['purge-old-runs', '45 3 * * *'],
      ['purge-page-views', '35 3 * * *'],
      ['renewal-reminders', '20 * * * *'],
      ['purge-old-sign-ins', '50 3 * * *'],
      ['purge-screening-log', '40 3 * * *'],
      ['purge-sms', '55 3 * * *'],
      ['purge-unpaid-ads', '5 4 * * *'],
      ['compact-search-index', '10 4 * * *'],
    ]);
    expect(CRON_JOBS.filter((j) => j.runAtStart).map((j) => j.name)).toEqual(['health-checks']);
  });

  it('expire-ads expires approved ads past their time and records the run', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ny = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, admin, ny);
    const first = await runJob(ctx.app.deps, expireJob);
    expect(first).toMatchObject({
      name: 'expire-ads',
      outcome: 'ok',
      message: '0 ads expired',
      says: { code: 'cron.ads_expired', params: { count: 0 } },
      startedAt: ctx.clock.now().toISOString(),
    });
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

  it('purge-email-changes deletes unconfirmed changes older than a week and confirmed ones older than the outbox keeps mail', async () => {
    const [u, held] = [await makeUser(ctx), await makeUser(ctx)];
    await holdAccount(held.id, 'Preservation request 2026-3');
    const ago = (days: number) => new Date(ctx.clock.now().getTime() - days * DAY_MS).toISOString();
    const change = (token_hash: string, user_id: string, createdDaysAgo: number, confirmedDaysAgo: number | null) => ({
      token_hash,
      user_id,
      new_email: `${token_hash}@example.com`,
      old_email_digest: confirmedDaysAgo === null ? null : addressDigest(`before-${token_hash}@example.com`),
      created_at: ago(createdDaysAgo),
      confirmed_at: confirmedDaysAgo === null ? null : ago(confirmedDaysAgo),
    });
    await ctx.app.deps.db
      .insertInto('email_changes')
      .values([
        change('old', u.id, 8, null),
        change('young', u.id, 6, null),
        change('confirmed', u.id, 10, 9),
        change('confirmed-89', u.id, 89, 89),
        change('confirmed-91', u.id, 92, 91),
        change('held-confirmed-91', held.id, 92, 91),
      ])
      .execute();
    const run = await runJob(ctx.app.deps, findJob('purge-email-changes')!);
    expect(run).toMatchObject({
      outcome: 'ok',
      message: '1 unconfirmed e-mail change older than 7 days and 1 confirmed e-mail change older than 90 days deleted (accounts under a legal hold kept)',
      says: {
        code: 'cron.email_changes_purged_by_kind',
        parts: [
          { code: 'cron.unconfirmed_email_changes_purged', params: { count: 1, days: 7 } },
          { code: 'cron.confirmed_email_changes_purged', params: { count: 1, days: 90 } },
        ],
      },
    });
    const left = await ctx.app.deps.db.selectFrom('email_changes').select(['token_hash', 'new_email', 'old_email_digest']).orderBy('token_hash').execute();
    expect(left.map((r) => r.token_hash)).toEqual(['confirmed', 'confirmed-89', 'ended:old', 'held-confirmed-91', 'young']);
    // The unconfirmed one past its week keeps only a digest of the address it asked for (its
    // confirmation mail may sit in the outbox, which an erasure clears by it), its link dead.
    expect(left.find((r) => r.token_hash === 'ended:old')).toEqual({
      token_hash: 'ended:old',
      new_email: '',
      old_email_digest: addressDigest('old@example.com'),
    });
    ctx.clock.advance(91 * DAY_MS);
    await runJob(ctx.app.deps, findJob('purge-email-changes')!);
    const later = await ctx.app.deps.db.selectFrom('email_changes').select('token_hash').orderBy('token_hash').execute();
    expect(later.map((r) => r.token_hash)).toEqual(['held-confirmed-91']);
  });

  // A -> B -> C: address B is neither the account's nor a change waiting; its rows (B asked for,
  // then B replaced, as a digest) are kept only while the outbox may still hold mail sent to B (an
  // erasure removes that mail by them), then go, unless a legal hold covers the account.
  it('an e-mail address the account changed away from is not kept once the outbox no longer keeps its mail', async () => {
    const [u, held] = [await makeUser(ctx), await makeUser(ctx)];
    await holdAccount(held.id, 'Preservation request 2026-4');
    const post = (url: string, payload: object, cookie?: string) => ctx.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
    const changeTo = async (user: TestUser, cookie: string, to: string) => {
      const asked = await post('/api/email-reset', { newEmail: to, password: user.password }, cookie);
      expect(asked.statusCode, asked.body).toBe(200);
      const token = decodeURIComponent(/confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(ctx.mailer.sent.at(-1)!.text)![1]);
      expect((await post('/api/confirm-email-reset', { token })).statusCode).toBe(200);
      return cookieOf(await post('/api/login', { email: to, password: user.password })); // the change ended the session
    };
    await changeTo(u, await changeTo(u, u.cookie, 'second.address@example.com'), 'third.address@example.com');
    await changeTo(held, await changeTo(held, held.cookie, 'held.second@example.com'), 'held.third@example.com');
    const addresses = async (userId: string) => {
      const rows = await ctx.app.deps.db.selectFrom('email_changes').select(['new_email', 'old_email_digest']).where('user_id', '=', userId).execute();
      return rows.flatMap((r) => [r.new_email, r.old_email_digest]).sort();
    };
    const [uFirst, heldFirst] = [addressDigest(u.email), addressDigest(held.email)];
    ctx.clock.advance(8 * DAY_MS);
    expect((await runJob(ctx.app.deps, findJob('purge-email-changes')!)).outcome).toBe('ok');
    expect(await addresses(u.id)).toEqual(
      ['second.address@example.com', 'third.address@example.com', uFirst, addressDigest('second.address@example.com')].sort(),
    );
    ctx.clock.advance(83 * DAY_MS); // 91 days on: the outbox's mail to B is gone (purge-sms)
    expect((await runJob(ctx.app.deps, findJob('purge-email-changes')!)).outcome).toBe('ok');
    expect(await addresses(u.id)).toEqual([]);
    expect(await addresses(held.id)).toEqual(['held.second@example.com', 'held.third@example.com', heldFirst, addressDigest('held.second@example.com')].sort());
  });

  it('purge-email-changes keeps the unconfirmed changes of an account under a legal hold', async () => {
    const u = await makeUser(ctx);
    await holdAccount(u.id, 'Preservation request 2026-1');
    const asked = await ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      headers: { cookie: u.cookie },
      payload: { newEmail: 'elsewhere@example.net', password: u.password },
    });
    expect(asked.statusCode).toBe(200);
    ctx.clock.advance(8 * DAY_MS);
    const run = await runJob(ctx.app.deps, findJob('purge-email-changes')!);
    expect(run).toMatchObject({
      outcome: 'ok',
      message: '0 unconfirmed e-mail changes older than 7 days and 0 confirmed e-mail changes older than 90 days deleted (accounts under a legal hold kept)',
    });
    expect(await ctx.app.deps.db.selectFrom('email_changes').select('new_email').where('user_id', '=', u.id).execute()).toEqual([
      { new_email: 'elsewhere@example.net' },
    ]);
    // A password change under the hold ends the link and keeps the row as it was; once the hold is
    // released, the purge keeps only a digest of the address, as for any account.
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/password-update',
      headers: { cookie: u.cookie },
      payload: { currentPassword: u.password, newPassword: 'another long passphrase' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await ctx.app.deps.db.updateTable('legal_holds').set({ released_at: ctx.clock.now().toISOString() }).where('user_id', '=', u.id).execute();
    await runJob(ctx.app.deps, findJob('purge-email-changes')!);
    const [row] = await ctx.app.deps.db
      .selectFrom('email_changes')
      .select(['token_hash', 'new_email', 'old_email_digest'])
      .where('user_id', '=', u.id)
      .execute();
    expect({ ended: /^ended:[^:]+$/.test(row.token_hash), new_email: row.new_email, digest: row.old_email_digest }).toEqual({
      ended: true,
      new_email: '',
      digest: addressDigest('elsewhere@example.net'),
    });
  });

  // A refused post stores its whole text (up to ~5 kB) for staff: kept a year, then deleted, unless
  // a legal hold covers the account; the rows of an erased account (no address) go the same way.
  it('purge-screening-log deletes the refused posts logged over a year ago, except those of an account under a legal hold', async () => {
    const [u, held] = [await makeUser(ctx), await makeUser(ctx)];
    await holdAccount(held.id, 'Preservation request 2026-5');
    const ago = (days: number) => new Date(ctx.clock.now().getTime() - days * DAY_MS).toISOString();
    const row = (title: string, user_id: string | null, days: number) => ({
      user_id,
      field: 'title' as const,
      term: 'teen',
      title,
      description: 'x',
      ip: null,
      created_at: ago(days),
    });
    await ctx.app.deps.db
      .insertInto('screening_log')
      .values([row('old', u.id, 366), row('young', u.id, 364), row('held-old', held.id, 400), row('erased-old', null, 366)])
      .execute();
    const run = await runJob(ctx.app.deps, findJob('purge-screening-log')!);
    expect(run).toMatchObject({
      outcome: 'ok',
      message: '2 refused posts older than 365 days deleted from the screening log (accounts under a legal hold kept)',
      says: { code: 'cron.screening_log_purged', params: { count: 2, days: 365 } },
    });
    const left = await ctx.app.deps.db.selectFrom('screening_log').select('title').orderBy('title').execute();
    expect(left.map((r) => r.title)).toEqual(['held-old', 'young']);
  });

  it('purge-password-resets deletes reset links that ended over 30 days ago, used or not, except those of an account under a legal hold', async () => {
    const [u, held] = [await makeUser(ctx), await makeUser(ctx)];
    const ago = (days: number) => new Date(ctx.clock.now().getTime() - days * DAY_MS).toISOString();
    const row = (token_hash: string, user_id: string, endedDaysAgo: number, used: boolean) => ({
      token_hash,
      user_id,
      created_at: ago(endedDaysAgo + 1 / 24),
      expires_at: ago(endedDaysAgo),
      used_at: used ? ago(endedDaysAgo + 1 / 48) : null,
    });
    await ctx.app.deps.db
      .insertInto('password_resets')
      .values([row('old-used', u.id, 31, true), row('old-unused', u.id, 40, false), row('young', u.id, 29, true), row('held-old', held.id, 60, true)])
      .execute();
    await holdAccount(held.id, 'Preservation request 2026-2');
    const run = await runJob(ctx.app.deps, findJob('purge-password-resets')!);
    expect(run).toMatchObject({ outcome: 'ok', message: '2 password-reset links ended over 30 days ago deleted' });
    expect(run.says).toEqual({ code: 'cron.password_resets_purged', params: { count: 2, days: 30 } });
    const left = await ctx.app.deps.db.selectFrom('password_resets').select('token_hash').orderBy('token_hash').execute();
    expect(left.map((r) => r.token_hash)).toEqual(['held-old', 'young']);
    // a link asked for now works after the purge
    expect((await ctx.app.inject({ method: 'POST', url: '/api/password-reset-request', payload: { email: u.email } })).statusCode).toBe(202);
    expect(await ctx.app.deps.db.selectFrom('password_resets').select('token_hash').where('user_id', '=', u.id).execute()).toHaveLength(2);
  });

  it('purge-sms deletes phone codes a day past their end and SMS log rows older than 90 days, except those of an account under a legal hold', async () => {
    const [u, held] = [await makeUser(ctx), await makeUser(ctx)];
    const ago = (days: number) => new Date(ctx.clock.now().getTime() - days * DAY_MS).toISOString();
    const code = (phone: string, user_id: string, endedDaysAgo: number) => ({
      user_id,
      phone,
      code_hash: `hash-${phone}`,
      created_at: ago(endedDaysAgo + 1 / 96),
      expires_at: ago(endedDaysAgo),
    });
    await ctx.app.deps.db
      .insertInto('phone_codes')
      .values([code('+12125550101', u.id, 2), code('+12125550102', u.id, 1.5), code('+12125550103', u.id, 0.9), code('+12125550104', held.id, 10)])
      .execute();
    const message = (body: string, user_id: string | null, daysAgo: number) => ({
      to_phone: '+12125550100',
      body,
      purpose: user_id ? ('verification' as const) : ('test' as const),
      user_id,
      status: 'delivered' as const,
      created_at: ago(daysAgo),
    });
    await ctx.app.deps.db
      .insertInto('sms_messages')
      .values([message('old', u.id, 91), message('old test', null, 120), message('young', u.id, 89), message('held', held.id, 200)])
      .execute();
    await holdAccount(held.id, 'Preservation request 2026-3');
    const run = await runJob(ctx.app.deps, findJob('purge-sms')!);
    expect(run).toMatchObject({
      outcome: 'ok',
      message: '2 phone codes ended over a day ago and 2 SMS messages older than 90 days deleted (accounts under a legal hold kept)',
    });
    expect(run.says).toEqual({
      code: 'cron.sms_purged',
      parts: [
        { code: 'cron.phone_codes_purged', params: { count: 2 } },
        { code: 'cron.sms_messages_purged', params: { count: 2, days: 90 } },
      ],
    });
    const codes = await ctx.app.deps.db.selectFrom('phone_codes').select('phone').orderBy('phone').execute();
    expect(codes.map((c) => c.phone)).toEqual(['+12125550103', '+12125550104']);
    const log = await ctx.app.deps.db.selectFrom('sms_messages').select('body').orderBy('body').execute();
    expect(log.map((m) => m.body)).toEqual(['held', 'young']);
  });

  it('purge-page-views deletes page views older than 366 days, in batches of 5,000, and stops when the run is aborted', async () => {
    const ago = (days: number) => new Date(ctx.clock.now().getTime() - days * DAY_MS).toISOString();
    const sqlite = ctx.app.deps.database.sqlite;
    // 5,003 views a year and two days old (two batches), one a year and a day less a minute old, one today
    sqlite
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5003)
         INSERT INTO page_views (path, locale, referrer_host, at) SELECT '/old/' || i, 'en', NULL, ? FROM n`,
      )
      .run(ago(367));
    sqlite
      .prepare("INSERT INTO page_views (path, locale, referrer_host, at) VALUES ('/kept', 'es', NULL, ?), ('/today', 'pt', NULL, ?)")
      .run(ago(366 - 1 / 1440), ago(0));
    // The per-day counters (migration 0026): 5,003 paths of that day (two batches too), its total.
    const counters = () => ({
      days: sqlite.prepare('SELECT day, locale, n FROM page_view_days ORDER BY day, locale').all(),
      paths: sqlite.prepare('SELECT count(*) AS rows, coalesce(sum(n), 0) AS n FROM page_view_paths').get(),
      totals: sqlite.prepare("SELECT path, n FROM page_view_path_totals WHERE path NOT GLOB '/old/*' ORDER BY path").all(),
      old: sqlite.prepare("SELECT count(*) FROM page_view_path_totals WHERE path GLOB '/old/*'").pluck().get(),
    });
    const day = (days: number) => ago(days).slice(0, 10);
    const job = findJob('purge-page-views')!;
    expect(await job.run(ctx.app.deps, AbortSignal.abort())).toMatchObject({ says: { code: 'cron.page_views_purged', params: { count: 0, days: 366 } } });
    expect(counters()).toEqual({
      days: [
        { day: day(367), locale: 'en', n: 5003 },
        { day: day(366), locale: 'es', n: 1 },
        { day: day(0), locale: 'pt', n: 1 },
      ],
      paths: { rows: 5005, n: 5005 },
      totals: [
        { path: '/kept', n: 1 },
        { path: '/today', n: 1 },
      ],
      old: 5003,
    });
    const run = await runJob(ctx.app.deps, job);
    expect(run).toMatchObject({
      outcome: 'ok',
      message: '5003 page views older than 366 days deleted',
      says: { code: 'cron.page_views_purged', params: { count: 5003, days: 366 } },
    });
    expect(sqlite.prepare('SELECT path FROM page_views ORDER BY path').pluck().all()).toEqual(['/kept', '/today']);
    // The counters of the days before the limit's day go with their views; the limit's day stays.
    expect(counters()).toEqual({
      days: [
        { day: day(366), locale: 'es', n: 1 },
        { day: day(0), locale: 'pt', n: 1 },
      ],
      paths: { rows: 2, n: 2 },
      totals: [
        { path: '/kept', n: 1 },
        { path: '/today', n: 1 },
      ],
      old: 0,
    });
  });

  it('purge-old-runs deletes job runs and health check results older than 30 days', async () => {
    const ago = (days: number) => new Date(ctx.clock.now().getTime() - days * DAY_MS).toISOString();
    const db = ctx.app.deps.db;
    await db
      .insertInto('cron_runs')
      .values([
        { name: 'expire-ads', started_at: ago(31), finished_at: ago(31), outcome: 'ok', message: 'old' },
        { name: 'expire-ads', started_at: ago(29), finished_at: ago(29), outcome: 'ok', message: 'young' },
      ])
      .execute();
    await db
      .insertInto('health_checks')
      .values([
        { name: 'disk', status: 'ok', message: 'old', duration_ms: 1, checked_at: ago(30.5) },
        { name: 'disk', status: 'failing', message: 'old too', duration_ms: 1, checked_at: ago(40) },
        { name: 'disk', status: 'ok', message: 'young', duration_ms: 1, checked_at: ago(1) },
      ])
      .execute();
    const run = await runJob(ctx.app.deps, findJob('purge-old-runs')!);
    expect(run).toMatchObject({
      outcome: 'ok',
      message: '1 job run and 2 health check results older than 30 days deleted',
      says: {
        code: 'cron.history_purged',
        params: { days: 30 },
        parts: [
          { code: 'cron.runs_purged', params: { count: 1 } },
          { code: 'cron.checks_purged', params: { count: 2 } },
        ],
      },
    });
    expect((await runs()).map((r) => r.message)).toEqual(['young', run.message]);
    expect((await db.selectFrom('health_checks').select('message').execute()).map((r) => r.message)).toEqual(['young']);
  });

  it('health-checks runs every check and reports the ones that are not ok', async () => {
    ctx.app.deps.services.health.options = { ...ctx.app.deps.services.health.options, disk: { degradedBelow: 0, failingBelow: 0 } };
    const run = await runJob(ctx.app.deps, findJob('health-checks')!);
    expect(run).toMatchObject({ outcome: 'ok', message: '6 checks: all ok', says: { code: 'cron.checks_ok', params: { count: 6 } } });
    ctx.app.deps.services.health.options = { ...ctx.app.deps.services.health.options, disk: { degradedBelow: 1.01, failingBelow: 1.01 } };
    expect(await runJob(ctx.app.deps, findJob('health-checks')!)).toEqual(
      expect.objectContaining({
        outcome: 'ok',
        message: '6 checks: disk failing',
        says: { code: 'cron.checks_not_ok', params: { count: 6 }, parts: [{ code: 'cron.check_not_ok', params: { check: 'disk', status: 'failing' } }] },
      }),
    );
    expect(await ctx.app.deps.db.selectFrom('health_checks').select('name').execute()).toHaveLength(12);
  });
});

describe('the runner', () => {
  it('records a throwing job as failed with its message, whether it throws at once or later', async () => {
    const later = await runJob(
      ctx.app.deps,
      job('broken', async () => {
        throw new Error('disk on fire');
      }),
    );
    expect(later).toMatchObject({
      name: 'broken',
      outcome: 'failed',
      message: 'disk on fire',
      says: { code: 'cron.failed', detail: 'disk on fire' },
      finishedAt: expect.any(String),
    });
    const atOnce = await runJob(
      ctx.app.deps,
      job('broken', () => {
        throw new TypeError('not a function');
      }),
    );
    expect(atOnce).toMatchObject({ outcome: 'failed', message: 'not a function' });
    const silent = await runJob(
      ctx.app.deps,
      job('broken', () => Promise.reject(new Error(''))),
    );
    expect(silent).toEqual(expect.objectContaining({ outcome: 'failed', message: 'failed without a message', says: { code: 'cron.failed_silently' } }));
    // What the list answers is what was recorded, words and code.
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-cron-jobs', headers: { cookie: admin.cookie } });
    expect(listed.json().cronJobs.map((r: { message: string; says: unknown }) => [r.message, r.says])).toEqual([
      ['failed without a message', { code: 'cron.failed_silently' }],
      ['not a function', { code: 'cron.failed', detail: 'not a function' }],
      ['disk on fire', { code: 'cron.failed', detail: 'disk on fire' }],
    ]);
    expect((await runs()).map((r) => r.outcome)).toEqual(['failed', 'failed', 'failed']);
  });

  it('never runs one job twice at once: a second start is refused while the first runs, then allowed', async () => {
    const g = gated('slow');
    const first = runJob(ctx.app.deps, g.job);
    expect(tryRunJob(ctx.app.deps, g.job)).toBeNull();
    await expect(runJob(ctx.app.deps, g.job)).rejects.toMatchObject({ statusCode: 409, code: 'cron.job_running', params: { name: 'slow' } });
    // Another job is not held up by it.
    expect(
      await runJob(
        ctx.app.deps,
        job('other', async () => 'other done'),
      ),
    ).toMatchObject({ outcome: 'ok' });
    await vi.waitFor(() => expect(g.started()).toBe(1));
    expect((await runs()).map((r) => [r.name, r.outcome])).toEqual([
      ['slow', 'running'],
      ['other', 'ok'],
    ]);
    g.finish('finally');
    expect(await first).toMatchObject({ outcome: 'ok', message: 'finally' });
    expect(
      await runJob(
        ctx.app.deps,
        job('slow', async () => 'again'),
      ),
    ).toMatchObject({ outcome: 'ok', message: 'again' });
    expect(g.started()).toBe(1);
  });

  it('records a run past its time limit as failed, and tells the job to stop', async () => {
    let aborted: unknown = null;
    const polite = job(
      'polite',
      (_deps, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            reject(signal.reason as Error);
          }),
        ),
      { timeoutMs: 40 },
    );
    const t0 = performance.now();
    expect(await runJob(ctx.app.deps, polite)).toMatchObject({
      outcome: 'failed',
      message: 'timed out after 40 ms',
      says: { code: 'cron.timed_out', params: { limit: 40 } },
      finishedAt: expect.any(String),
    });
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(String(aborted)).toBe('Error: timed out after 40 ms');
    // It stopped: the next run may start at once.
    expect(
      tryRunJob(
        ctx.app.deps,
        job('polite', async () => 'ok now'),
      ),
    ).not.toBeNull();
  });

  it('keeps a timed-out job locked until its work really stops, and gives up one time limit later', async () => {
    let finished = false;
    const stubborn = job('stubborn', () => sleep(150).then(() => ((finished = true), 'late')), { timeoutMs: 40 });
    expect(await runJob(ctx.app.deps, stubborn)).toMatchObject({ outcome: 'failed', message: 'timed out after 40 ms' });
    expect(finished).toBe(false);
    await expect(runJob(ctx.app.deps, stubborn)).rejects.toMatchObject({ statusCode: 409 }); // its work still goes on
    await vi.waitFor(() => expect(finished).toBe(true));
    await vi.waitFor(() =>
      expect(
        tryRunJob(
          ctx.app.deps,
          job('stubborn', async () => 'free'),
        ),
      ).not.toBeNull(),
    );

    const hung = job('hung', () => new Promise<string>(() => {}), { timeoutMs: 30 });
    expect(await runJob(ctx.app.deps, hung)).toMatchObject({ outcome: 'failed', message: 'timed out after 30 ms' });
    expect(tryRunJob(ctx.app.deps, hung)).toBeNull();
    await sleep(60);
    const again = tryRunJob(
      ctx.app.deps,
      job('hung', async () => 'after the give-up'),
    );
    expect(again).not.toBeNull();
    expect(await again).toMatchObject({ outcome: 'ok', message: 'after the give-up' });
  });

  // The health checks are there to see a database that cannot be written: they run even when their
  // run's row cannot be (operator-config.test.ts: /api/health turns 503). Every other job waits, and
  // a refusal (mayStart's: the actor no longer staff) starts nothing.
  it('runs only the health-checks job when its run cannot be recorded, and never past a refusal', async () => {
    const ran: string[] = [];
    const marking = (name: string) =>
      job(name, async () => {
        ran.push(name);
        return 'done';
      });
    const other = new Database(path.join(ctx.dataDir, 'xg.sqlite'));
    other.exec('BEGIN IMMEDIATE'); // another process holds the write lock
    try {
      await expect(runJob(ctx.app.deps, marking('expire-ads'))).rejects.toThrow(/locked/);
      await expect(runJob(ctx.app.deps, marking('health-checks'))).rejects.toThrow(/locked/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(ran).toEqual(['health-checks']);
    const refuse = () => Promise.reject(new Forbidden());
    await expect(runJob(ctx.app.deps, marking('health-checks'), refuse)).rejects.toBeInstanceOf(Forbidden);
    expect(await runJob(ctx.app.deps, marking('health-checks'))).toMatchObject({ outcome: 'ok', message: 'done' }); // not left locked
    expect(ran).toEqual(['health-checks', 'health-checks']);
    expect((await runs()).map((r) => [r.name, r.outcome])).toEqual([['health-checks', 'ok']]);
  }, 30_000);

  it('records runs a previous process left running as interrupted', async () => {
    const at = ctx.clock.now().toISOString();
    await ctx.app.deps.db
      .insertInto('cron_runs')
      .values([
        { name: 'expire-ads', started_at: at, finished_at: null, outcome: 'running', message: null },
        { name: 'expire-ads', started_at: at, finished_at: at, outcome: 'ok', message: 'fine' },
      ])
      .execute();
    ctx.clock.advance(1000);
    expect(await failLeftoverRuns(ctx.app.deps)).toBe(1);
    expect((await runs()).map((r) => [r.outcome, r.message, r.says_json, r.finished_at])).toEqual([
      ['failed', 'interrupted: the server stopped during this run', '{"code":"cron.interrupted"}', ctx.clock.now().toISOString()],
      ['ok', 'fine', null, at],
    ]);
  });

  it('on close, tells running jobs to stop, records them, and starts nothing more', async () => {
    const t = await createTestApp();
    try {
      const g = gated('long');
      const run = runJob(t.app.deps, g.job);
      await vi.waitFor(() => expect(g.started()).toBe(1));
      await t.app.close();
      expect(await run).toMatchObject({ outcome: 'failed', message: 'stopped: the server shut down during this run', says: { code: 'cron.shutdown' } });
      expect(
        tryRunJob(
          t.app.deps,
          job('late', async () => 'no'),
        ),
      ).toBeNull();
    } finally {
      await t.app.deps.database.close();
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});

describe('the scheduler', () => {
  it('runs registered jobs on their schedule, survives a throwing job, and stops', async () => {
    // Croner reads Date and setTimeout: fake both and move time exactly, instead of sleeping.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2025-03-01T10:00:00.000Z') });
    try {
      let n = 0;
      const scheduler = startScheduler(ctx.app.deps, [
        job('tick', async () => `tick ${++n}`, { schedule: '* * * * * *' }),
        job(
          'boom',
          async () => {
            throw new Error('boom');
          },
          { schedule: '* * * * * *' },
        ),
      ]);
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
      const all = await runs();
      expect(all.filter((r) => r.name === 'tick').map((r) => [r.outcome, r.message])).toEqual([
        ['ok', 'tick 1'],
        ['ok', 'tick 2'],
        ['ok', 'tick 3'],
      ]);
      expect(all.filter((r) => r.name === 'boom').map((r) => [r.outcome, r.message])).toEqual([
        ['failed', 'boom'],
        ['failed', 'boom'],
        ['failed', 'boom'],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('skips a job whose previous run is still going, whoever started it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2025-03-01T10:00:00.000Z') });
    try {
      const g = gated('slow');
      const byHand = runJob(ctx.app.deps, g.job); // "run now", before the schedule comes
      const scheduler = startScheduler(ctx.app.deps, [{ ...g.job, schedule: '* * * * * *' }]);
      await vi.advanceTimersByTimeAsync(3000);
      expect(g.started()).toBe(1);
      g.finish('done by hand');
      expect(await byHand).toMatchObject({ outcome: 'ok' });
      await vi.advanceTimersByTimeAsync(1000);
      expect(g.started()).toBe(2); // the next second starts it again
      g.finish('done on schedule');
      await vi.advanceTimersByTimeAsync(0);
      scheduler.stop();
      expect((await runs()).map((r) => r.message)).toEqual(['done by hand', 'done on schedule']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says when each pattern fires next', () => {
    const from = new Date('2026-01-15T12:00:00.000Z');
    expect(nextRunAt('*/5 * * * *', from)).toBe('2026-01-15T12:05:00.000Z');
    expect(nextRunAt('* * * * *', new Date('2026-01-15T12:03:30.000Z'))).toBe('2026-01-15T12:04:00.000Z');
  });

  it('an app with CRON on runs the health checks once ready, shows next runs, and closes cleanly', async () => {
    const on = await createTestApp({ env: { CRON: '1' } });
    try {
      expect(on.config.cron).toBe(true);
      const db = on.app.deps.db;
      await vi.waitFor(
        async () =>
          expect(await db.selectFrom('cron_runs').select(['name', 'outcome']).where('outcome', '!=', 'running').execute()).toContainEqual({
            name: 'health-checks',
            outcome: 'ok',
          }),
        { timeout: 5000 },
      );
      expect((await db.selectFrom('health_checks').select('name').orderBy('id').execute()).map((r) => r.name).sort()).toEqual([
        'database',
        'disk',
        'memory',
        'payment-server',
        'sms',
        'smtp',
      ]);
      const staff = await asAdmin(on);
      const list = (await on.app.inject({ method: 'GET', url: '/api/admin/get-cron-jobs', headers: { cookie: staff.cookie } })).json();
      expect(list.schedules.find((s: { name: string }) => s.name === 'health-checks')).toEqual({
        name: 'health-checks',
        cron: '*/5 * * * *',
        nextRunAt: '2026-01-15T12:05:00.000Z',
        lastOutcome: 'ok',
      });
    } finally {
      await on.close();
    }
  });
});

describe('migration 0008', () => {
  it('keeps the runs and results recorded before it, in the new words', () => {
    const all = readMigrations();
    const d = openDatabase(':memory:');
    try {
      migrate(
        d.sqlite,
        all.filter((m) => m.version < 8),
      );
      d.sqlite.exec(`
        INSERT INTO cron_runs (id, name, started_at, finished_at, outcome, message) VALUES
          (1, 'expire-ads', 'a', 'b', 'error', 'boom'), (2, 'expire-ads', 'c', NULL, 'running', NULL), (3, 'expire-ads', 'e', 'f', 'ok', '1 ad expired');
        INSERT INTO health_checks (id, name, outcome, message, duration_ms, checked_at) VALUES
          (1, 'disk', 'warn', 'low', 3, 'x'), (2, 'smtp', 'error', NULL, NULL, 'y'), (3, 'database', 'ok', 'fine', 1, 'z');`);
      migrate(d.sqlite, all);
      expect(d.sqlite.prepare('SELECT id, outcome, message FROM cron_runs ORDER BY id').all()).toEqual([
        { id: 1, outcome: 'failed', message: 'boom' },
        { id: 2, outcome: 'running', message: null },
        { id: 3, outcome: 'ok', message: '1 ad expired' },
      ]);
      expect(d.sqlite.prepare('SELECT id, name, status, message, duration_ms FROM health_checks ORDER BY id').all()).toEqual([
        { id: 1, name: 'disk', status: 'degraded', message: 'low', duration_ms: 3 },
        { id: 2, name: 'smtp', status: 'failing', message: '', duration_ms: 0 },
        { id: 3, name: 'database', status: 'ok', message: 'fine', duration_ms: 1 },
      ]);
      expect(() => d.sqlite.prepare("INSERT INTO cron_runs (name, started_at, outcome) VALUES ('x', 'y', 'error')").run()).toThrow(/CHECK constraint/);
    } finally {
      d.sqlite.close();
    }
  });
});

describe('cron routes', () => {
  it('lists runs newest first with every schedule (no next run while CRON is off) and deletes one, audited', async () => {
    await runJob(ctx.app.deps, expireJob);
    ctx.clock.advance(3600_000);
    const last = await runJob(ctx.app.deps, expireJob);
    await runJob(
      ctx.app.deps,
      job('sweep-orphan-uploads', async () => {
        throw new Error('no folder');
      }),
    );
    const list = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-cron-jobs?pageSize=10&name=expire-ads', headers: { cookie: admin.cookie } });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    expect(body.cronJobs[0].id).toBe(last.id);
    expect(body.schedules).toHaveLength(CRON_JOBS.length);
    expect(body.schedules.slice(0, 2)).toEqual([
      { name: 'expire-ads', cron: '*/5 * * * *', nextRunAt: null, lastOutcome: 'ok' },
      { name: 'sweep-orphan-uploads', cron: '30 * * * *', nextRunAt: null, lastOutcome: 'failed' },
    ]);
    expect(body.schedules.find((s: { name: string }) => s.name === 'purge-old-runs').lastOutcome).toBeNull();

    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/admin/delete-cron-job-status-by-id/${last.id}`, headers: { cookie: admin.cookie } });
    expect(del.json()).toEqual({ deleted: true });
    expect((await runs()).map((r) => r.id)).not.toContain(last.id);
    const again = await ctx.app.inject({ method: 'DELETE', url: `/api/admin/delete-cron-job-status-by-id/${last.id}`, headers: { cookie: admin.cookie } });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Cron job run not found.', code: 'cron.run_not_found' });
    const bad = await ctx.app.inject({ method: 'DELETE', url: '/api/admin/delete-cron-job-status-by-id/abc', headers: { cookie: admin.cookie } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation.invalid', params: { field: 'id' } });
    expect(await audit()).toEqual([expect.objectContaining({ action: 'cron_run.delete', target_id: String(last.id), actor_id: admin.id })]);
    const provider = await makeUser(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/get-cron-jobs', headers: { cookie: provider.cookie } })).statusCode).toBe(403);
  });

  it('runs a job now for staff, audited; an unknown name is 400 and a running job 409, both changing nothing', async () => {
    const run = (name: string) => ctx.app.inject({ method: 'POST', url: '/api/admin/run-cron-job', headers: { cookie: admin.cookie }, payload: { name } });
    const ok = await run('purge-old-runs');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().cronJob).toMatchObject({
      name: 'purge-old-runs',
      outcome: 'ok',
      message: '0 job runs and 0 health check results older than 30 days deleted',
    });
    expect(await audit()).toEqual([
      expect.objectContaining({
        action: 'cron_job.run',
        target_type: 'cron_job',
        target_id: 'purge-old-runs',
        actor_id: admin.id,
        after_json: JSON.stringify(ok.json().cronJob),
      }),
    ]);

    const unknown = await run('no-such-job');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      message: 'There is no cron job named "no-such-job".',
      code: 'cron.job_unknown',
      params: { field: 'name', name: 'no-such-job' },
    });

    // The scheduled run of the same job is going (the lock is by name).
    const g = gated('purge-old-runs');
    const scheduled = runJob(ctx.app.deps, g.job);
    const busy = await run('purge-old-runs');
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({
      message: 'The job purge-old-runs is already running. Wait for it to finish, then try again.',
      code: 'cron.job_running',
      params: { name: 'purge-old-runs' },
    });
    g.finish('scheduled');
    await scheduled;
    expect((await runs()).map((r) => r.message)).toEqual([ok.json().cronJob.message, 'scheduled']);
    expect(await audit()).toHaveLength(1);

    // The record of a run still going is its lock: it cannot be deleted until the run ends.
    const g2 = gated('purge-old-runs');
    const going = runJob(ctx.app.deps, g2.job);
    const goingId = (await runs()).at(-1)!.id;
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/admin/delete-cron-job-status-by-id/${goingId}`, headers: { cookie: admin.cookie } });
    expect([del.statusCode, del.json().code, del.json().params]).toEqual([409, 'cron.run_in_progress', { name: 'purge-old-runs' }]);
    g2.finish('done');
    expect((await going).outcome).toBe('ok');
    expect(await audit()).toHaveLength(1);
    const gone = await ctx.app.inject({ method: 'DELETE', url: `/api/admin/delete-cron-job-status-by-id/${goingId}`, headers: { cookie: admin.cookie } });
    expect(gone.statusCode).toBe(200);
    await ctx.app.deps.db.deleteFrom('audit_log').execute();

    const provider = await makeUser(ctx, { status: 'approved' });
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/run-cron-job',
      headers: { cookie: provider.cookie },
      payload: { name: 'purge-old-runs' },
    });
    expect(refused.statusCode).toBe(403);
    expect(await runs()).toHaveLength(2);
  });
});

describe("the jobs' reports", () => {
  it('every code a report can carry has words in English, Spanish and Portuguese (the cron jobs page words runs by code)', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.includes('.test') ? [path.join(dir, e.name)] : [],
        );
    const written = new Set(files(path.join(root, 'server')).flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/'cron\.([a-z_]+)'/g)].map((m) => m[1])));
    const errors = new Set(
      Object.keys(ERRORS)
        .filter((c) => c.startsWith('cron.'))
        .map((c) => c.slice(5)),
    );
    const reports = [...written].filter((c) => !errors.has(c));
    expect(reports).toContain('password_resets_purged');
    for (const locale of ['en', 'es', 'pt']) {
      const words = (
        JSON.parse(fs.readFileSync(path.join(root, `src/i18n/locales/${locale}/admin.json`), 'utf8')) as { says: { cron: Record<string, string> } }
      ).says.cron;
      for (const code of reports) expect(words[code] ?? words[`${code}_other`], `${locale} says.cron.${code}`).toEqual(expect.any(String));
    }
  });
});
