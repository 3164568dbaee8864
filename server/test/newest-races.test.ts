import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from './harness.ts';
import { ledgerDiscrepancies } from '../modules/wallets/ledger.service.ts';
import { goodFields, jpegWithGps, placeIn, type Place } from '../modules/ads/ads.testkit.ts';
import type { Req } from './newest-races.worker.ts';

// Two server processes on one database file (worker threads, each its own app and connections),
// firing at the same wall-clock moment at the newest features: request keys, held terms, moves.
// Afterwards the state must be that of some serial order of the same requests.

let ctx: TestContext;
let owner: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => {
  expect(await ledgerDiscrepancies(ctx.app.deps.db)).toEqual([]);
  await ctx.close();
});

interface Answer {
  status: number;
  body: string;
  span: [number, number];
}

interface Server {
  requests: Req[];
  warmup?: Req[];
  limits?: Record<string, number>;
  /** ms after the common start */
  offset?: number;
  /** holds the write lock for this many ms before its own start (a third writer) */
  lockBefore?: number;
}

/**
 * Starts each server (a worker thread: its own app and connections on the test's file), waits until
 * all are ready (warmed up), then has them all send their requests at one wall-clock moment (plus
 * each one's offset). Returns each one's answers.
 */
async function servers(list: Server[]): Promise<Answer[][]> {
  const workers = list.map(
    (s) =>
      new Worker(path.join(import.meta.dirname, 'newest-races.worker.ts'), {
        workerData: { file: path.join(ctx.dataDir, 'xg.sqlite'), dataDir: ctx.dataDir, at: ctx.clock.now().toISOString(), ...s },
      }),
  );
  const outcomes = workers.map(
    (w) =>
      new Promise<Answer[]>((resolve, reject) => {
        w.on('message', (m: { ready?: true; ok: boolean; answers: Answer[]; errors: string[] }) => {
          if (m.ready) return;
          if (m.ok && !m.errors.length) resolve(m.answers);
          else reject(new Error(m.errors.join('\n')));
        });
        w.once('error', reject);
      }),
  );
  await Promise.all(workers.map((w) => new Promise((resolve) => w.on('message', (m: { ready?: true }) => m.ready && resolve(null)))));
  const start = Date.now() + 300;
  workers.forEach((w, i) => w.postMessage({ start: start + (list[i].offset ?? 0) }));
  return Promise.all(outcomes);
}

describe('a post sent again with its request key to a second server while the first is still encoding it', () => {
  // The provider's 20th post of the day: the first try's answer is slow, the phone retries with the
  // same Idempotency-Key and the retry reaches another server process. In any serial order the
  // retry is answered with the first try's answer (core/idempotency.ts: "a key done is answered
  // again from its row … never acted on twice"), so both answers must be the same 201 and one ad.
  // The retry took a place of the daily limit before it looked for its key under the lock, and was
  // refused 429 "daily post limit" for the very ad the first try was making: tries of one request
  // now share one place (migration 0040).
  it('both answers are the one ad made, even at the daily limit', async () => {
    const db = ctx.app.deps.db;
    const at = ctx.clock.now().toISOString();
    await db
      .insertInto('ad_post_log')
      .values(Array.from({ length: 19 }, (_, i) => ({ user_id: owner.id, ad_id: `earlier-${i}`, posted_at: at })))
      .execute();
    ctx.clock.advance(60_000);
    // Large photos: the first try spends a while encoding them, as a phone's upload does.
    const photos = await Promise.all(['#2a6', '#a26', '#26a'].map(async (c) => (await jpegWithGps(c, 2400, 1800)).toString('base64')));
    const post: Req = {
      method: 'POST',
      url: '/api/post-ad',
      headers: { cookie: owner.cookie, 'idempotency-key': 'post-at-limit-01' },
      form: { fields: goodFields(ny), photos },
    };
    const [[a], [b]] = await servers([
      { requests: [post], limits: { adsPerDay: 20 } },
      { requests: [post], limits: { adsPerDay: 20 } },
    ]);
    expect([a.status, b.status], `${a.body}\n${b.body}`).toEqual([201, 201]);
    expect(b.body).toBe(a.body);
    const ads = await db.selectFrom('ads').select('id').where('owner_id', '=', owner.id).execute();
    expect(ads).toHaveLength(1);
  }, 60_000);
});

describe('a password reset asked for the old address while the e-mail change is confirmed on the other server', () => {
  // confirmEmailChange ends every reset link of the account in its transaction ("a reset link mailed
  // to the old address too": the owner may be moving away from a mailbox someone else reads). In
  // any serial order of "confirm the new address" and "send a reset link to the old address" no
  // live reset link is left: before the change the link is ended by it, after it the old address
  // names no account. requestPasswordReset read the account by the old address and stored the
  // link in two separate statements, outside a transaction: a confirmation committed in between
  // left a working reset link mailed to the address the account just left (now one transaction).
  // The window (between the read of the old address and the write of the link) is short: a third
  // writer (any other request, here a plain transaction) holds the write lock for a moment as both
  // servers start, so the reads are done before the writes, as they are whenever the file is busy.
  it('leaves no live reset link mailed to the address the account left', async () => {
    // Tried up to three times (fresh accounts each): which server gets the lock first is the scheduler's.
    const live: { email: string; created_at: string }[] = [];
    for (let round = 0; round < 3 && !live.length; round++) live.push(...(await confirmWhileResetAsked(round)));
    expect(live).toEqual([]);
  }, 120_000);
});

/** One round: returns the live reset links of the accounts that changed address. */
async function confirmWhileResetAsked(round: number) {
  const users: { user: TestUser; token: string }[] = [];
  for (let i = 0; i < 30; i++) {
    const user = await makeUser(ctx, { status: 'approved' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      headers: { cookie: user.cookie },
      payload: { newEmail: `moved-${i}-${user.id}@example.org`, password: user.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = ctx.mailer.sent.at(-1)!;
    users.push({ user, token: decodeURIComponent(/confirm-email\?token=([^\s"&<]+)/.exec(mail.text)![1]) });
  }
  const confirms: Req[] = users.map(({ token }) => ({ method: 'POST', url: '/api/confirm-email-reset', payload: { token } }));
  const asks: Req[] = users.map(({ user }, i) => ({
    method: 'POST',
    url: '/api/password-reset-request',
    payload: { email: user.email },
    remoteAddress: `10.99.${round}.${i + 1}`,
  }));
  // A cold server's first requests are slow: each server sends a few of its kind first.
  const warmConfirm: Req[] = Array.from({ length: 5 }, (_, i) => ({ method: 'POST', url: '/api/confirm-email-reset', payload: { token: `not-a-token-${i}` } }));
  const warmAsk: Req[] = Array.from({ length: 5 }, (_, i) => ({
    method: 'POST',
    url: '/api/password-reset-request',
    payload: { email: `nobody-${round}-${i}@example.com` },
    remoteAddress: '10.98.0.1',
  }));
  // The server asked for a reset reads the account by its old address while a third writer holds
  // the write lock (any other request: here a plain transaction), which is let go just as the other
  // server confirms the new addresses.
  const [asked, done] = await servers([
    { requests: asks, warmup: warmAsk },
    { requests: confirms, warmup: warmConfirm, offset: 300, lockBefore: 350 },
  ]);
  expect(done.map((a) => a.status)).toEqual(users.map(() => 200));
  expect(asked.map((a) => a.status)).toEqual(users.map(() => 202));
  return ctx.app.deps.db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .select(['users.email', 'password_resets.created_at'])
    .where(
      'password_resets.user_id',
      'in',
      users.map((u) => u.user.id),
    )
    .where('password_resets.used_at', 'is', null)
    .where('password_resets.token_hash', 'not like', 'ended:%')
    .execute();
}
