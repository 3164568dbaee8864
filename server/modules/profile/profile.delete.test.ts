import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, asMaster, makeUser, type TestContext } from '../../test/harness.ts';
import { multipart, png } from '../uploads/test-images.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const del = (cookie: string, query: string, payload: unknown) =>
  ctx.app.inject({ method: 'DELETE', url: `/api/delete-my-profile${query}`, payload: payload as object, headers: { cookie } });
const userRow = (id: string) => ctx.app.deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A minimal ad row of `ownerId` whose photos name `files` (relative upload paths). */
async function insertAd(id: string, ownerId: string, files: string[]) {
  const db = ctx.app.deps.db;
  const city = await db.selectFrom('cities').select(['id', 'state_id']).limit(1).executeTakeFirstOrThrow();
  const now = ctx.clock.now().toISOString();
  await db
    .insertInto('ads')
    .values({
      id,
      owner_id: ownerId,
      listing_type: 'female_esc',
      title: 'A title long enough',
      description: 'd'.repeat(60),
      age: '30',
      state_id: city.state_id,
      city_id: city.id,
      phone: '+12025550143',
      photos_json: JSON.stringify(files.map((f) => ({ url: `/uploads/${f}`, width: 10, height: 10 }))),
      created_at: now,
      updated_at: now,
    })
    .execute();
}

describe('DELETE /api/delete-my-profile', () => {
  it('erases personal data and ads, keeps wallets and ledger, ends the session', async () => {
    const u = await makeUser(ctx, { nickname: 'to_be_gone', roles: ['ADMIN_USER'] });
    const other = await makeUser(ctx);
    const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', data: await png() }]);
    const av = await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: u.cookie } });
    const avatarFile = path.join(ctx.dataDir, av.json().avatar);
    expect(fs.existsSync(avatarFile)).toBe(true);
    await ctx.app.deps.db.updateTable('users').set({ phone: '+12025550143' }).where('id', '=', u.id).execute();
    const wallet = await ctx.app.deps.db.selectFrom('wallets').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    await ctx.app.deps.db
      .insertInto('ledger_entries')
      .values({ wallet_id: wallet.id, amount_cents: 500, kind: 'test', idempotency_key: 'k1', created_at: 'x' })
      .execute();

    const photoDir = path.join(ctx.dataDir, 'uploads', 'ads');
    fs.mkdirSync(photoDir, { recursive: true });
    for (const f of ['p1.webp', 'p1-thumb.webp', 'p2.webp']) fs.writeFileSync(path.join(photoDir, f), 'x');
    await insertAd('ad-mine', u.id, ['ads/p1.webp', 'ads/p1-thumb.webp']);
    await insertAd('ad-other', other.id, ['ads/p2.webp']);

    const res = await del(u.cookie, '?confirm=true', { password: u.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ isAuthenticated: false, userRoles: ['GUEST_USER'] });
    expect(res.cookies.find((c) => c.name === 'XG.TOKEN')?.value).toBe('');

    const row = await userRow(u.id);
    expect(row).toMatchObject({
      email: `deleted-${u.id}@deleted.invalid`,
      nickname: 'deleted',
      avatar: null,
      phone: null,
      deleted_at: '2026-01-15T12:00:00.000Z',
    });
    expect(await ctx.app.deps.db.selectFrom('user_roles').selectAll().where('user_id', '=', u.id).execute()).toEqual([]);
    expect(fs.existsSync(avatarFile)).toBe(false);
    expect(fs.readdirSync(photoDir)).toEqual(['p2.webp']);
    expect(await ctx.app.deps.db.selectFrom('ads').select('id').execute()).toEqual([{ id: 'ad-other' }]);
    // Money history stays.
    expect(await ctx.app.deps.db.selectFrom('wallets').select('id').where('user_id', '=', u.id).execute()).toEqual([{ id: wallet.id }]);
    expect(await ctx.app.deps.db.selectFrom('ledger_entries').select('amount_cents').where('wallet_id', '=', wallet.id).execute()).toEqual([
      { amount_cents: 500 },
    ]);
    // Gone for every purpose: old cookie, sign-in, and the e-mail is free again.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/user-profile', headers: { cookie: u.cookie } })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password: u.password } })).statusCode).toBe(401);
    const again = await ctx.app.inject({ method: 'POST', url: '/api/register', payload: { email: u.email, password: 'another long pw', nickname: 'again' } });
    expect(again.statusCode).toBe(201);
  });

  it('refuses without confirm=true or with a wrong password, and changes nothing', async () => {
    const u = await makeUser(ctx);
    const before = await userRow(u.id);
    const cases = [
      ['', { password: u.password }, 'validation.required', 'confirm', /confirm/],
      ['?confirm=false', { password: u.password }, 'profile.confirm_required', 'confirm', /confirm/],
      ['?confirm=maybe', { password: u.password }, 'validation.invalid', 'confirm', /confirm/],
      ['?confirm=true', { password: 'wrong password!' }, 'profile.wrong_password', 'password', /password is wrong/],
      ['?confirm=true', {}, 'validation.required', 'password', /password/],
    ] as const;
    for (const [query, payload, code, field, msg] of cases) {
      const res = await del(u.cookie, query, payload);
      const label = query + JSON.stringify(payload);
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toMatchObject({ code, params: { field } });
      expect(res.json().message).toMatch(msg);
    }
    expect(await userRow(u.id)).toEqual(before);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/user-profile', headers: { cookie: u.cookie } })).statusCode).toBe(200);
  });

  it('the last master cannot delete themselves; with a second master they can', async () => {
    const m = await asMaster(ctx);
    const res = await del(m.cookie, '?confirm=true', { password: m.password });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'profile.last_master',
      message: 'You are the last master: make another user a master before deleting your profile.',
    });
    expect((await userRow(m.id)).deleted_at).toBeNull();
    await asMaster(ctx);
    expect((await del(m.cookie, '?confirm=true', { password: m.password })).statusCode).toBe(200);
  });
});
