import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from './harness.ts';
import { openFileApp, type FileApp } from './ledger-property/file-app.ts';
import { adForm, fundedUsd, goodFields, jpegWithGps, liveAd, placeIn, postAd, walletsOf } from '../modules/ads/ads.testkit.ts';

// What a request checked before it waited for the write lock is checked again under it. Another
// server process on the same file (a supported case) commits a change (an admin demoted, a user
// suspended, a city disabled) while a request of this one has passed its checks and waits for the
// lock: the request acts with what is true once it holds the lock, and changes nothing else.
//
// The other process is a worker thread with its own connection: it takes the write lock, the
// request is sent to the second app (its own connections to the file, as a second server has), and
// HOLD_MS later, the request past its checks and waiting, the worker commits the change and lets
// go. A thread, not this one: better-sqlite3 waits for a lock synchronously, stopping this thread.

const HOLD_MS = 700;
const LOCK_HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
db.exec('BEGIN IMMEDIATE');
parentPort.postMessage('locked');
setTimeout(() => {
  for (const [sql, ...params] of workerData.statements) db.prepare(sql).run(...params);
  db.exec('COMMIT');
  db.close();
  parentPort.postMessage('committed');
}, workerData.holdMs);`;
const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

type Statement = [sql: string, ...params: (string | number)[]];

let ctx: TestContext;
let other: FileApp;
let file: string;
beforeEach(async () => {
  ctx = await createTestApp();
  file = path.join(ctx.dataDir, 'xg.sqlite');
  other = await openFileApp(file, ctx.dataDir);
});
afterEach(async () => {
  await other.close();
  await ctx.close();
});

/** Sends `request` to the other app while the lock is held; the statements commit HOLD_MS later. */
async function meanwhile(statements: Statement[], request: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const worker = new Worker(LOCK_HOLDER, { eval: true, workerData: { module: betterSqlite3, file, statements, holdMs: HOLD_MS } });
  const committed = new Promise<void>((resolve, reject) => {
    worker.on('message', (m) => m === 'committed' && resolve());
    worker.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m) => m === 'locked' && resolve());
    worker.once('error', reject);
  });
  const res = await request();
  await committed;
  await worker.terminate();
  return res;
}

/** A request to the other app, as our own pages send it. */
const send = (u: TestUser, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object | FormData) =>
  other.app.inject({ method, url, headers: { cookie: u.cookie, 'sec-fetch-site': 'same-origin' }, ...(payload ? { payload } : {}) });

const demoted = (u: TestUser): Statement[] => [['DELETE FROM user_roles WHERE user_id = ? AND role = ?', u.id, 'ADMIN_USER']];
const suspended = (u: TestUser): Statement[] => [['UPDATE users SET status = ? WHERE id = ?', 'suspended', u.id]];
const cityDisabled = (cityId: string): Statement[] => [['UPDATE cities SET enabled = 0 WHERE id = ?', cityId]];

describe('an admin demoted while a staff write waits for the lock', () => {
  it('is refused (403) deleting a health check result, which stays', async () => {
    const admin = await asAdmin(ctx);
    for (let i = 0; i < 2; i++) await ctx.app.deps.services.health.run();
    const [older] = await ctx.app.deps.db.selectFrom('health_checks').select('id').orderBy('id').limit(1).execute();
    const res = await meanwhile(demoted(admin), () => send(admin, 'DELETE', `/api/admin/delete-health-check-by-id/${older.id}`));
    expect(res.statusCode, res.body).toBe(403);
    expect(await ctx.app.deps.db.selectFrom('health_checks').select('id').where('id', '=', older.id).execute()).toHaveLength(1);
  });

  it('is refused (403) by locations, reports, cron jobs and SMS, and nothing changes', async () => {
    const admin = await asAdmin(ctx);
    const db = ctx.app.deps.db;
    const tip = await ctx.app.inject({
      method: 'POST',
      url: '/api/reports',
      payload: { kind: 'trafficking', message: 'The woman in this ad looks underage, please check.' },
    });
    expect(tip.statusCode, tip.body).toBe(201);
    const reportId = tip.json().id as string;
    const run = await db
      .insertInto('cron_runs')
      .values({ name: 'expire-ads', started_at: '2026-01-15T11:00:00.000Z', finished_at: '2026-01-15T11:00:01.000Z', outcome: 'ok', owner: 'gone' })
      .executeTakeFirstOrThrow();
    const runId = Number(run.insertId);
    const writes: [string, () => Promise<LightMyRequestResponse>][] = [
      ['disable a state', () => send(admin, 'POST', '/api/admin/set-status-state-cities', { stateId: 'ny', enabled: false })],
      ['close a trafficking report', () => send(admin, 'POST', '/api/admin/set-report-status', { id: reportId, status: 'closed' })],
      ['delete a job run', () => send(admin, 'DELETE', `/api/admin/delete-cron-job-status-by-id/${runId}`)],
      ['run a job now', () => send(admin, 'POST', '/api/admin/run-cron-job', { name: 'purge-old-runs' })],
      ['set the Textbelt key', () => send(admin, 'PUT', '/api/admin/update-textbelt-token-by-id/1', { token: 'textbelt-key-1234' })],
    ];
    for (const [what, write] of writes) {
      const res = await meanwhile(demoted(admin), write);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
      await db.insertInto('user_roles').values({ user_id: admin.id, role: 'ADMIN_USER' }).execute();
    }
    expect((await db.selectFrom('states').select('enabled').where('id', '=', 'ny').executeTakeFirstOrThrow()).enabled).toBe(1);
    expect((await db.selectFrom('reports').select('status').where('id', '=', reportId).executeTakeFirstOrThrow()).status).toBe('open');
    expect((await db.selectFrom('cron_runs').select('id').execute()).map((r) => r.id)).toEqual([runId]); // deleted nothing, ran nothing
    expect((await db.selectFrom('textbelt_tokens').select('token').where('id', '=', 1).executeTakeFirstOrThrow()).token).toBeNull();
    expect(await db.selectFrom('audit_log').select('action').where('actor_id', '=', admin.id).execute()).toEqual([]);
  });
});

describe('a provider suspended while a write of theirs waits for the lock', () => {
  it('pays nothing, redeems nothing and renews nothing: 401, the wallets untouched', async () => {
    const admin = await asAdmin(ctx);
    const owner = await makeUser(ctx, { status: 'approved' });
    const db = ctx.app.deps.db;
    const ny = await placeIn(ctx, 'ny');
    const unsuspend = () => db.updateTable('users').set({ status: 'approved' }).where('id', '=', owner.id).execute();

    const cart = await postAd(ctx, owner, ny);
    const walletId = await fundedUsd(ctx, owner, 5000);
    const paid = await meanwhile(suspended(owner), () => send(owner, 'PUT', `/api/ad-payment-in-cart/${cart.id}`, { walletId }));
    expect([paid.statusCode, paid.json().code], paid.body).toEqual([401, 'auth.sign_in_required']);
    expect((await db.selectFrom('ads').select('status').where('id', '=', cart.id).executeTakeFirstOrThrow()).status).toBe('unpaid');
    await unsuspend();

    const code = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-promo-code-by-id',
      headers: { cookie: admin.cookie },
      payload: { code: 'SPRING-20', amountCents: 2000, maxUses: 10, active: true, expiresAt: null },
    });
    expect(code.statusCode, code.body).toBe(201);
    const redeemed = await meanwhile(suspended(owner), () => send(owner, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'SPRING-20' }));
    expect([redeemed.statusCode, redeemed.json().code], redeemed.body).toEqual([401, 'auth.sign_in_required']);
    expect(await db.selectFrom('promo_redemptions').selectAll().execute()).toEqual([]);
    await unsuspend();

    const live = await liveAd(ctx, owner, admin, ny);
    const expiresAt = (await db.selectFrom('ads').select('expires_at').where('id', '=', live.id).executeTakeFirstOrThrow()).expires_at;
    const renewed = await meanwhile(suspended(owner), () => send(owner, 'PUT', `/api/renew-ad/${live.id}`, { walletId }));
    expect([renewed.statusCode, renewed.json().code], renewed.body).toEqual([401, 'auth.sign_in_required']);
    expect((await db.selectFrom('ads').select('expires_at').where('id', '=', live.id).executeTakeFirstOrThrow()).expires_at).toBe(expiresAt);
    await unsuspend();

    // Funded 5000, and 1500 more that the live ad's payment took: no other debit.
    expect((await walletsOf(ctx, owner)).map((w) => [w.walletType, w.amountCents])).toEqual([['USD', 5000]]);
    const kinds = await db.selectFrom('ledger_entries').select('kind').where('wallet_id', '=', walletId).orderBy('id').execute();
    expect(kinds.map((k) => k.kind)).toEqual(['adjustment', 'adjustment', 'ad_payment']);
  });
});

describe('a provider suspended while a request of theirs waits for the lock, beyond money', () => {
  it('gets no code texted, no top-up invoice made and no welcome code e-mailed: 401, nothing stored', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const db = ctx.app.deps.db;
    const unsuspend = () => db.updateTable('users').set({ status: 'approved' }).where('id', '=', owner.id).execute();
    const sendGet = (url: string) => other.app.inject({ method: 'GET', url, headers: { cookie: owner.cookie, 'sec-fetch-site': 'same-origin' } });
    const requests: [string, () => Promise<LightMyRequestResponse>][] = [
      ['a phone code', () => send(owner, 'POST', '/api/phone-verification', { phone: '(212) 555-0147' })],
      ['a top-up invoice', () => send(owner, 'POST', '/api/create-btc-payment-invoice', { amount: 25 })],
      ['the welcome code', () => sendGet('/api/email-wallet-promo-code')],
    ];
    for (const [what, request] of requests) {
      const res = await meanwhile(suspended(owner), request);
      expect([res.statusCode, res.json().code], `${what}: ${res.body}`).toEqual([401, 'auth.sign_in_required']);
      await unsuspend();
    }
    expect(await db.selectFrom('phone_codes').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('invoices').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('promo_codes').select('id').where('owner_user_id', '=', owner.id).execute()).toEqual([]);
  });
});

describe('a city disabled while an ad waits for the lock', () => {
  it('takes no new ad and no ad edited into it: 400 ad.city_disabled, nothing stored', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const db = ctx.app.deps.db;
    const ny = await placeIn(ctx, 'ny');
    const la = await placeIn(ctx, 'ca');
    const photo = await jpegWithGps();

    const posted = await meanwhile(cityDisabled(la.cityId), () => send(owner, 'POST', '/api/post-ad', adForm(goodFields(la), [photo])));
    expect([posted.statusCode, posted.json().code], posted.body).toEqual([400, 'ad.city_disabled']);
    expect(await db.selectFrom('ads').select('id').where('owner_id', '=', owner.id).execute()).toEqual([]);
    await db.updateTable('cities').set({ enabled: 1 }).where('id', '=', la.cityId).execute();

    const ad = (await postAd(ctx, owner, ny)) as unknown as { id: string; photos: { url: string }[] };
    const keepPhotos = JSON.stringify(ad.photos.map((p) => p.url));
    const edited = await meanwhile(cityDisabled(la.cityId), () => send(owner, 'PUT', `/api/ads/${ad.id}`, adForm({ ...goodFields(la), keepPhotos }, [])));
    expect([edited.statusCode, edited.json().code], edited.body).toEqual([400, 'ad.city_disabled']);
    expect((await db.selectFrom('ads').select('city_id').where('id', '=', ad.id).executeTakeFirstOrThrow()).city_id).toBe(ny.cityId);
  });
});
