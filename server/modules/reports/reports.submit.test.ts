import path from 'node:path';
import { createHmac } from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ownerAdminNy, liveAd, type Place } from '../ads/ads.testkit.ts';
import type { TestContext, TestUser } from '../../test/harness.ts';
import type { DoneMessage, RoundMessage } from '../../test/ledger-property/worker.ts';
import { hashIp } from './reports.service.ts';

// Filing a report: the ad it names must exist, a repeat of an open report (a double-click, a
// retry, a script) is answered with the first one instead of filed and mailed again, and the
// sender's hash counts an IPv6 subscriber by its /64, as every per-IP limit does.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
const setUp = async (limits: { reportsPerHour?: number } = {}) => {
  ({ ctx, owner, admin, ny } = await ownerAdminNy({ env: { STAFF_EMAIL: 'staff@example.com' }, limits }));
};
afterEach(async () => ctx?.close());

const reportAd = (adId: string, message: string, ip = '203.0.113.7') =>
  ctx.app.inject({ method: 'POST', url: `/api/report-ad/${adId}`, payload: { message }, remoteAddress: ip });
const publicReport = (payload: object, ip = '203.0.113.7') => ctx.app.inject({ method: 'POST', url: '/api/reports', payload, remoteAddress: ip });
const staffReports = async () =>
  (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-reports?pageSize=100', headers: { cookie: admin.cookie } })).json().reports as {
    id: string;
    adId: string | null;
    message: string;
    ipHash: string | null;
  }[];
const aboutAd = async (adId: string) => (await staffReports()).filter((r) => r.adId === adId);

describe('POST /api/reports naming an ad', () => {
  // As POST /api/report-ad/:id answers for a missing ad: else staff get a report about no ad and an
  // e-mail linking to a page that 404s. A typo does not use up the sender's allowance either.
  it('refuses an adId that names no ad with 404 listings.ad_not_found, storing and mailing nothing', async () => {
    await setUp({ reportsPerHour: 1 });
    const res = await publicReport({ kind: 'trafficking', message: 'The girl in this ad looks very young.', adId: 'nosuchad000000000000' });
    expect([res.statusCode, res.json().code]).toEqual([404, 'listings.ad_not_found']);
    expect(await staffReports()).toEqual([]);
    expect(ctx.mailer.sent).toHaveLength(0);
    expect((await publicReport({ kind: 'trafficking', message: 'The girl in this ad looks very young.' })).statusCode).toBe(201);
  });

  // A tip about an ad seen before its owner deleted it is still evidence: its versions name it.
  it('accepts an ad that exists, and one deleted since whose versions are kept', async () => {
    await setUp();
    const ad = await liveAd(ctx, owner, admin, ny);
    expect((await publicReport({ kind: 'trafficking', message: 'The girl in this ad looks very young.', adId: ad.id })).statusCode).toBe(201);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    expect((await publicReport({ kind: 'trafficking', message: 'It was deleted but I saw it yesterday.', adId: ad.id })).statusCode).toBe(201);
    expect(await aboutAd(ad.id)).toHaveLength(2);
  });
});

describe('a report repeating one still open (same kind, ad, sender, words and contact)', () => {
  it('through POST /api/report-ad/:id: answered 201 with the first report, not stored or mailed again', async () => {
    await setUp();
    const ad = await liveAd(ctx, owner, admin, ny);
    const text = 'This ad uses stolen photos of someone else.';
    const first = await reportAd(ad.id, text);
    expect(first.statusCode).toBe(201);
    const mails = ctx.mailer.sent.length;
    for (const again of [await reportAd(ad.id, text), await reportAd(ad.id, `  ${text} `)]) {
      expect([again.statusCode, again.json()]).toEqual([201, first.json()]);
    }
    expect(await aboutAd(ad.id)).toHaveLength(1);
    expect(ctx.mailer.sent.length).toBe(mails);
  });

  it('through POST /api/reports: the same', async () => {
    await setUp();
    const ad = await liveAd(ctx, owner, admin, ny);
    const tip = { kind: 'trafficking', message: 'The girl in this ad looks very young.', adId: ad.id };
    const first = await publicReport(tip);
    expect(first.statusCode).toBe(201);
    const mails = ctx.mailer.sent.length;
    const again = await publicReport(tip);
    expect([again.statusCode, again.json()]).toEqual([201, first.json()]);
    expect(await aboutAd(ad.id)).toHaveLength(1);
    expect(ctx.mailer.sent.length).toBe(mails);
  });

  // Only an exact repeat of an open report folds: new words, another sender, or a report staff
  // already closed is news for them.
  it('other words, another sender, another kind, or after staff closed the first: filed and mailed anew', async () => {
    await setUp();
    const ad = await liveAd(ctx, owner, admin, ny);
    const text = 'This ad uses stolen photos of someone else.';
    const first = (await reportAd(ad.id, text)).json().id as string;
    const mails = ctx.mailer.sent.length;
    expect((await reportAd(ad.id, 'And the phone number is fake.')).statusCode).toBe(201);
    expect((await reportAd(ad.id, text, '198.51.100.4')).statusCode).toBe(201);
    expect((await publicReport({ kind: 'trafficking', message: text, adId: ad.id })).statusCode).toBe(201);
    const close = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-report-status',
      headers: { cookie: admin.cookie },
      payload: { id: first, status: 'closed' },
    });
    expect(close.statusCode).toBe(200);
    const anew = await reportAd(ad.id, text);
    expect(anew.statusCode).toBe(201);
    expect(anew.json().id).not.toBe(first);
    expect(await aboutAd(ad.id)).toHaveLength(5);
    expect(ctx.mailer.sent.length).toBe(mails + 4);
  });

  // Two server processes on one database file, each sending the same report at the same instant:
  // the look-up and the insert share a BEGIN IMMEDIATE transaction, so the second sees the first.
  it('sent at once to two server processes on one file: one report, both answered with it', async () => {
    await setUp();
    const ad = await liveAd(ctx, owner, admin, ny);
    const children = await Promise.all([0, 1].map(() => startWorker(path.join(ctx.dataDir, 'xg.sqlite'), ctx.dataDir)));
    try {
      const call = { method: 'POST' as const, url: `/api/report-ad/${ad.id}`, cookie: '', payload: { message: 'This ad uses stolen photos of someone else.' } };
      const goAt = Date.now() + 50;
      const done = await Promise.all(children.map((c, k) => round(c, { type: 'round', id: k + 1, now: ctx.clock.now().getTime(), goAt, calls: [call, call] })));
      const answers = done.flatMap((d) => d.answers);
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
      expect(new Set(answers.map((a) => (a.body as { id: string }).id)).size).toBe(1);
      expect(await aboutAd(ad.id)).toHaveLength(1);
    } finally {
      await Promise.all(children.map(stopWorker));
    }
  });
});

describe('the sender hash staff see', () => {
  // Every per-IP limit counts an IPv6 subscriber by its /64 (ratelimit.ts ipKey): one subscriber
  // holds the whole /64 and rotates privacy addresses within it.
  it('is the same for two addresses of one IPv6 /64, and another for another /64', async () => {
    await setUp();
    const ad = await liveAd(ctx, owner, admin, ny);
    expect((await reportAd(ad.id, 'First report about this ad, fake photos.', '2001:db8:1:2::a')).statusCode).toBe(201);
    expect((await reportAd(ad.id, 'Second report about this ad, same person.', '2001:db8:1:2:ffff::b')).statusCode).toBe(201);
    expect((await reportAd(ad.id, 'Third report about this ad, someone else.', '2001:db8:1:3::a')).statusCode).toBe(201);
    const hash = Object.fromEntries((await aboutAd(ad.id)).map((r) => [r.message.split(' ')[0], r.ipHash]));
    expect(hash.First).toBe(hash.Second);
    expect(hash.Third).not.toBe(hash.First);
  });

  // Rows stored before the /64 change are not rewritten: an IPv4 sender's hash must stay what it was.
  it('of an IPv4 address is the one stored before (the hash of the address itself)', async () => {
    await setUp();
    const before = createHmac('sha256', ctx.config.jwtSecret).update('report-ip:203.0.113.7').digest('hex').slice(0, 16);
    expect(hashIp(ctx.config.jwtSecret, '203.0.113.7')).toBe(before);
    expect(hashIp(ctx.config.jwtSecret, '::ffff:203.0.113.7')).toBe(before);
  });
});

/** A second server process (the ledger property test's worker) with its own app on the test's database file. */
function startWorker(file: string, dataDir: string): Promise<ChildProcess> {
  const child = fork(path.resolve(import.meta.dirname, '../../test/ledger-property/worker.ts'), [file, dataDir], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    child.once('message', () => {
      child.removeAllListeners('exit');
      resolve(child);
    });
  });
}

function round(child: ChildProcess, m: RoundMessage): Promise<DoneMessage> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) during the round`)));
    child.once('message', (done: DoneMessage) => resolve(done));
    child.send(m);
  });
}

function stopWorker(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.send({ type: 'exit' });
    setTimeout(() => child.kill(), 5000).unref();
  });
}
