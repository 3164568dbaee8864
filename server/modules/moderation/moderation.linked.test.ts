import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import type { DB } from '../../core/schema.ts';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { startFakeTextbelt, type FakeTextbelt } from '../../test/fakes/textbelt.ts';
import { decide, fundedUsd, pay, placeIn, postAd } from '../ads/ads.testkit.ts';
import { getAs } from './moderation.testkit.ts';
import { accountsLinkedTo, relatedAccounts } from './moderation.linked.repository.ts';
import { fingerprintAd } from './moderation.duplicates.ts';

// Accounts linked by a verified phone (PRODUCT: staff see related accounts; staff review no ad of
// an account linked to them): the number verified by SMS counts as an ad's phone does, on both
// sides, with or without any ad.

const KEY = 'linked_key_0001';
let fake: FakeTextbelt;
let ctx: TestContext;
let master: TestUser;

beforeEach(async () => {
  fake = await startFakeTextbelt({ keys: { [KEY]: 1000 } });
  ctx = await createTestApp({ env: { TEXTBELT_URL: fake.url } });
  master = await asMaster(ctx);
  const token = await ctx.app.inject({
    method: 'PUT',
    url: '/api/admin/update-textbelt-token-by-id/1',
    payload: { token: KEY },
    headers: { cookie: master.cookie },
  });
  expect(token.statusCode, token.body).toBeLessThan(300);
});
afterEach(async () => {
  await ctx.close();
  await fake.stop();
});

/** Verifies `phone` for `u` through the real SMS flow (the fake Textbelt receives the code). */
async function verifyPhone(u: TestUser, phone: string) {
  const ask = await ctx.app.inject({ method: 'POST', url: '/api/phone-verification', payload: { phone }, headers: { cookie: u.cookie } });
  expect(ask.statusCode, ask.body).toBe(202);
  const code = /\b(\d{6})\b/.exec(fake.textsTo(phone).at(-1) ?? '')![1];
  const ok = await ctx.app.inject({ method: 'POST', url: '/api/phone-verification/confirm', payload: { code }, headers: { cookie: u.cookie } });
  expect(ok.statusCode, ok.body).toBe(200);
  ctx.clock.advance(61 * 60_000); // the number's hourly text allowance is not what this is about
}

const related = async (u: TestUser) =>
  ((await getAs(ctx, master, `/api/admin/get-user/${u.id}`)).body.related as { nickname: string; reasons: string[] }[])
    .map((r) => [r.nickname, r.reasons])
    .sort();

describe('accounts linked by a verified phone', () => {
  it('links a suspended account to its comeback account, by the new account’s ad or its verified phone', async () => {
    const banned = await makeUser(ctx, { status: 'approved', nickname: 'banned_one' });
    await verifyPhone(banned, '(646) 555-0199');
    const sus = await ctx.app.inject({
      method: 'POST',
      url: '/api/master/update-user-status',
      payload: { userId: banned.id, status: 'suspended' },
      headers: { cookie: master.cookie },
    });
    expect(sus.statusCode, sus.body).toBe(200);
    const viaAd = await makeUser(ctx, { nickname: 'fresh_ad' });
    await postAd(ctx, viaAd, await placeIn(ctx, 'ny'), { phone: '646-555-0199' });
    expect(await related(viaAd)).toEqual([['banned_one', ['phone']]]);
    const viaSms = await makeUser(ctx, { nickname: 'fresh_sms' });
    await verifyPhone(viaSms, '6465550199');
    expect(await related(viaSms)).toEqual([
      ['banned_one', ['phone']],
      ['fresh_ad', ['phone']],
    ]);
    expect(await related(banned)).toEqual([
      ['fresh_ad', ['phone']],
      ['fresh_sms', ['phone']],
    ]);
    // Another number verified, or none, links nobody.
    const other = await makeUser(ctx, { nickname: 'someone_else' });
    await verifyPhone(other, '(646) 555-0100');
    expect(await related(other)).toEqual([]);
  });

  it('refuses an admin approving the ad of their second account that verified the admin’s number (409 ad.review_own_ad)', async () => {
    const admin = await asAdmin(ctx);
    await verifyPhone(admin, '(917) 555-0123');
    const sock = await makeUser(ctx, { status: 'approved', nickname: 'admins_sock' });
    await verifyPhone(sock, '917-555-0123');
    const sockAd = await postAd(ctx, sock, await placeIn(ctx, 'ny'), { phone: '(917) 555-0444' });
    expect((await pay(ctx, sock, sockAd.id, await fundedUsd(ctx, sock, 1500))).statusCode).toBe(200);
    const review = await decide(ctx, admin, [sockAd.id], 'approve');
    expect([review.statusCode, review.json().code]).toEqual([409, 'ad.review_own_ad']);
    expect([...(await accountsLinkedTo(ctx.app.deps.db, admin.id))]).toEqual([sock.id]);
    // Another admin may.
    expect((await decide(ctx, await asAdmin(ctx), [sockAd.id], 'approve')).json()).toEqual({ updated: 1 });
  });

  it('reads ads by ads_phone and ads_owner and verified phones by users_verified_phone: no scan of ads or users', async () => {
    const u = await makeUser(ctx);
    await verifyPhone(u, '(212) 555-0161');
    await postAd(ctx, u, await placeIn(ctx, 'ny'), { phone: '(212) 555-0162' });
    const sqlite = ctx.app.deps.database.sqlite;
    const statements: CompiledQuery[] = [];
    // Never destroyed: that would close the app's connection.
    const db = new Kysely<DB>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (e) => {
        if (e.level === 'query') statements.push(e.query);
      },
    });
    await relatedAccounts(db, u.id, 50);
    await accountsLinkedTo(db, u.id);
    // The duplicate check's phone leg (a new ad's phone among ads' and verified phones) alike.
    await fingerprintAd(db, { adId: 'new', ownerId: (await makeUser(ctx)).id, phone: '+12125550161', hashes: [] });
    expect(statements).toHaveLength(3);
    for (const q of statements) {
      const plan = (sqlite.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.parameters) as { detail: string }[]).map((r) => r.detail);
      expect(
        plan.filter((d) => /^SCAN (ads|held_ads|duplicate_flags|a|h)\b/.test(d)),
        JSON.stringify(plan),
      ).toEqual([]);
      expect(
        plan.filter((d) => /^SCAN (users|u)\b/.test(d)),
        JSON.stringify(plan),
      ).toEqual([]);
      expect(
        plan.some((d) => d.includes('INDEX users_verified_phone')),
        JSON.stringify(plan),
      ).toBe(true);
      expect(
        plan.some((d) => d.includes('INDEX ads_phone')),
        JSON.stringify(plan),
      ).toBe(true);
    }
  });
});
