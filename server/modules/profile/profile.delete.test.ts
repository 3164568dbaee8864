import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, asAdmin, asMaster, cookieOf, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { imageQueue } from '../../core/images.ts';
import { runJob } from '../cron/cron.service.ts';
import { findJob } from '../cron/cron.jobs.ts';
import { multipart, png } from '../uploads/test-images.ts';
import { adForm, decide, fundedUsd, goodFields, jpegWithGps, liveAd, pay, placeIn, postAd } from '../ads/ads.testkit.ts';
import { holdsInForce } from '../moderation/moderation.testkit.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await ctx.close();
});

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

describe('DELETE /api/delete-my-profile while the account is busy', () => {
  const bigJpeg = () =>
    sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#a55' } })
      .jpeg()
      .toBuffer();
  /** Starts `first`, waits until its picture is being encoded, then deletes the account. */
  async function deletedWhileEncoding<T>(u: TestUser, first: () => Promise<T>): Promise<T> {
    const q = imageQueue(ctx.app.deps);
    const before = q.started;
    const running = first();
    while (q.started === before) await new Promise((r) => setTimeout(r, 1));
    expect((await del(u.cookie, '?confirm=true', { password: u.password })).statusCode).toBe(200);
    return running;
  }
  const filesIn = (dir: string) => (fs.existsSync(path.join(ctx.dataDir, 'uploads', dir)) ? fs.readdirSync(path.join(ctx.dataDir, 'uploads', dir)) : []);

  it('an avatar being uploaded does not land on the erased account: 401 (its session ended), no picture kept', async () => {
    const u = await makeUser(ctx);
    const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.jpg', data: await bigJpeg() }]);
    const res = await deletedWhileEncoding(u, () =>
      ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: u.cookie } }),
    );
    expect(res.statusCode).toBe(401); // as a post racing the deletion is
    expect((await userRow(u.id)).avatar).toBeNull();
    expect(filesIn('avatars')).toEqual([]);
  });

  it('an ad being posted is not created for the erased account: 401, its photos go', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    const ny = await placeIn(ctx, 'ny');
    const photo = await bigJpeg();
    const res = await deletedWhileEncoding(u, () =>
      ctx.app.inject({ method: 'POST', url: '/api/post-ad', headers: { cookie: u.cookie }, payload: adForm(goodFields(ny), [photo]) }),
    );
    expect(res.statusCode).toBe(401);
    expect(await ctx.app.deps.db.selectFrom('ads').select('id').where('owner_id', '=', u.id).execute()).toEqual([]);
    expect(filesIn('ads')).toEqual([]);
  });

  it('two avatar uploads at once: the picture that lost is removed, not left behind', async () => {
    const u = await makeUser(ctx);
    const upload = async () => {
      const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.jpg', data: await bigJpeg() }]);
      return ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: u.cookie } });
    };
    const answers = await Promise.all([upload(), upload()]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const avatar = (await userRow(u.id)).avatar!;
    expect(filesIn('avatars')).toEqual([path.basename(avatar)]);
  });
});

describe('DELETE /api/delete-my-profile and the phone', () => {
  it('erases the numbers the account verified or tried: no phone code left, the SMS log keeps the delivery without the number or the account', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    const asked = await ctx.app.inject({ method: 'POST', url: '/api/phone-verification', payload: { phone: '(212) 555-0199' }, headers: { cookie: u.cookie } });
    expect(asked.statusCode).toBe(202);
    const outbox = path.join(ctx.dataDir, 'outbox');
    const text = fs.readFileSync(
      path.join(
        outbox,
        fs.readdirSync(outbox).find((f) => f.endsWith('.sms.txt'))!,
      ),
      'utf8',
    );
    const code = /\b(\d{6})\b/.exec(text)![1];
    const ok = await ctx.app.inject({ method: 'POST', url: '/api/phone-verification/confirm', payload: { code }, headers: { cookie: u.cookie } });
    expect(ok.json()).toEqual({ phone: '+12125550199', phoneVerified: true });
    const other = await makeUser(ctx, { status: 'approved' });
    await ctx.app.inject({ method: 'POST', url: '/api/phone-verification', payload: { phone: '(212) 555-0188' }, headers: { cookie: other.cookie } });

    expect((await del(u.cookie, '?confirm=true', { password: u.password })).statusCode).toBe(200);
    const db = ctx.app.deps.db;
    expect(await db.selectFrom('phone_codes').select('phone').where('user_id', '=', u.id).execute()).toEqual([]);
    const log = await db.selectFrom('sms_messages').select(['user_id', 'to_phone']).orderBy('id').execute();
    expect(log).toEqual([
      { user_id: null, to_phone: '•••99' },
      { user_id: other.id, to_phone: '+12125550188' },
    ]);
    expect(await db.selectFrom('phone_codes').select('phone').where('user_id', '=', other.id).execute()).toEqual([{ phone: '+12125550188' }]);
  });
});

describe('DELETE /api/delete-my-profile with an edit waiting for review', () => {
  const queue = async (staff: TestUser, q = '') =>
    (await ctx.app.inject({ method: 'GET', url: `/api/admin/get-pending-ads${q}`, headers: { cookie: staff.cookie } })).json() as {
      total: number;
      pendingAds: { id: string }[];
    };
  const revisionRow = (id: string) => ctx.app.deps.db.selectFrom('ad_revisions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const uploadFile = (p: string) => path.join(ctx.dataDir, 'uploads', p);
  const holdAction = (staff: TestUser, action: 'place-legal-hold' | 'release-legal-hold', payload: object) =>
    ctx.app.inject({ method: 'POST', url: `/api/admin/${action}`, headers: { cookie: staff.cookie }, payload });
  const versions = (ownerId: string) => ctx.app.deps.db.selectFrom('ad_versions').select('fields_json').where('owner_id', '=', ownerId).orderBy('id').execute();

  /**
   * A live ad of one provider with an edit (a new photo) waiting for review, and another
   * provider's paid ad waiting behind it; then the first provider deletes their profile.
   */
  async function editThenDelete(opts: { hold?: boolean } = {}) {
    const owner = await makeUser(ctx, { status: 'approved' });
    const other = await makeUser(ctx, { status: 'approved' });
    const admin = await asAdmin(ctx);
    const ny = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, admin, ny);
    const photo = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#35a' } })
      .jpeg()
      .toBuffer();
    const edited = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm({ ...goodFields(ny, { title: 'Elegant companion, new photos' }), keepPhotos: '[]' }, [photo]),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const revisionId = edited.json().ad.revision.id as string;
    const editFiles = (JSON.parse((await revisionRow(revisionId)).photos_json) as { path: string; thumbPath: string }[]).flatMap((p) => [
      uploadFile(p.path),
      uploadFile(p.thumbPath),
    ]);
    expect(editFiles.map((f) => fs.existsSync(f))).toEqual([true, true]);
    const waiting = await postAd(ctx, other, ny);
    expect((await pay(ctx, other, waiting.id, await fundedUsd(ctx, other, 5000))).statusCode).toBe(200);
    if (opts.hold) {
      const held = await holdAction(admin, 'place-legal-hold', { targetType: 'user', targetId: owner.id, reason: 'Preservation request 2026-014' });
      expect(held.statusCode, held.body).toBe(201);
    }
    const res = await del(owner.cookie, '?confirm=true', { password: owner.password });
    expect(res.statusCode, res.body).toBe(200);
    return { owner, admin, ad, revisionId, editFiles, waiting };
  }

  for (const decision of ['approve', 'reject'] as const) {
    it(`closes the edit and erases it; the queue neither counts nor offers it, and a batch naming it can ${decision} the rest`, async () => {
      const { owner, admin, revisionId, editFiles, waiting } = await editThenDelete();
      const q = await queue(admin);
      const page2 = await queue(admin, '?pageSize=1&page=2');
      const batch = await decide(ctx, admin, [revisionId, waiting.id], decision, decision === 'reject' ? 'Photos do not match' : undefined);
      expect({ total: q.total, ids: q.pendingAds.map((a) => a.id), page2: page2.pendingAds.map((a) => a.id), batch: batch.statusCode }).toEqual({
        total: 1,
        ids: [waiting.id],
        page2: [],
        batch: 200,
      });
      expect(batch.json()).toEqual({ updated: 1 });
      expect((await ctx.app.deps.db.selectFrom('ads').select('status').where('id', '=', waiting.id).executeTakeFirstOrThrow()).status).toBe(
        decision === 'approve' ? 'approved' : 'rejected',
      );
      // Closed as deleting the ad closes it, with nothing of the deleted account left in it, its photo files gone.
      expect(await revisionRow(revisionId)).toMatchObject({
        status: 'superseded',
        decided_at: '2026-01-15T12:00:00.000Z',
        title: '',
        description: '',
        phone: '',
        photos_json: '[]',
      });
      expect(editFiles.map((f) => fs.existsSync(f))).toEqual([false, false]);
      // So are its stored versions (their text and phone).
      expect((await versions(owner.id)).map((v) => v.fields_json)).toEqual(['{}']);
      const audit = await ctx.app.deps.db.selectFrom('audit_log').select(['action', 'target_id']).where('action', 'like', 'ad.revision%').execute();
      expect(audit).toEqual([]);
    });
  }

  it('under a legal hold keeps the edit as it was, closed: the queue is still right and a batch naming it still works', async () => {
    const { owner, admin, ad, revisionId, editFiles, waiting } = await editThenDelete({ hold: true });
    const q = await queue(admin);
    expect({ total: q.total, ids: q.pendingAds.map((a) => a.id) }).toEqual({ total: 1, ids: [waiting.id] });
    expect((await queue(admin, '?pageSize=1&page=2')).pendingAds).toEqual([]);
    for (const decision of ['approve', 'reject'] as const) {
      const batch = await decide(ctx, admin, [revisionId], decision, decision === 'reject' ? 'Photos do not match' : undefined);
      expect({ status: batch.statusCode, body: batch.json() }).toEqual({ status: 200, body: { updated: 0 } });
    }
    expect((await decide(ctx, admin, [revisionId, waiting.id], 'approve')).json()).toEqual({ updated: 1 });
    const kept = await revisionRow(revisionId);
    expect(kept).toMatchObject({ status: 'superseded', ad_id: ad.id, owner_id: owner.id, title: 'Elegant companion, new photos', phone: '+12125550142' });
    expect(JSON.parse(kept.photos_json)).toHaveLength(1);
    expect(editFiles.map((f) => fs.existsSync(f))).toEqual([true, true]);
    expect((await versions(owner.id)).map((v) => JSON.parse(v.fields_json).title)).toEqual(['Elegant companion downtown']);

    // The release completes the deletion: the edit is erased with the rest of the account.
    const released = await holdAction(admin, 'release-legal-hold', {
      targetType: 'user',
      targetId: owner.id,
      holdIds: await holdsInForce(ctx, 'user', owner.id),
      note: 'Case closed by the requesting agency.',
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(await revisionRow(revisionId)).toMatchObject({ status: 'superseded', title: '', description: '', phone: '', photos_json: '[]' });
    expect((await userRow(owner.id)).email).toBe(`deleted-${owner.id}@deleted.invalid`);
    expect((await versions(owner.id)).map((v) => v.fields_json)).toEqual(['{}']);
  });
});

describe('DELETE /api/delete-my-profile and the audit log', () => {
  const auditRows = () =>
    ctx.app.deps.db.selectFrom('audit_log').select(['action', 'actor_id', 'target_id', 'before_json', 'after_json', 'at']).orderBy('id').execute();
  const editAndDecide = async (
    owner: TestUser,
    admin: TestUser,
    adId: string,
    place: Awaited<ReturnType<typeof placeIn>>,
    title: string,
    decision: 'approve' | 'reject',
  ) => {
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${adId}`,
      headers: { cookie: owner.cookie },
      payload: adForm({ ...goodFields(place, { title }), keepPhotos: '[]' }, [await jpegWithGps()]),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const id = edit.json().ad.revision.id as string;
    expect((await decide(ctx, admin, [id], decision, decision === 'reject' ? 'The photo is not acceptable.' : undefined)).json()).toEqual({ updated: 1 });
    return id;
  };

  it('erases its ad texts from the audit rows about its ads, keeping who did what and when', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const admin = await asAdmin(ctx);
    const place = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, admin, place, { title: 'Original title Ms Example' });
    const approved = await editAndDecide(owner, admin, ad.id, place, 'Edited title Ms Example', 'approve');
    const rejected = await editAndDecide(owner, admin, ad.id, place, 'Refused title Ms Example', 'reject');
    const before = await auditRows();
    expect(JSON.stringify(before)).toContain('Ms Example');

    expect((await del(owner.cookie, '?confirm=true', { password: owner.password })).statusCode).toBe(200);
    const after = await auditRows();
    expect(JSON.stringify(after)).not.toContain('Ms Example');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/get-audit-log?pageSize=100', headers: { cookie: admin.cookie } })).body).not.toContain(
      'Ms Example',
    );
    const json = (v: string | null) => (v === null ? null : JSON.parse(v));
    expect(after.filter((r) => r.action.startsWith('ad.')).map((r) => [r.action, r.actor_id, r.target_id, json(r.before_json), json(r.after_json)])).toEqual([
      ['ad.approve', admin.id, ad.id, { status: 'in_review' }, { status: 'approved', expiresAt: expect.any(String) }],
      ['ad.revision_approve', admin.id, ad.id, { revision: approved }, { revision: approved }],
      [
        'ad.revision_reject',
        admin.id,
        ad.id,
        { revision: rejected },
        { revision: rejected, reason: 'The photo is not acceptable.', category: expect.any(String) },
      ],
    ]);
    expect(after.map((r) => r.at)).toEqual(before.map((r) => r.at));
  });

  it('erases the e-mail of the user.create row of a staff account made by create-user', async () => {
    const admin = await asAdmin(ctx);
    const [email, password] = ['ann.private@example.com', 'a long enough password'];
    await ctx.app.deps.services.auth.createUser({
      email,
      password,
      nickname: 'ann',
      roles: ['ADMIN_USER'],
      status: 'approved',
      audit: { actor: null, action: 'user.create', after: { via: 'create-user script' } },
    });
    const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
    const id = login.json().id as string;
    expect((await del(cookieOf(login), '?confirm=true', { password })).statusCode).toBe(200);
    const page = await ctx.app.inject({ method: 'GET', url: `/api/admin/get-user/${id}`, headers: { cookie: admin.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(email);
    expect(page.json().audit.map((a: { action: string; after: unknown }) => [a.action, a.after])).toEqual([
      ['user.create', { roles: ['PROVIDER_USER', 'ADMIN_USER'], status: 'approved', via: 'create-user script' }],
    ]);
  });

  it('under a legal hold keeps the texts in the audit rows until the release erases the account', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const admin = await asAdmin(ctx);
    const place = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, admin, place, { title: 'Original title Ms Example' });
    await editAndDecide(owner, admin, ad.id, place, 'Edited title Ms Example', 'approve');
    const hold = (action: 'place-legal-hold' | 'release-legal-hold', payload: object) =>
      ctx.app.inject({ method: 'POST', url: `/api/admin/${action}`, headers: { cookie: admin.cookie }, payload });
    expect((await hold('place-legal-hold', { targetType: 'user', targetId: owner.id, reason: 'Preservation request 2026-1' })).statusCode).toBe(201);
    expect((await del(owner.cookie, '?confirm=true', { password: owner.password })).statusCode).toBe(200);
    expect(JSON.stringify(await auditRows())).toContain('Edited title Ms Example');
    expect(
      (
        await hold('release-legal-hold', {
          targetType: 'user',
          targetId: owner.id,
          holdIds: await holdsInForce(ctx, 'user', owner.id),
          note: 'Case closed by the agency.',
        })
      ).statusCode,
    ).toBe(200);
    expect(JSON.stringify(await auditRows())).not.toContain('Ms Example');
  });
});

describe('DELETE /api/delete-my-profile and where the account signed in from', () => {
  it('erases its sign-in records (addresses, browsers) and the address on its refused ad texts; the refused texts stay for staff', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '203.0.113.77',
      headers: { 'user-agent': 'PersonalBrowser/1.0' },
      payload: { email: u.email, password: u.password },
    });
    expect(login.statusCode).toBe(200);
    const place = await placeIn(ctx, 'ny');
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/post-ad',
      remoteAddress: '203.0.113.77',
      headers: { cookie: u.cookie },
      payload: adForm(goodFields(place, { title: 'Sweet teen new in town' }), [await jpegWithGps()]),
    });
    expect(refused.json().code).toBe('ad.screened_wording');
    const db = ctx.app.deps.database.sqlite;
    expect(db.prepare("SELECT count(*) AS n FROM sign_ins WHERE user_id = ? AND ip = '203.0.113.77'").get(u.id)).toEqual({ n: 1 });
    expect(db.prepare('SELECT ip FROM screening_log WHERE user_id = ?').all(u.id)).toEqual([{ ip: '203.0.113.77' }]);

    expect((await del(u.cookie, '?confirm=true', { password: u.password })).statusCode).toBe(200);
    expect(db.prepare('SELECT count(*) AS n FROM sign_ins WHERE user_id = ?').get(u.id)).toEqual({ n: 0 });
    expect(db.prepare('SELECT term, ip FROM screening_log WHERE user_id = ?').all(u.id)).toEqual([{ term: 'teen', ip: null }]);
  });
});

describe('what an erasure leaves in the database file', () => {
  // Deleted rows are overwritten (PRAGMA secure_delete): an erased account's ad text must not stay
  // readable in the file's free pages (`strings xg.sqlite`), nor in every backup copied after.
  it("leaves no trace of the account's ad text in the file once checkpointed", async () => {
    const admin = await asAdmin(ctx);
    const u = await makeUser(ctx, { status: 'approved' });
    const place = await placeIn(ctx, 'ny');
    await liveAd(ctx, u, admin, place, { title: 'Quixotrix companion downtown' });
    await postAd(ctx, u, place, { title: 'Quixotrix second advert here' });
    const sqlite = ctx.app.deps.database.sqlite;
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const inFile = () => fs.readFileSync(path.join(ctx.dataDir, 'xg.sqlite')).toString('latin1').includes('Quixotrix');
    expect(inFile()).toBe(true); // written where the test looks
    expect((await del(u.cookie, '?confirm=true', { password: u.password })).statusCode).toBe(200);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    expect(inFile()).toBe(false);
  });
});

// Without SMTP_URL the app's mailer writes DATA_DIR/outbox/*.eml, which keep live reset links: an
// erasure removes the files addressed to any address the account had (README, Data), and no other.
describe('DELETE /api/delete-my-profile and the outbox', () => {
  beforeEach(async () => {
    await ctx.close();
    ctx = await createTestApp({ mail: 'smtp' }); // no SMTP_URL: the outbox
  });

  const post = (url: string, payload: object, cookie?: string) => ctx.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
  const outboxDir = () => path.join(ctx.dataDir, 'outbox');
  const mailFiles = () => (fs.existsSync(outboxDir()) ? fs.readdirSync(outboxDir()).filter((f) => f.endsWith('.eml')) : []);
  /** The outbox mail addressed to `email` (its To header, as nodemailer writes it: UTF-8). */
  const mailTo = (email: string) => mailFiles().filter((f) => fs.readFileSync(path.join(outboxDir(), f), 'utf8').split('\n').includes(`To: ${email}`));
  /** A reset link mailed to `email`; the mail is written after the answer. */
  async function resetLinkTo(email: string): Promise<string[]> {
    expect((await post('/api/password-reset-request', { email })).statusCode).toBe(202);
    for (let i = 0; i < 50 && !mailTo(email).length; i++) await new Promise((r) => setTimeout(r, 50));
    const files = mailTo(email);
    expect(files.length).toBeGreaterThan(0);
    return files;
  }

  it('removes the mail sent to the address the account had before an e-mail change', async () => {
    const u = await makeUser(ctx);
    const first = u.email;
    await resetLinkTo(first);
    const second = 'second.address@example.com';
    expect((await post('/api/email-reset', { newEmail: second, password: u.password }, u.cookie)).statusCode).toBe(200);
    const confirmMail = mailTo(second)
      .map((f) => fs.readFileSync(path.join(outboxDir(), f), 'utf8'))
      .join('\n')
      .replace(/=\r?\n/g, '') // quoted-printable: soft line breaks, then escapes
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    const token = decodeURIComponent(/confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(confirmMail)![1]);
    expect((await post('/api/confirm-email-reset', { token })).statusCode).toBe(200);
    const cookie = cookieOf(await post('/api/login', { email: second, password: u.password })); // the change ended the session
    for (let i = 0; i < 50 && mailTo(first).length < 2; i++) await new Promise((r) => setTimeout(r, 50)); // "your address was changed"
    expect(mailTo(first).length).toBe(2);
    expect((await del(cookie, '?confirm=true', { password: u.password })).statusCode).toBe(200);
    expect({ second: mailTo(second), first: mailTo(first) }).toEqual({ second: [], first: [] });
  });

  // An e-mail change never confirmed: its confirmation mail went to the address asked for. A
  // password change ends the link, the nightly purge ends one past its week; an erasure after
  // either still removes that mail (the row keeps a digest of the address: forgetAskedAddresses).
  it('removes the mail of an e-mail change never confirmed, ended by a password change or by the purge', async () => {
    const ended = await makeUser(ctx);
    const purged = await makeUser(ctx);
    const ask = async (u: TestUser, to: string) => {
      expect((await post('/api/email-reset', { newEmail: to, password: u.password }, u.cookie)).statusCode).toBe(200);
      for (let i = 0; i < 50 && !mailTo(to).length; i++) await new Promise((r) => setTimeout(r, 50));
      expect(mailTo(to)).toHaveLength(1);
    };
    await ask(ended, 'never.confirmed@example.com');
    await ask(purged, 'asked.once@example.com');
    const newPassword = 'another long passphrase';
    expect((await post('/api/password-update', { currentPassword: ended.password, newPassword }, ended.cookie)).statusCode).toBe(200);
    const cookie = cookieOf(await post('/api/login', { email: ended.email, password: newPassword }));
    ctx.clock.advance(8 * 24 * 60 * 60 * 1000);
    expect((await runJob(ctx.app.deps, findJob('purge-email-changes')!)).outcome).toBe('ok');
    const clear = await ctx.app.deps.db.selectFrom('email_changes').select('new_email').where('new_email', '!=', '').execute();
    expect(clear).toEqual([]); // neither address is kept in the clear
    const cookie2 = cookieOf(await post('/api/login', { email: purged.email, password: purged.password }));
    expect((await del(cookie, '?confirm=true', { password: newPassword })).statusCode).toBe(200);
    expect((await del(cookie2, '?confirm=true', { password: purged.password })).statusCode).toBe(200);
    expect({ ended: mailTo('never.confirmed@example.com'), purged: mailTo('asked.once@example.com') }).toEqual({ ended: [], purged: [] });
  });

  it('removes the mail sent to an address with letters outside ASCII', async () => {
    const email = 'josé.núñez@exämple.com'; // accepted by sign-up (contract/rules.ts EMAIL_RE, NFKC)
    const u = await makeUser(ctx, { email });
    const mailed = await resetLinkTo(email);
    expect((await del(u.cookie, '?confirm=true', { password: u.password })).statusCode).toBe(200);
    expect(mailed.filter((f) => fs.existsSync(path.join(outboxDir(), f)))).toEqual([]);
  });

  it("keeps the mail of another account whose address contains the erased one's", async () => {
    const ann = await makeUser(ctx, { email: 'ann@example.com' });
    const joann = await makeUser(ctx, { email: 'joann@example.com' });
    const annsMail = await resetLinkTo(ann.email);
    const joannsMail = await resetLinkTo(joann.email);
    expect((await del(ann.cookie, '?confirm=true', { password: ann.password })).statusCode).toBe(200);
    expect({ ann: mailTo(ann.email), joann: mailTo(joann.email) }).toEqual({ ann: [], joann: joannsMail });
    expect(annsMail.filter((f) => fs.existsSync(path.join(outboxDir(), f)))).toEqual([]);
  });

  // A file that cannot be removed once the erasure has committed (EIO on a failing disk, a file
  // made immutable): the account is erased and its session ended, so the answer says so, and the
  // rest of the clean-up (the outbox, the ad photos) still runs; the orphan sweep takes the file later.
  it('answers 200 and still clears the outbox when the avatar cannot be removed after the erasure committed', async () => {
    const u = await makeUser(ctx);
    const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', data: await png() }]);
    const av = await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: u.cookie } });
    expect(av.statusCode).toBe(200);
    await resetLinkTo(u.email);
    const rmSync = fs.rmSync;
    vi.spyOn(fs, 'rmSync').mockImplementation((p, o) => {
      if (String(p).includes(`${path.sep}avatars${path.sep}`)) throw Object.assign(new Error(`EIO: i/o error, unlink '${String(p)}'`), { code: 'EIO' });
      return rmSync(p, o);
    });
    const res = await del(u.cookie, '?confirm=true', { password: u.password });
    expect((await userRow(u.id)).deleted_at).not.toBeNull(); // the erasure committed
    expect({ status: res.statusCode, body: res.json(), outbox: mailTo(u.email) }).toEqual({
      status: 200,
      body: expect.objectContaining({ isAuthenticated: false }),
      outbox: [],
    });
    expect(fs.existsSync(path.join(ctx.dataDir, av.json().avatar))).toBe(true); // left for sweep-orphan-uploads
  });
});
