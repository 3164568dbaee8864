import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import pino from 'pino';
import { createMailer } from '../../core/mailer.ts';
import type { PaymentServerHealth } from '../../../contract/api/payments.ts';
import {
  CACHE_FULL,
  CACHE_LOW_HITS,
  CACHE_MIN_LOOKUPS,
  CheckTimeout,
  checkDisk,
  checkSmtp,
  diskOutcome,
  formatMs,
  memoryOutcome,
  paymentServerOutcome,
  smsOutcome,
  thrownOutcome,
  withTimeout,
} from './health.checks.ts';
import type { CacheUse } from '../listings/listings.cache.ts';
import { freePort } from '../../test/harness.ts';
import type { Said } from '../../../contract/api/common.ts';
import { checkWords } from './health.words.ts';

const log = pino({ level: 'silent' });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
const GB = 1024 ** 3;

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-health-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A server that accepts connections and never says a word (an SMTP server that hangs). */
async function silentServer(): Promise<number> {
  const sockets = new Set<net.Socket>();
  const s = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((r) => s.close(() => r()));
  });
  return (s.address() as AddressInfo).port;
}

async function realSmtp(): Promise<number> {
  const server = new SMTPServer({ secure: false, authOptional: true, disabledCommands: ['STARTTLS'], logger: false });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.server.address() as AddressInfo).port;
}

/** An SMTP server that refuses mail until the client logs in as ann (as most relays do). */
async function authSmtp(): Promise<number> {
  const server = new SMTPServer({
    secure: false,
    allowInsecureAuth: true, // AUTH offered without TLS: plain SMTP on loopback
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'ann' && auth.password === 's3cret') callback(null, { user: 'ann' });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.server.address() as AddressInfo).port;
}

const btcpay = (over: Partial<PaymentServerHealth> = {}): PaymentServerHealth => ({
  mode: 'btcpay',
  reachable: true,
  synchronized: true,
  version: '2.4.1',
  storeId: 'Store1',
  webhookRegistered: true,
  lastWebhookAt: '2026-01-15T11:58:00.000Z',
  openInvoices: 2,
  checkedAt: '2026-01-15T12:00:00.000Z',
  message: 'ok',
  problems: [],
  ...over,
});

describe('disk check', () => {
  const t = { degradedBelow: 0.1, failingBelow: 0.02 };
  it('is ok above 10 % free, degraded under it, failing under 2 %', () => {
    expect(diskOutcome(50 * GB, 100 * GB, t)).toMatchObject({ status: 'ok', message: '50.0 GB free of 100.0 GB (50 %)' });
    expect(diskOutcome(10 * GB, 100 * GB, t).status).toBe('ok');
    expect(diskOutcome(9 * GB, 100 * GB, t)).toMatchObject({ status: 'degraded', message: '9.0 GB free of 100.0 GB (9.0 %): under 10 %' });
    expect(diskOutcome(2 * GB, 100 * GB, t).status).toBe('degraded');
    expect(diskOutcome(1.5 * GB, 100 * GB, t)).toMatchObject({
      status: 'failing',
      message: '1.5 GB free of 100.0 GB (1.5 %): under 2.0 %, writes will soon fail',
    });
    expect(diskOutcome(0, 0, t).status).toBe('failing');
    expect(diskOutcome(300 * 1024 ** 2, 1 * GB, t).message).toBe('300 MB free of 1.0 GB (29 %)');
  });

  it('reads the data directory’s real volume; a full disk is simulated by raising the thresholds', () => {
    const dir = tempDir();
    const s = fs.statfsSync(dir);
    const free = s.bavail / s.blocks;
    const none = { degradedBelow: 0, failingBelow: 0 };
    expect(checkDisk(dir, none)).toMatchObject(diskOutcome(s.bavail * s.bsize, s.blocks * s.bsize, none));
    expect(checkDisk(dir, { degradedBelow: free + 0.01, failingBelow: 0 }).status).toBe('degraded');
    expect(checkDisk(dir, { degradedBelow: 1.01, failingBelow: 1.01 }).status).toBe('failing');
    expect(() => checkDisk(path.join(dir, 'gone'), t)).toThrow(/ENOENT/);
  });
});

describe('memory check', () => {
  const MB = 1024 ** 2;
  const cache = (over: Partial<CacheUse>): CacheUse => ({
    name: 'api',
    hits: 0,
    misses: 0,
    refused: 0,
    bytes: 0,
    maxBytes: 24 * MB,
    entries: 0,
    maxEntries: 50_000,
    ...over,
  });
  const memory = (...caches: CacheUse[]) => memoryOutcome({ rssBytes: 312.4 * MB, heapUsedBytes: 8.26 * MB, cacheMb: 57, caches });

  it('reports the memory and each cache, and degrades only for a full cache that misses most of many lookups', () => {
    expect(memory(cache({ name: 'searches', maxBytes: 12 * MB }), cache({ hits: 7_300, misses: 2_700, bytes: 24 * MB, entries: 16_500 }))).toMatchObject({
      status: 'ok',
      message:
        'RSS 312 MB, JavaScript heap 8.3 MB; caches since the last check: API answers 73 % of 10,000 lookups hit, 24 MB of 24 MB; search lists no lookups, 0.0 MB of 12 MB',
    });
    // Full (of its bytes, then of its entries) and hitting under half of enough lookups: too small for the traffic.
    const short = cache({ hits: 4_000, misses: 6_000, bytes: 23 * MB, entries: 16_000 });
    expect(memory(short, cache({ name: 'pages', hits: 10, misses: 990, bytes: MB, entries: 45_000 }))).toMatchObject({
      status: 'degraded',
      message:
        'RSS 312 MB, JavaScript heap 8.3 MB; caches since the last check: API answers 40 % of 10,000 lookups hit, 23 MB of 24 MB; pages 1.0 % of 1,000 lookups hit, 1.0 MB of 24 MB: ' +
        'API answers and pages full and hitting under 50 % of lookups; a larger CACHE_MB (now 57) would answer more from memory',
    });
    // Each condition alone is not enough: a cache with room, one that hits, one asked too rarely to tell.
    const full = { bytes: CACHE_FULL * 24 * MB, entries: 1 };
    const few = CACHE_MIN_LOOKUPS;
    expect(memory(cache({ ...full, bytes: CACHE_FULL * 24 * MB - 1, hits: 0, misses: few })).status).toBe('ok');
    expect(memory(cache({ ...full, entries: CACHE_FULL * 50_000 - 1, bytes: 0, hits: 0, misses: few })).status).toBe('ok');
    expect(memory(cache({ ...full, hits: CACHE_LOW_HITS * few, misses: few - CACHE_LOW_HITS * few })).status).toBe('ok');
    expect(memory(cache({ ...full, hits: 0, misses: few - 1 })).status).toBe('ok');
    expect(memory(cache({ ...full, hits: CACHE_LOW_HITS * few - 1, misses: few - CACHE_LOW_HITS * few + 1 })).status).toBe('degraded');
  });

  it('says how many new entries a full cache turned away (admission), in words and as codes', () => {
    const turned = memory(
      cache({ hits: 7_300, misses: 2_700, refused: 1_234, bytes: 24 * MB, entries: 16_500 }),
      cache({ name: 'searches', hits: 50, misses: 950, refused: 1, bytes: 12 * MB, maxBytes: 12 * MB, entries: 9_000 }),
      cache({ name: 'pages', hits: 900, misses: 100, bytes: 2 * MB }),
    );
    expect(turned.message).toBe(
      'RSS 312 MB, JavaScript heap 8.3 MB; caches since the last check: API answers 73 % of 10,000 lookups hit, 1,234 new entries turned away, 24 MB of 24 MB; ' +
        'pages 90 % of 1,000 lookups hit, 2.0 MB of 24 MB; search lists 5.0 % of 1,000 lookups hit, 1 new entry turned away, 12 MB of 12 MB: ' +
        'search lists full and hitting under 50 % of lookups; a larger CACHE_MB (now 57) would answer more from memory',
    );
    expect(turned.says.parts).toEqual([
      { code: 'memory.cache_refusing', params: { cache: 'api', used: 24 * MB, max: 24 * MB, hit: 0.73, lookups: 10_000, count: 1_234 } },
      { code: 'memory.cache', params: { cache: 'pages', used: 2 * MB, max: 24 * MB, hit: 0.9, lookups: 1_000 } },
      { code: 'memory.cache_short_refusing', params: { cache: 'searches', used: 12 * MB, max: 12 * MB, hit: 0.05, lookups: 1_000, count: 1 } },
    ]);
    expect(turned.says).toMatchObject({ code: 'memory.caches_short', params: { rss: 312.4 * MB, heap: 8.26 * MB, limit: CACHE_LOW_HITS, cacheMb: 57 } });
  });
});

describe('payment server check', () => {
  it('says sandbox mode is ok, with no real payments', () => {
    expect(paymentServerOutcome(btcpay({ mode: 'sandbox', message: 'Sandbox mode' }))).toMatchObject({
      status: 'ok',
      message: 'sandbox mode: no real payments (BTCPAY_URL is not set)',
    });
  });
  it('is ok when BTCPay is reachable, synchronized, knows our key and has our webhook', () => {
    expect(paymentServerOutcome(btcpay())).toMatchObject({
      status: 'ok',
      message: 'BTCPay Server 2.4.1 synchronized, store Store1, 2 open invoices, last webhook 2026-01-15T11:58:00.000Z',
    });
    expect(paymentServerOutcome(btcpay({ openInvoices: 1, lastWebhookAt: null })).message).toBe(
      'BTCPay Server 2.4.1 synchronized, store Store1, 1 open invoice',
    );
  });
  it('fails when BTCPay cannot be reached, or does not answer to our key', () => {
    expect(
      paymentServerOutcome(btcpay({ reachable: false, synchronized: false, version: null, message: 'Payment server unreachable: could not connect' })),
    ).toMatchObject({
      status: 'failing',
      message: 'Payment server unreachable: could not connect',
    });
    expect(paymentServerOutcome(btcpay({ reachable: false, message: 'ok' })).message).toBe('BTCPay Server is unreachable');
    expect(paymentServerOutcome(btcpay({ version: null, webhookRegistered: false, message: 'BTCPay refused our API key: 401' }))).toMatchObject({
      status: 'failing',
      message: 'BTCPay refused our API key: 401',
    });
  });
  it('degrades while BTCPay is not synchronized, or our webhook is missing', () => {
    expect(paymentServerOutcome(btcpay({ synchronized: false, message: 'ok' }))).toMatchObject({
      status: 'degraded',
      message: 'BTCPay Server 2.4.1 is not synchronized with the Bitcoin network',
    });
    expect(paymentServerOutcome(btcpay({ webhookRegistered: false, message: 'ok' }))).toMatchObject({
      status: 'degraded',
      message: 'no webhook registered for store Store1: payments are only seen when reconcile-invoices runs',
    });
    expect(paymentServerOutcome(btcpay({ webhookRegistered: false, message: 'no enabled webhook to http://x/api/webhooks/btcpay' })).message).toBe(
      'no enabled webhook to http://x/api/webhooks/btcpay',
    );
  });
});

describe('sms check', () => {
  it('without a token, is ok and says messages go to the outbox', () => {
    expect(smsOutcome({ configured: false, quotaRemaining: null, error: null, failure: null })).toMatchObject({
      status: 'ok',
      message: 'no token: messages go to the outbox',
    });
  });
  it('is ok with 50 or more messages left, degraded under 50, failing at 0', () => {
    expect(smsOutcome({ configured: true, quotaRemaining: 50, error: null, failure: null })).toMatchObject({ status: 'ok', message: '50 SMS left' });
    expect(smsOutcome({ configured: true, quotaRemaining: 49, error: null, failure: null })).toMatchObject({
      status: 'degraded',
      message: '49 SMS left (under 50): top up the Textbelt key',
    });
    expect(smsOutcome({ configured: true, quotaRemaining: 1, error: null, failure: null }).status).toBe('degraded');
    expect(smsOutcome({ configured: true, quotaRemaining: 0, error: null, failure: null })).toMatchObject({
      status: 'failing',
      message: 'no SMS left on the Textbelt key: phone codes cannot be sent',
    });
  });
  it('fails on a bad key or an unreachable Textbelt; degrades when no quota is said', () => {
    const refused = { code: 'sms.refused', detail: 'Invalid API key' };
    expect(smsOutcome({ configured: true, quotaRemaining: 0, error: 'Textbelt refused the key: Invalid API key', failure: refused })).toEqual({
      status: 'failing',
      message: 'Textbelt: Textbelt refused the key: Invalid API key',
      says: refused,
    });
    const late = { code: 'sms.timeout', params: { seconds: 10 } };
    expect(smsOutcome({ configured: true, quotaRemaining: null, error: 'Textbelt could not be reached: no answer in 10 s', failure: late })).toMatchObject({
      status: 'failing',
      says: late,
    });
    expect(smsOutcome({ configured: true, quotaRemaining: null, error: null, failure: null }).status).toBe('degraded');
  });
});

describe('sms check, worded for staff', () => {
  // The page and the staff e-mail word the check from its code (admin locale, says.sms.*): only
  // Textbelt's own words (or the system's error code) come through as they came.
  const words = (says: Said, locale: 'en' | 'es' | 'pt') =>
    checkWords({ id: 1, name: 'sms', status: 'failing', message: 'English of the log', says, durationMs: 1, checkedAt: '2026-01-15T12:00:00.000Z' }, locale);
  it('says in Spanish and Portuguese why Textbelt could not be asked, in English for English readers', () => {
    expect(words({ code: 'sms.not_json' }, 'es')).toBe('No se pudo leer la respuesta de Textbelt (no era su JSON).');
    expect(words({ code: 'sms.timeout', params: { seconds: 0.5 } }, 'es')).toBe('Textbelt no respondió en 0,5 s.');
    expect(words({ code: 'sms.http', params: { status: 502 } }, 'pt')).toBe('O Textbelt respondeu com o status HTTP 502.');
    expect(words({ code: 'sms.connection', detail: 'ECONNREFUSED' }, 'pt')).toBe('Não foi possível contatar o Textbelt (sem conexão). Detalhes: ECONNREFUSED');
    expect(words({ code: 'sms.refused', detail: 'Invalid API key.' }, 'en')).toBe('Textbelt refused the request. Details: Invalid API key.');
  });
  it('keeps a result stored before the codes as it was written', () => {
    const old = { code: 'sms.error', detail: 'Textbelt could not be reached: no answer in 10 s' };
    expect(words(old, 'es')).toBe('Textbelt rechazó la solicitud. Detalles: Textbelt could not be reached: no answer in 10 s');
  });
});

describe('smtp check', () => {
  const mailerFor = (smtpUrl: string | null) => createMailer({ smtpUrl, mailFrom: 'XG <no-reply@xg.test>', dataDir: tempDir() }, log);

  it('is ok when a real SMTP server greets us and takes the login, naming the host and never the password', async () => {
    const port = await authSmtp();
    const url = `smtp://ann:s3cret@127.0.0.1:${port}`;
    const said = await checkSmtp(mailerFor(url), url);
    expect(said).toMatchObject({ status: 'ok', message: `127.0.0.1:${port} accepted the connection and login`, says: { code: 'smtp.ok' } });
    expect(JSON.stringify(said)).not.toContain('s3cret');
  });

  // The check logs in itself when SMTP_URL names a user: a server that offers AUTH and refuses it fails.
  it('throws (failing) when the server offers AUTH and refuses the login SMTP_URL names', async () => {
    const realPort = await realSmtp(); // offers AUTH, implements none
    const realUrl = `smtp://ann:s3cret@127.0.0.1:${realPort}`;
    await expect(checkSmtp(mailerFor(realUrl), realUrl)).rejects.toThrow(/Invalid login: 535/);
    const authPort = await authSmtp();
    const wrongUrl = `smtp://ann:wrong@127.0.0.1:${authPort}`;
    await expect(checkSmtp(mailerFor(wrongUrl), wrongUrl)).rejects.toThrow(/Invalid login/);
  });

  it('claims no login when SMTP_URL names no user, and degrades once a message is refused', async () => {
    const port = await authSmtp();
    const host = `127.0.0.1:${port}`;
    const bareUrl = `smtp://${host}`;
    const bare = mailerFor(bareUrl);
    // verify() only connects and greets without credentials: the relay's AUTH requirement shows at the first message.
    expect(await checkSmtp(bare, bareUrl)).toMatchObject({
      status: 'ok',
      message: `${host} accepted the connection (SMTP_URL names no user, so no login was tried)`,
      says: { code: 'smtp.ok_no_login', params: { host } },
    });
    const message = { to: 'ann@example.com', subject: 'Your ad is live', text: 'It is.' };
    await expect(bare.send(message)).rejects.toThrow(/530/);
    const refused = await checkSmtp(bare, bareUrl);
    expect(refused).toMatchObject({ status: 'degraded', says: { code: 'smtp.last_send_failed', params: { host } } });
    expect(refused.message).toMatch(new RegExp(`^${host} accepted the connection, but the last message could not be sent: .*530`));
    expect(refused.says.detail).toMatch(/530/);

    // With the credentials it logs in and sends: ok, and the login is claimed truly.
    const authedUrl = `smtp://ann:s3cret@${host}`;
    const authed = mailerFor(authedUrl);
    await authed.send(message);
    expect(await checkSmtp(authed, authedUrl)).toMatchObject({
      status: 'ok',
      message: `${host} accepted the connection and login`,
      says: { code: 'smtp.ok', params: { host } },
    });
    await expect(checkSmtp(mailerFor(`smtp://ann:wrong@${host}`), null)).rejects.toThrow(/Invalid login/);
  });

  it('without SMTP_URL, is ok while the outbox is writable', async () => {
    expect(await checkSmtp(mailerFor(null), null)).toMatchObject({
      status: 'ok',
      message: 'SMTP_URL is not set: mail is written to the outbox folder, which is writable',
    });
  });

  it('without SMTP_URL, degrades once a message could not be written to the outbox', async () => {
    const dataDir = tempDir();
    const mailer = createMailer({ smtpUrl: null, mailFrom: 'XG <no-reply@xg.test>', dataDir }, log);
    fs.writeFileSync(path.join(dataDir, 'outbox'), ''); // a file where the folder should be
    await expect(mailer.send({ to: 'ann@example.com', subject: 's', text: 't' })).rejects.toThrow(/EEXIST/);
    fs.rmSync(path.join(dataDir, 'outbox'));
    const after = await checkSmtp(mailer, null);
    expect(after).toMatchObject({ status: 'degraded', says: { code: 'smtp.outbox_last_send_failed' } });
    expect(after.message).toMatch(/^SMTP_URL is not set: the outbox folder is writable, but the last message could not be written: EEXIST/);
  });

  it('throws (failing) when nothing listens', async () => {
    const port = await freePort();
    await expect(checkSmtp(mailerFor(`smtp://127.0.0.1:${port}`), null)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('times out (failing) on a server that never answers', async () => {
    const port = await silentServer();
    const t0 = performance.now();
    const err = await withTimeout(() => checkSmtp(mailerFor(`smtp://127.0.0.1:${port}`), null), 200).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckTimeout);
    expect((err as Error).message).toBe('no answer in 200 ms');
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('withTimeout', () => {
  it('answers what the work answers, or throws what it throws, within the limit', async () => {
    expect(await withTimeout(() => 7, 50)).toBe(7);
    await expect(
      withTimeout(() => {
        throw new Error('sync');
      }, 50),
    ).rejects.toThrow('sync');
    await expect(withTimeout(() => new Promise(() => {}), 30)).rejects.toThrow('no answer in 30 ms');
    expect([formatMs(12.4), formatMs(1000), formatMs(1500), formatMs(61_000)]).toMatchObject(['12 ms', '1 s', '1.5 s', '61 s']);
  });
});

describe('what each outcome says as a code (the health page words it in its language)', () => {
  it('disk, sms and the payment server: a code per case, with the numbers as params', () => {
    const t = { degradedBelow: 0.1, failingBelow: 0.02 };
    // Sizes in bytes and shares as fractions: the reader's language writes them ('9,0 GB'), not the server's.
    expect(diskOutcome(50 * GB, 100 * GB, t).says).toEqual({ code: 'disk.ok', params: { free: 50 * GB, total: 100 * GB, percent: 0.5 } });
    expect(diskOutcome(9 * GB, 100 * GB, t).says).toEqual({ code: 'disk.low', params: { free: 9 * GB, total: 100 * GB, percent: 0.09, limit: 0.1 } });
    expect(diskOutcome(1.5 * GB, 100 * GB, t).says).toEqual({ code: 'disk.failing', params: { free: 1.5 * GB, total: 100 * GB, percent: 0.015, limit: 0.02 } });
    expect(smsOutcome({ configured: false, quotaRemaining: null, error: null, failure: null }).says).toEqual({ code: 'sms.outbox' });
    expect(smsOutcome({ configured: true, quotaRemaining: 49, error: null, failure: null }).says).toEqual({
      code: 'sms.low',
      params: { count: 49, limit: 50 },
    });
    expect(smsOutcome({ configured: true, quotaRemaining: 0, error: 'Invalid API key', failure: null }).says).toEqual({
      code: 'sms.error',
      detail: 'Invalid API key',
    });
    expect(smsOutcome({ configured: true, quotaRemaining: null, error: 'HTTP 502', failure: { code: 'sms.http', params: { status: 502 } } }).says).toEqual({
      code: 'sms.http',
      params: { status: 502 },
    });
    expect(paymentServerOutcome(btcpay({ mode: 'sandbox' })).says).toEqual({ code: 'payment.sandbox' });
    expect(paymentServerOutcome(btcpay()).says).toEqual({
      code: 'payment.ok',
      params: { version: '2.4.1', store: 'Store1', count: 2, lastWebhookAt: '2026-01-15T11:58:00.000Z' },
    });
    // A problem the payments service found travels as its own code under the check's.
    const refused = paymentServerOutcome(
      btcpay({ version: null, message: 'BTCPay refused our API key: 401', problems: [{ code: 'payment.key_refused', detail: '401' }] }),
    );
    expect(refused.says).toEqual({ code: 'payment.key_refused', detail: '401' });
    const unreadable = paymentServerOutcome(
      btcpay({ version: null, synchronized: false, problems: [{ code: 'payment.syncing' }, { code: 'payment.store_unreadable', detail: 'HTTP 500' }] }),
    );
    // a server error is not a refused key: the operator is not sent to rotate one that is fine
    expect(unreadable.says).toEqual({ code: 'payment.store_unreadable', detail: 'HTTP 500', parts: [{ code: 'payment.syncing' }] });
  });

  it('a thrown check keeps what was thrown as detail; a timeout names its limit', async () => {
    expect(thrownOutcome(new Error('EACCES: permission denied'))).toMatchObject({
      status: 'failing',
      says: { code: 'check.failed', detail: 'EACCES: permission denied' },
    });
    const late = await withTimeout(() => new Promise(() => {}), 20).catch((e: unknown) => thrownOutcome(e));
    expect(late).toEqual({ status: 'failing', message: 'no answer in 20 ms', says: { code: 'check.timeout', params: { limit: '20 ms' } } });
  });
});
