import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { ledgerDiscrepancies } from '../wallets/ledger.service.ts';
import { REQUEST_KEY_TTL_MS } from '../../core/idempotency.ts';
import { uploadsRoot } from '../uploads/uploads.storage.ts';
import type { StoredPhoto } from './ads.dto.ts';
import { adForm, fundedUsd, goodFields, jpegWithGps, liveAd, placeIn, walletsOf, type Place } from './ads.testkit.ts';

// A provider on a flaky mobile network: the request reached the server and was done, its answer was
// lost (ky's timeout, a dropped socket), and the user pressed again. The ledger's own keys change
// with the first action (bump_seq, expires_at) and a post has none, so only the request key the
// client sends with every try of one action (Idempotency-Key) tells the retry from a second purchase.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => {
  expect(await ledgerDiscrepancies(ctx.app.deps.db)).toEqual([]);
  await ctx.close();
});

const usd = async (u: TestUser) => (await walletsOf(ctx, u)).find((w) => w.walletType === 'USD')!.amountCents;
const ledger = (kind: string) => ctx.app.deps.db.selectFrom('ledger_entries').selectAll().where('kind', '=', kind).execute();
const put = (u: TestUser, url: string, payload: object, key?: string) =>
  ctx.app.inject({ method: 'PUT', url, headers: { cookie: u.cookie, ...(key ? { 'idempotency-key': key } : {}) }, payload });
const postForm = (u: TestUser, fields: Record<string, string>, photos: Buffer[], key?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/post-ad',
    headers: { cookie: u.cookie, ...(key ? { 'idempotency-key': key } : {}) },
    payload: adForm(fields, photos),
  });
const cartTotal = async (u: TestUser) =>
  (await ctx.app.inject({ method: 'GET', url: '/api/cart-ads-by-user', headers: { cookie: u.cookie } })).json().total as number;
/** The lost answer, ky's 30 s timeout, "Something went wrong.", the user presses again: past the 60 s cooldowns. */
const laterRetry = () => ctx.clock.advance(30_000 + 45_000);

describe('a bump sent again with its request key', () => {
  it('is charged once and answers the first answer again, after the cooldown and within it', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(10 * 60_000);
    const walletId = await fundedUsd(ctx, owner, 1000);
    const first = await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 }, 'bump-key-0001');
    expect(first.statusCode, first.body).toBe(200);
    const soon = await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 }, 'bump-key-0001');
    laterRetry();
    const retry = await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 }, 'bump-key-0001');
    expect([soon.statusCode, retry.statusCode]).toEqual([200, 200]);
    expect(soon.json()).toEqual(first.json());
    expect(retry.json()).toEqual(first.json());
    expect(await usd(owner)).toBe(700);
    expect(await ledger('bump_payment')).toHaveLength(1);
    // A new press (a new key) is a new bump, charged.
    const next = await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 }, 'bump-key-0002');
    expect(next.statusCode, next.body).toBe(200);
    expect(await usd(owner)).toBe(400);
  });

  it('without a key acts as before: past the cooldown a retry is a second bump, within it 409', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(10 * 60_000);
    const walletId = await fundedUsd(ctx, owner, 1000);
    expect((await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 })).statusCode).toBe(200);
    const soon = await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 });
    expect(soon.json().code).toBe('ad.bump_too_soon');
    laterRetry();
    expect((await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 })).statusCode).toBe(200);
    expect(await usd(owner)).toBe(400);
  });

  it("another user's same key is their own: both are charged", async () => {
    const bob = await makeUser(ctx, { status: 'approved' });
    const mine = await liveAd(ctx, owner, admin, ny);
    const his = await liveAd(ctx, bob, admin, ny);
    ctx.clock.advance(10 * 60_000);
    const [w1, w2] = [await fundedUsd(ctx, owner, 1000), await fundedUsd(ctx, bob, 1000)];
    expect((await put(owner, `/api/bump-ad/${mine.id}`, { walletId: w1, priceCents: 300 }, 'shared-key-01')).statusCode).toBe(200);
    const bobs = await put(bob, `/api/bump-ad/${his.id}`, { walletId: w2, priceCents: 300 }, 'shared-key-01');
    expect(bobs.statusCode, bobs.body).toBe(200);
    expect(bobs.json().ad.id).toBe(his.id);
    expect([await usd(owner), await usd(bob)]).toEqual([700, 700]);
  });

  it('reused for another ad, or for a renewal, is refused (422) and charges nothing', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const other = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(10 * 60_000);
    const walletId = await fundedUsd(ctx, owner, 5000);
    expect((await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 }, 'one-key-only')).statusCode).toBe(200);
    const otherAd = await put(owner, `/api/bump-ad/${other.id}`, { walletId, priceCents: 300 }, 'one-key-only');
    const renewal = await put(owner, `/api/renew-ad/${ad.id}`, { walletId, priceCents: 1500, durationDays: 30 }, 'one-key-only');
    for (const res of [otherAd, renewal]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: 'request.idempotency_key_reused' });
    }
    expect(await usd(owner)).toBe(4700);
  });

  it('malformed is refused (400) before anything is done', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(10 * 60_000);
    const walletId = await fundedUsd(ctx, owner, 1000);
    for (const key of ['short', 'x'.repeat(101), 'has space 123', 'semi;colon1']) {
      const res = await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 }, key);
      expect(res.statusCode, key).toBe(400);
      expect(res.json().code).toBe('request.idempotency_key_invalid');
    }
    expect(await usd(owner)).toBe(1000);
  });

  it('is a new bump once a day has passed: its row is no longer answered, and old rows are deleted as new ones are written', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(10 * 60_000);
    const walletId = await fundedUsd(ctx, owner, 1000);
    expect((await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 }, 'day-old-key')).statusCode).toBe(200);
    ctx.clock.advance(REQUEST_KEY_TTL_MS + 1000);
    expect((await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 }, 'day-old-key')).statusCode).toBe(200);
    expect(await usd(owner)).toBe(400);
    ctx.clock.advance(REQUEST_KEY_TTL_MS + 1000);
    expect((await put(owner, `/api/bump-ad/${ad.id}`, { walletId, priceCents: 300 }, 'fresh-key-01')).statusCode).toBe(200);
    const rows = await ctx.app.deps.db.selectFrom('request_keys').select('key').execute();
    expect(rows.map((r) => r.key)).toEqual(['fresh-key-01']);
  });
});

describe('a renewal sent again with its request key', () => {
  it('is charged and extends the term once, answering the first answer again', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(10 * 60_000);
    const walletId = await fundedUsd(ctx, owner, 3000);
    const body = { walletId, priceCents: 1500, durationDays: 30 };
    const first = await put(owner, `/api/renew-ad/${ad.id}`, body, 'renew-key-01');
    expect(first.statusCode, first.body).toBe(200);
    laterRetry();
    const retry = await put(owner, `/api/renew-ad/${ad.id}`, body, 'renew-key-01');
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await usd(owner)).toBe(1500);
    const row = await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(first.json().ad.expiresAt);
  });

  it('without a key acts as before: past the cooldown a retry is a second term', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(10 * 60_000);
    const walletId = await fundedUsd(ctx, owner, 3000);
    const body = { walletId, priceCents: 1500, durationDays: 30 };
    expect((await put(owner, `/api/renew-ad/${ad.id}`, body)).statusCode).toBe(200);
    laterRetry();
    expect((await put(owner, `/api/renew-ad/${ad.id}`, body)).statusCode).toBe(200);
    expect(await usd(owner)).toBe(0);
  });
});

describe('a post-ad sent again with its request key', () => {
  it('gives back the one ad it made: one ad in the cart, one place of the daily limit', async () => {
    const photo = await jpegWithGps();
    const fields = goodFields(ny);
    const first = await postForm(owner, fields, [photo], 'post-key-0001');
    expect(first.statusCode, first.body).toBe(201);
    ctx.clock.advance(35_000);
    const retry = await postForm(owner, fields, [photo], 'post-key-0001');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await cartTotal(owner)).toBe(1);
    expect(await ctx.app.deps.db.selectFrom('ad_post_log').select('ad_id').where('user_id', '=', owner.id).execute()).toHaveLength(1);
    // The form changed: the same key is another post, refused; a new key posts it.
    const changed = await postForm(owner, { ...fields, title: 'Another elegant companion' }, [photo], 'post-key-0001');
    expect(changed.statusCode, changed.body).toBe(422);
    expect(changed.json().code).toBe('request.idempotency_key_reused');
    expect((await postForm(owner, { ...fields, title: 'Another elegant companion' }, [photo], 'post-key-0002')).statusCode).toBe(201);
    expect(await cartTotal(owner)).toBe(2);
  });

  it('sent twice at once makes one ad, and the loser leaves no photo files behind', async () => {
    const photo = await jpegWithGps();
    const fields = goodFields(ny);
    const [a, b] = await Promise.all([postForm(owner, fields, [photo], 'post-key-race'), postForm(owner, fields, [photo], 'post-key-race')]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.json()).toEqual(a.json());
    expect(await cartTotal(owner)).toBe(1);
    const [stored] = await ctx.app.deps.db.selectFrom('ads').select('photos_json').execute();
    const kept = (JSON.parse(stored.photos_json) as StoredPhoto[]).flatMap((p) => [p.path, p.thumbPath]);
    const root = uploadsRoot(ctx.dataDir);
    const onDisk = fs.readdirSync(path.join(root, 'ads'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(onDisk.map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort()).toEqual(kept.sort());
  });

  it('without a key acts as before: a retry is a second ad in the cart', async () => {
    const photo = await jpegWithGps();
    const fields = goodFields(ny);
    expect((await postForm(owner, fields, [photo])).statusCode).toBe(201);
    expect((await postForm(owner, fields, [photo])).statusCode).toBe(201);
    expect(await cartTotal(owner)).toBe(2);
  });
});

describe('the same key from two server processes at once', () => {
  function send(request: object, start: number): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(path.join(import.meta.dirname, 'ads.idempotency.worker.ts'), {
        workerData: { file: path.join(ctx.dataDir, 'xg.sqlite'), dataDir: ctx.dataDir, at: ctx.clock.now().toISOString(), start, request },
      });
      worker.once('message', (m: { ok: boolean; status: number; body: string }) => (m.ok ? resolve(m) : reject(new Error(m.body))));
      worker.once('error', reject);
    });
  }

  it('a bump and a renewal are each charged once; both answers are the one answer', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(10 * 60_000);
    const walletId = await fundedUsd(ctx, owner, 5000);
    const headers = (key: string) => ({ cookie: owner.cookie, 'idempotency-key': key });
    const bump = { method: 'PUT', url: `/api/bump-ad/${ad.id}`, headers: headers('race-bump-1'), payload: { walletId, priceCents: 300 } };
    const renew = { method: 'PUT', url: `/api/renew-ad/${ad.id}`, headers: headers('race-renew-1'), payload: { walletId, priceCents: 1500, durationDays: 30 } };
    const start = Date.now() + 1500;
    const answers = await Promise.all([send(bump, start), send(bump, start), send(renew, start), send(renew, start)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers[1].body).toBe(answers[0].body);
    expect(answers[3].body).toBe(answers[2].body);
    expect(await usd(owner)).toBe(5000 - 300 - 1500);
    expect(await ledger('bump_payment')).toHaveLength(1);
  }, 30_000);
});

describe('an erased account', () => {
  // The answers kept for retries hold the account's ads' texts: they go with the account.
  it("leaves no request key or kept answer behind; another account's stay", async () => {
    const other = await makeUser(ctx, { status: 'approved' });
    for (const u of [owner, other]) {
      const res = await postForm(u, goodFields(ny), [await jpegWithGps()], `post-key-${u.id.slice(0, 8)}`);
      expect(res.statusCode, res.body).toBe(201);
    }
    const keysOf = (id: string) => ctx.app.deps.db.selectFrom('request_keys').select('key').where('user_id', '=', id).execute();
    expect(await keysOf(owner.id)).toHaveLength(1);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/delete-my-profile?confirm=true',
      headers: { cookie: owner.cookie },
      payload: { password: owner.password },
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(await keysOf(owner.id)).toEqual([]);
    expect(await keysOf(other.id)).toHaveLength(1);
  });
});
