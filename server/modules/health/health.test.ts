import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort, asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { openDatabase } from '../../core/db.ts';
import { FakeBtcpay } from '../../test/fakes/btcpay.ts';
import { startFakeTextbelt } from '../../test/fakes/textbelt.ts';
import { adForm, goodFields, liveAd, pay, fundedUsd, placeIn, postAd } from '../ads/ads.testkit.ts';
import type { HealthCheck } from '../../../contract/api/health.ts';
import { DEFAULT_HEALTH_OPTIONS, type HealthOptions } from './health.service.ts';
import { checkDatabase, quickCheck } from './health.database.ts';

let ctx: TestContext;
let admin: TestUser;
const cleanups: (() => Promise<void> | void)[] = [];
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  await ctx.close();
});

// Thresholds that no real disk crosses (or every one does): the tests do not depend on this machine's disk.
const DISK_FINE = { degradedBelow: 0, failingBelow: 0 };
const DISK_FULL = { degradedBelow: 1.01, failingBelow: 1.01 };
function tune(c: TestContext, over: Partial<HealthOptions>) {
  c.app.deps.services.health.options = { ...DEFAULT_HEALTH_OPTIONS, disk: DISK_FINE, ...over };
}

const runChecks = (c: TestContext = ctx, cookie = admin.cookie) =>
  c.app.inject({ method: 'POST', url: '/api/admin/run-health-check', headers: { cookie }, payload: {} });
const byName = (rows: HealthCheck[]) => Object.fromEntries(rows.map((r) => [r.name, r]));
const rows = (c: TestContext = ctx) => c.app.deps.db.selectFrom('health_checks').selectAll().orderBy('id').execute();

async function appWith(env: Record<string, string>): Promise<TestContext> {
  const c = await createTestApp({ env });
  cleanups.push(() => c.close());
  return c;
}
const btcpayEnv = (url: string, storeId = 'Store1', apiKey = 'k'.repeat(40)) => ({
  BTCPAY_URL: url,
  BTCPAY_STORE_ID: storeId,
  BTCPAY_API_KEY: apiKey,
  BTCPAY_WEBHOOK_SECRET: 'w'.repeat(32),
});
async function fakeBtcpay(opts: { delayMs?: number; synchronized?: boolean } = {}) {
  const fake = new FakeBtcpay();
  if (opts.delayMs) fake.app.addHook('onRequest', () => new Promise((r) => setTimeout(r, opts.delayMs)));
  fake.synchronized = opts.synchronized ?? true;
  await fake.start();
  cleanups.push(() => fake.stop());
  return fake;
}
async function paymentCheck(c: TestContext): Promise<HealthCheck> {
  const res = await runChecks(c, (await asAdmin(c)).cookie);
  expect(res.statusCode).toBe(200);
  return byName(res.json().healthChecks)['payment-server'];
}

describe('health checks', () => {
  it('run now: every check with its dependency up, one row each, newest first, the latest of each on top; audited', async () => {
    tune(ctx, {});
    const res = await runChecks();
    expect(res.statusCode).toBe(200);
    const run: HealthCheck[] = res.json().healthChecks;
    expect(run.map((r) => [r.name, r.status])).toEqual([
      ['database', 'ok'],
      ['disk', 'ok'],
      ['memory', 'ok'],
      ['smtp', 'ok'],
      ['payment-server', 'ok'],
      ['sms', 'ok'],
    ]);
    const c = byName(run);
    expect(c.database.message).toMatch(/^integrity ok; a write took \d+ ms$/);
    expect(c.disk.message).toMatch(/ free of .* \(\d+ %\)$/);
    expect(c.memory.message).toMatch(/^RSS \d+ MB, JavaScript heap [\d.]+ MB; caches since the last check: .*API answers /);
    expect(c.smtp.message).toBe('SMTP_URL is not set: mail is written to the outbox folder, which is writable');
    expect(c['payment-server'].message).toBe('sandbox mode: no real payments (BTCPAY_URL is not set)');
    expect(c.sms.message).toBe('no token: messages go to the outbox');
    // The same as codes the page words in its language, stored with the row.
    expect(run.map((r) => r.says?.code)).toEqual(['database.ok', 'disk.ok', 'memory.ok', 'smtp.outbox', 'payment.sandbox', 'sms.outbox']);
    expect(c.database.says?.params?.took).toEqual(expect.any(Number)); // milliseconds: the screen writes them the reader's way
    expect(c.memory.says?.parts?.map((p) => p.params?.cache)).toEqual(['api', 'searches', 'values', 'cards']); // no pages without a client build
    const listed = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-health-check', headers: { cookie: admin.cookie } })).json();
    expect(byName(listed.latest).disk.says).toEqual(c.disk.says);
    for (const r of run) {
      expect(r.checkedAt).toBe(ctx.clock.now().toISOString());
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
    }
    // The write probe left no row behind.
    expect((await rows()).map((r) => r.name).sort()).toEqual(['database', 'disk', 'memory', 'payment-server', 'sms', 'smtp']);

    ctx.clock.advance(5 * 60_000);
    tune(ctx, { disk: { degradedBelow: 1.01, failingBelow: 0 } });
    const second: HealthCheck[] = (await runChecks()).json().healthChecks;
    expect(byName(second).disk.status).toBe('degraded');

    const list = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-health-check?pageSize=7', headers: { cookie: admin.cookie } });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body).toMatchObject({ total: 12, page: 1, pageSize: 7 });
    expect(body.healthChecks.map((r: HealthCheck) => r.id)).toEqual(
      [...second, ...run]
        .map((r) => r.id)
        .sort((a, b) => b - a)
        .slice(0, 7),
    );
    expect(body.latest).toEqual(second);
    const disk = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-health-check?name=disk', headers: { cookie: admin.cookie } });
    expect(disk.json().healthChecks.map((r: HealthCheck) => r.status)).toEqual(['degraded', 'ok']);

    const audit = await ctx.app.deps.db.selectFrom('audit_log').selectAll().execute();
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([
      ['health_check.run', admin.id],
      ['health_check.run', admin.id],
    ]);
    expect(JSON.parse(audit[0].after_json!)).toEqual(run.map((r) => ({ id: r.id, name: r.name, status: r.status })));
    const provider = await makeUser(ctx, { status: 'approved' });
    expect((await runChecks(ctx, provider.cookie)).statusCode).toBe(403);
    expect(await rows()).toHaveLength(12);
  });

  it('the memory check counts the hits and misses of each cache since the last check', async () => {
    tune(ctx, {});
    const memory = async () => byName((await runChecks()).json().healthChecks).memory;
    const api = (m: HealthCheck) => /API answers ([^;:]*)/.exec(m.message)?.[1];
    await memory(); // what came before
    for (let i = 0; i < 4; i++) expect((await ctx.app.inject({ method: 'GET', url: '/api/listings?page=1' })).statusCode).toBe(200);
    const after = await memory();
    expect(after.status).toBe('ok');
    expect(api(after)).toMatch(/^50 % of 4 lookups hit, [\d.]+ MB of [\d.]+ MB$/); // two misses: kept from the second asking on
    expect(api(await memory())).toMatch(/^no lookups, /);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/listings?page=1' })).statusCode).toBe(200);
    expect(api(await memory())).toMatch(/^100 % of 1 lookup hit, /);
  });

  it('the memory check says how many new entries a full cache turned away since the last check', async () => {
    const small = await createTestApp({ cacheMb: 0.1 }); // ~80 API answers
    try {
      const staff = await asAdmin(small);
      const memory = async () => byName((await runChecks(small, staff.cookie)).json().healthChecks).memory;
      const apiPart = (m: HealthCheck) => m.says?.parts?.find((p) => p.params?.cache === 'api');
      const api = small.app.deps.services.listings.caches.get('api')!;
      await memory();
      const before = api.stats.refused;
      // pages asked for twice each (kept from their second asking) until the full cache has turned three away
      const states = ['new-york', 'texas', 'california', 'florida', 'ohio'];
      for (let i = 0; api.stats.refused - before < 3 && i < 400; i++) {
        const page = `/api/listings?state=${states[i % 5]}&pageSize=${1 + Math.floor(i / 5)}`;
        for (let j = 0; j < 2; j++) expect((await small.app.inject({ method: 'GET', url: page })).statusCode).toBe(200);
      }
      expect(api.stats.refused - before).toBe(3);
      const m = await memory();
      expect(m.message).toMatch(/API answers [\d.]+ % of [\d,]+ lookups hit, 3 new entries turned away, [\d.]+ MB of [\d.]+ MB/);
      expect(apiPart(m)).toMatchObject({ code: 'memory.cache_refusing', params: { cache: 'api', count: 3 } });
      // none since the last check
      const again = await memory();
      expect(again.message).not.toMatch(/turned away/);
      expect(apiPart(again)?.code).toBe('memory.cache_idle');
    } finally {
      await small.close();
    }
  });

  it('two runs asked at once are one run', async () => {
    tune(ctx, {});
    const health = ctx.app.deps.services.health;
    const [a, b] = await Promise.all([health.run(), health.run()]);
    expect(b).toBe(a);
    expect(await rows()).toHaveLength(6);
  });

  it('the failing-check e-mail speaks the language each staff member last used, with a link to their language’s page', async () => {
    const master = await asMaster(ctx);
    await ctx.app.deps.db.updateTable('users').set({ locale: 'pt' }).where('id', '=', master.id).execute();
    await ctx.app.deps.db.updateTable('users').set({ locale: 'es' }).where('id', '=', admin.id).execute();
    tune(ctx, { disk: DISK_FULL });
    const disk = byName((await runChecks()).json().healthChecks).disk as HealthCheck;
    const to = (email: string) => ctx.mailer.sent.find((m) => m.to === email)!;
    expect(to(master.email).subject).toBe('[XG] Verificação de saúde com falha: Espaço em disco');
    expect(to(master.email).text).toMatch(/^Com falha desde \d+ de \w+\.? de \d{4}, \d\d:\d\d UTC:/);
    expect(disk.status).toBe('failing');
    // worded as the health page words it, in Portuguese (not the server's English message)
    expect(to(master.email).text).toMatch(/\n- Espaço em disco: .* livres de .*as gravações logo vão falhar/);
    expect(to(master.email).text).toContain('Ver as verificações: http://localhost:3000/pt/admin/dashboard/admin/health-check');
    expect(to(admin.email).subject).toBe('[XG] Comprobación de estado con fallos: Espacio en disco');
    expect(to(admin.email).text).toContain('Ver las comprobaciones: http://localhost:3000/es/admin/dashboard/admin/health-check');
    expect(to(admin.email).html).toContain('<html lang="es">');
  });

  it('a full disk fails; approved admins and masters get one e-mail when a check turns failing, not one per run', async () => {
    const master = await asMaster(ctx);
    await makeUser(ctx, { roles: ['ADMIN_USER'] }); // pending: not mailed
    await makeUser(ctx, { roles: ['ADMIN_USER'], status: 'suspended' });
    await makeUser(ctx, { status: 'approved' }); // a provider
    const mails = () => ctx.mailer.sent.map((m) => [m.to, m.subject]);

    tune(ctx, { disk: DISK_FULL });
    const first: HealthCheck[] = (await runChecks()).json().healthChecks;
    expect(byName(first).disk).toMatchObject({ status: 'failing', message: expect.stringMatching(/under 101 %, writes will soon fail$/) });
    expect(mails().sort()).toEqual(
      [
        [admin.email, '[XG] Health check failing: Disk space'],
        [master.email, '[XG] Health check failing: Disk space'],
      ].sort(),
    );
    const text = ctx.mailer.sent[0].text;
    expect(text).toMatch(/\n- Disk space: .*writes will soon fail/);
    expect(text).toContain('http://localhost:3000/admin/dashboard/admin/health-check');

    await runChecks(); // still failing: no new mail
    await ctx.app.deps.services.health.run();
    expect(ctx.mailer.sent).toHaveLength(2);
    tune(ctx, {});
    await runChecks(); // recovered
    expect(ctx.mailer.sent).toHaveLength(2);
    tune(ctx, { disk: DISK_FULL });
    await runChecks(); // failing again: a new transition
    expect(ctx.mailer.sent).toHaveLength(4);
  });

  const del = (id: number | string) =>
    ctx.app.inject({ method: 'DELETE', url: `/api/admin/delete-health-check-by-id/${id}`, headers: { cookie: admin.cookie } });

  it('deletes one result, audited; an unknown id is 404', async () => {
    tune(ctx, {});
    const [first] = (await runChecks()).json().healthChecks as HealthCheck[];
    await runChecks(); // a newer result of each: the first run's is history
    expect((await del(first.id)).json()).toEqual({ deleted: true });
    expect((await rows()).map((r) => r.id)).not.toContain(first.id);
    const again = await del(first.id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Health check result not found.', code: 'health.check_not_found' });
    expect((await del('x')).statusCode).toBe(400);
    const audit = await ctx.app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'health_check.delete').execute();
    expect(audit).toEqual([expect.objectContaining({ target_type: 'health_check', target_id: String(first.id), actor_id: admin.id })]);
    expect(JSON.parse(audit[0].before_json!)).toEqual(first);
  });

  it('refuses to delete the newest result of a check (409): a failing disk stays failing for /api/health and the next run mails nobody again', async () => {
    tune(ctx, {});
    await runChecks();
    tune(ctx, { disk: DISK_FULL });
    const failing = byName((await runChecks()).json().healthChecks).disk;
    expect(failing.status).toBe('failing');
    const mailed = ctx.mailer.sent.length;
    const before = await rows();

    const res = await del(failing.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'This is the newest result of its check: it stands until the next run. Only older results can be deleted.',
      code: 'health.result_current',
    });
    expect(await rows()).toEqual(before);
    expect(await ctx.app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'health_check.delete').execute()).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    await runChecks(); // still failing: not a new transition
    expect(ctx.mailer.sent).toHaveLength(mailed);
  });
});

describe('GET /api/health', () => {
  const probe = () => ctx.app.inject({ method: 'GET', url: '/api/health' });

  it('answers ok to anyone, 503 while the latest database or disk result is failing, never details', async () => {
    expect((await probe()).statusCode).toBe(200); // no check has run yet: nothing says it is failing
    expect((await probe()).json()).toEqual({ status: 'ok' });
    expect((await probe()).headers['cache-control']).toBe('no-store');

    tune(ctx, { disk: DISK_FULL });
    await runChecks();
    const down = await probe();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'failing' });

    tune(ctx, {});
    await runChecks();
    expect((await probe()).statusCode).toBe(200);

    // An outside provider failing is for staff to fix, not a reason to take the server out of rotation.
    await ctx.app.deps.db
      .insertInto('health_checks')
      .values({ name: 'smtp', status: 'failing', message: 'down', duration_ms: 1, checked_at: ctx.clock.now().toISOString() })
      .execute();
    expect((await probe()).statusCode).toBe(200);
  });

  it('is 503 while the database cannot be written, though the results cannot be stored: staff are told once, and it recovers', async () => {
    tune(ctx, {});
    expect((await runChecks()).statusCode).toBe(200);
    // Another connection (a stuck process, a hung tool) holds the write lock.
    const other = new Database(path.join(ctx.dataDir, 'xg.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const run = await runChecks();
      expect([run.statusCode, run.json().code]).toEqual([503, 'health.not_recorded']);
      expect(await probe().then((r) => [r.statusCode, r.json()])).toEqual([503, { status: 'failing' }]);
      const mails = ctx.mailer.sent.filter((m) => m.subject.startsWith('[XG] Health check failing'));
      expect(mails.map((m) => m.subject)).toEqual(['[XG] Health check failing: Database']);
      expect(mails[0].text).toContain('- Database: ');
      expect((await runChecks()).statusCode).toBe(503); // still locked: no second e-mail
      expect(ctx.mailer.sent.filter((m) => m.subject.startsWith('[XG] Health check failing'))).toHaveLength(1);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await runChecks()).statusCode).toBe(200);
    expect((await probe()).statusCode).toBe(200);
  }, 60_000);

  it('is 503 when the database cannot be read', async () => {
    ctx.app.deps.database.reader.close();
    const res = await probe();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'failing' });
  });
});

describe('the database check', () => {
  it('fails on a damaged file, and when the integrity check does not answer in time', async () => {
    const dir = fs.mkdtempSync(`${ctx.dataDir}/damaged-`);
    const file = `${dir}/x.sqlite`;
    const d = openDatabase(file);
    d.sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT); CREATE INDEX t_body ON t (body);');
    const insert = d.sqlite.prepare('INSERT INTO t (body) VALUES (?)');
    d.sqlite.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run(`row ${i} ${'x'.repeat(50)}`);
    })();
    d.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    await d.close();
    const bytes = fs.readFileSync(file);
    bytes.fill(0x5a, 4096 * 5, 4096 * 8); // three pages of the table and its index turned to noise
    fs.writeFileSync(file, bytes);
    const damaged = openDatabase(file);
    try {
      for (const workerAboveBytes of [Infinity, 0]) {
        // In this thread (a small file), and in a worker (what a large one gets).
        const out = await checkDatabase(damaged, { at: ctx.clock.now().toISOString(), timeoutMs: 5000, workerAboveBytes });
        expect(out.status).toBe('failing');
        expect(out.message).toMatch(/^integrity check (found problems|could not read the file): .*malformed/);
      }
    } finally {
      await damaged.close();
    }
    await expect(quickCheck(ctx.app.deps.database, 1, 0)).rejects.toThrow('integrity check gave no answer in 1 ms');
    expect(await quickCheck(ctx.app.deps.database, 5000, 0)).toEqual(['ok']);
    expect(await quickCheck(ctx.app.deps.database, 5000)).toEqual(['ok']);
  });
});

describe('the payment server check, through the payments service', () => {
  it('is ok in sandbox mode', async () => {
    tune(ctx, {});
    expect(byName((await runChecks()).json().healthChecks)['payment-server']).toMatchObject({ status: 'ok' });
  });

  it('is ok when BTCPay answers and degraded while it is not synchronized', async () => {
    const fake = await fakeBtcpay();
    const c = await appWith(btcpayEnv(fake.url, fake.storeId, fake.apiKey));
    fake.webhooks.push({
      id: 'wh1',
      enabled: true,
      automaticRedelivery: true,
      url: `${c.config.publicUrl}/api/webhooks/btcpay`,
      authorizedEvents: { everything: true, specificEvents: [] },
    });
    tune(c, {});
    expect(await paymentCheck(c)).toMatchObject({ status: 'ok', message: expect.stringMatching(/^BTCPay Server 2\.4\.1 synchronized, store /) });
    fake.synchronized = false;
    expect(await paymentCheck(c)).toMatchObject({ status: 'degraded' });
  });

  it('is degraded when BTCPay answers slowly, failing when it does not answer in time', async () => {
    const slow = await fakeBtcpay({ delayMs: 120 });
    const c = await appWith(btcpayEnv(slow.url, slow.storeId, slow.apiKey));
    slow.webhooks.push({
      id: 'wh1',
      enabled: true,
      automaticRedelivery: true,
      url: `${c.config.publicUrl}/api/webhooks/btcpay`,
      authorizedEvents: { everything: true, specificEvents: [] },
    });
    tune(c, { slowMs: 100, timeoutMs: 5000 });
    expect(await paymentCheck(c)).toMatchObject({ status: 'degraded', message: expect.stringMatching(/ \(slow: \d+ ms\)$/) });

    // A server that takes every connection and never answers.
    const hanging = new Set<http.ServerResponse>();
    const mute = http.createServer((_req, res) => hanging.add(res));
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => {
      for (const res of hanging) res.destroy();
      mute.closeAllConnections();
      return new Promise<void>((r) => mute.close(() => r()));
    });
    const m = await appWith(btcpayEnv(`http://127.0.0.1:${(mute.address() as AddressInfo).port}`));
    tune(m, { timeoutMs: 300 });
    const check = await paymentCheck(m);
    expect(check).toMatchObject({ status: 'failing', message: 'no answer in 300 ms' });
    expect(check.durationMs).toBeGreaterThanOrEqual(290);
    expect(check.durationMs).toBeLessThan(2000);
  });

  it('is failing when BTCPay is down (nothing listens at BTCPAY_URL)', async () => {
    const c = await appWith(btcpayEnv(`http://127.0.0.1:${await freePort()}`));
    tune(c, { timeoutMs: 5000 });
    const check = await paymentCheck(c);
    expect(check.status).toBe('failing');
    expect(check.message).not.toBe('');
    expect(c.mailer.sent.map((m) => m.subject)).toEqual(['[XG] Health check failing: Payment server']);
  });
});

describe('the sms check, through the sms service', () => {
  it('is ok without a token; with one, follows the quota a local Textbelt reports, and fails when it does not answer', async () => {
    tune(ctx, {});
    expect(byName((await runChecks()).json().healthChecks).sms).toMatchObject({ status: 'ok', message: 'no token: messages go to the outbox' });

    const textbelt = await startFakeTextbelt({ keys: { xgkey1: 120 } });
    cleanups.push(() => textbelt.stop());
    const c = await appWith({ TEXTBELT_URL: textbelt.url });
    tune(c, { timeoutMs: 300 });
    const cookie = (await asAdmin(c)).cookie;
    const sms = async () => byName((await runChecks(c, cookie)).json().healthChecks).sms;
    const setKey = (token: string) => c.app.deps.db.updateTable('textbelt_tokens').set({ token }).where('id', '=', 1).execute();

    await setKey('xgkey1');
    expect(await sms()).toMatchObject({ status: 'ok', message: '120 SMS left' });
    textbelt.quota.set('xgkey1', 12);
    expect(await sms()).toMatchObject({ status: 'degraded', message: '12 SMS left (under 50): top up the Textbelt key' });
    textbelt.quota.set('xgkey1', 0);
    expect((await sms()).status).toBe('failing');
    await setKey('nosuchkey');
    // What went wrong as a code the page words, no English of ours as its detail.
    expect(await sms()).toMatchObject({ status: 'failing', says: { code: 'sms.refused' } });
    expect((await sms()).says).not.toHaveProperty('detail');
    await setKey('xgkey1');
    textbelt.failNext('not-json');
    expect(await sms()).toMatchObject({
      status: 'failing',
      message: 'Textbelt: Textbelt could not be reached: the answer is not JSON',
      says: { code: 'sms.not_json' },
    });
    textbelt.failNext('http500');
    expect(await sms()).toMatchObject({ status: 'failing', says: { code: 'sms.http', params: { status: 500 } } });
    textbelt.quota.set('xgkey1', 80);
    textbelt.failNext('hang');
    expect(await sms()).toMatchObject({ status: 'failing', message: 'no answer in 300 ms' });
  });
});

describe('admin overview', () => {
  it('counts ads waiting for review, open reports and failing checks, for staff only', async () => {
    const overview = () => ctx.app.inject({ method: 'GET', url: '/api/admin/get-overview', headers: { cookie: admin.cookie } });
    expect((await overview()).json()).toEqual({ pendingAds: 0, openReports: 0, failingChecks: 0 });

    const owner = await makeUser(ctx, { status: 'approved' });
    const ny = await placeIn(ctx, 'ny');
    const walletId = await fundedUsd(ctx, owner, 5000);
    for (let i = 0; i < 2; i++) {
      const ad = await postAd(ctx, owner, ny);
      expect((await pay(ctx, owner, ad.id, walletId)).statusCode).toBe(200);
    }
    await postAd(ctx, owner, ny); // unpaid: not waiting for review
    const report = await ctx.app.inject({
      method: 'POST',
      url: '/api/reports',
      payload: { kind: 'contact', message: 'A question about an advert, please.', contact: 'ann@example.com' },
    });
    expect(report.statusCode).toBe(201);
    tune(ctx, { disk: DISK_FULL });
    await runChecks();
    expect((await overview()).json()).toEqual({ pendingAds: 2, openReports: 1, failingChecks: 1 });

    // An edit of a live ad waits in the same queue: counted as the queue counts it.
    const live = (await liveAd(ctx, owner, admin, ny)) as unknown as { id: string; photos: { url: string }[] };
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${live.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm({ ...goodFields(ny, { title: 'An edited title for review' }), keepPhotos: JSON.stringify([live.photos[0].url]) }, []),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const queue = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } })).json();
    expect(queue.total).toBe(3);
    expect((await overview()).json()).toEqual({ pendingAds: 3, openReports: 1, failingChecks: 1 });

    const provider = await makeUser(ctx, { status: 'approved' });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/get-overview', headers: { cookie: provider.cookie } })).statusCode).toBe(403);
  });
});
