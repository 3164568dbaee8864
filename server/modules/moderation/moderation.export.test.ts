import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, rawInject, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, fundedUsd, goodFields, jpegWithGps, liveAd, pay, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';
import { photoPaths } from './moderation.holds.ts';
import { postAs, readZip } from './moderation.testkit.ts';

let ctx: TestContext;
let admin: TestUser;
let place: Place;
beforeEach(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://xg.example' } });
  admin = await asAdmin(ctx);
  place = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

const db = () => ctx.app.deps.db;
const exportOf = (id: string, who = admin) => ctx.app.inject({ method: 'GET', url: `/api/admin/export-evidence/${id}`, headers: { cookie: who.cookie } });
const jsonIn = (files: Map<string, Buffer>, name: string) => JSON.parse(files.get(name)!.toString('utf8'));

describe('GET /api/admin/export-evidence/:id', () => {
  it('writes one ZIP with every part of an account, audited with the file’s SHA-256', async () => {
    const owner = await makeUser(ctx, { status: 'approved', nickname: 'exported' });
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: owner.email, password: owner.password }, remoteAddress: '203.0.113.50' }))
        .statusCode,
    ).toBe(200);
    const live = await liveAd(ctx, owner, admin, place);
    const cart = await postAd(ctx, owner, place, { title: 'Cart advert that gets deleted' });
    const invoice = await postAs(ctx, owner, '/api/create-btc-payment-invoice', { amount: '40.00' });
    expect(invoice.status).toBe(200);
    const report = await ctx.app.inject({
      method: 'POST',
      url: `/api/report-ad/${live.id}`,
      payload: { message: 'Please look at this advert.', contact: 'tipster@example.com' },
    });
    expect((await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'user', targetId: owner.id, reason: 'Grand jury subpoena' })).status).toBe(
      201,
    );
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${cart.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    ctx.clock.advance(60_000);

    const res = await exportOf(owner.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="evidence-user-${owner.id}-20260115T120100Z.zip"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const zip = res.rawPayload;
    const files = readZip(zip);
    const livePhotos = photoPaths((await db().selectFrom('ads').select('photos_json').where('id', '=', live.id).executeTakeFirstOrThrow()).photos_json);
    const cartPhotos = photoPaths((await db().selectFrom('held_ads').select('photos_json').where('id', '=', cart.id).executeTakeFirstOrThrow()).photos_json);
    const photoName = (adId: string, n: number, p: string) => `ads/${adId}/photos/${String(n).padStart(2, '0')}-${p.split('/').pop()}`;
    expect([...files.keys()].sort()).toEqual(
      [
        'README.txt',
        'manifest.json',
        'account.json',
        'identity-history.json',
        `ads/${live.id}/versions.json`,
        ...livePhotos.map((p, i) => photoName(live.id, i + 1, p)),
        `ads/${cart.id}/versions.json`,
        ...cartPhotos.map((p, i) => photoName(cart.id, i + 1, p)),
        'ledger.json',
        'invoices.json',
        'sign-ins.json',
        'reports.json',
        'audit.json',
        'holds.json',
        'screening.json',
        'duplicates.json',
      ].sort(),
    );
    // The photos as stored, byte for byte.
    for (const [i, p] of livePhotos.entries())
      expect(files.get(photoName(live.id, i + 1, p))!.equals(fs.readFileSync(path.join(ctx.dataDir, 'uploads', p)))).toBe(true);
    // Each part holds what the database holds.
    const account = jsonIn(files, 'account.json');
    expect(account).toMatchObject({ id: owner.id, email: owner.email, nickname: 'exported', roles: ['PROVIDER_USER'] });
    expect('password_hash' in account).toBe(false);
    expect(JSON.stringify([...files.values()].map((b) => b.toString('latin1')))).not.toContain('$argon2');
    const versions = jsonIn(files, `ads/${live.id}/versions.json`);
    const storedOf = async (adId: string) =>
      (await db().selectFrom('ad_versions').select(['source', 'created_at', 'fields_json']).where('ad_id', '=', adId).orderBy('id').execute()).map((v) => ({
        version: 'stored',
        source: v.source,
        at: v.created_at,
        fields: JSON.parse(v.fields_json),
      }));
    expect(versions).toEqual([
      ...(await storedOf(live.id)),
      {
        version: 'current',
        status: 'approved',
        at: expect.any(String),
        row: await db().selectFrom('ads').selectAll().where('id', '=', live.id).executeTakeFirstOrThrow(),
      },
    ]);
    expect(jsonIn(files, `ads/${cart.id}/versions.json`)).toEqual([
      ...(await storedOf(cart.id)),
      {
        version: 'deleted',
        status: 'deleted',
        at: '2026-01-15T12:00:00.000Z',
        deletedBy: 'cart_deletion',
        row: expect.objectContaining({ id: cart.id, status: 'unpaid' }),
      },
    ]);
    const ledger = jsonIn(files, 'ledger.json');
    expect(ledger.entries.map((e: { kind: string; amount_cents: number }) => [e.kind, e.amount_cents])).toEqual([
      ['adjustment', 1500],
      ['ad_payment', -1500],
    ]);
    expect(ledger.wallets.map((w: { wallet_type: string }) => w.wallet_type)).toEqual(['USD']);
    expect(jsonIn(files, 'invoices.json').map((i: { btcpay_id: string; amount_cents: number }) => [i.btcpay_id, i.amount_cents])).toEqual([
      [invoice.body.invoiceId, 4000],
    ]);
    expect(jsonIn(files, 'sign-ins.json').map((s: { ip: string; success: number }) => [s.ip, s.success])).toEqual([
      [expect.stringMatching(/^10\./), 1], // registering (from the harness's address)
      ['203.0.113.50', 1],
    ]);
    expect(jsonIn(files, 'reports.json').map((r: { id: string; contact: string }) => [r.id, r.contact])).toEqual([[report.json().id, 'tipster@example.com']]);
    expect(jsonIn(files, 'audit.json').map((a: { action: string }) => a.action)).toEqual(['ad.approve', 'legal_hold.place']);
    expect(jsonIn(files, 'holds.json').map((h: { reason: string }) => h.reason)).toEqual(['Grand jury subpoena']);
    const manifest = jsonIn(files, 'manifest.json');
    expect(manifest).toMatchObject({
      subject: { type: 'user', id: owner.id, userId: owner.id },
      exportedAt: '2026-01-15T12:01:00.000Z',
      exportedBy: { id: admin.id, email: admin.email },
      missingPhotos: [],
    });
    for (const f of manifest.files as { name: string; bytes: number; sha256: string }[]) {
      expect([f.bytes, f.sha256], f.name).toEqual([files.get(f.name)!.length, createHash('sha256').update(files.get(f.name)!).digest('hex')]);
    }
    expect(manifest.files).toHaveLength(files.size - 2); // all but the README and the manifest itself
    expect(files.get('README.txt')!.toString()).toContain(`Exported 2026-01-15T12:01:00.000Z by ${admin.email}`);

    // Audited: who, about whom, which file (its SHA-256 is the answer's).
    const audit = await db().selectFrom('audit_log').selectAll().where('action', '=', 'evidence.export').execute();
    expect(audit.map((a) => [a.actor_id, a.target_type, a.target_id])).toEqual([[admin.id, 'user', owner.id]]);
    expect(JSON.parse(audit[0].after_json!)).toEqual({
      fileName: `evidence-user-${owner.id}-20260115T120100Z.zip`,
      bytes: zip.length,
      sha256: createHash('sha256').update(zip).digest('hex'),
      files: files.size,
      userId: owner.id,
    });
  });

  it('exports one ad with its owner’s account record; refuses oneself, strangers, unknown ids and other sites', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const a = await liveAd(ctx, owner, admin, place);
    const b = await postAd(ctx, owner, place);
    const res = await exportOf(a.id);
    expect(res.statusCode).toBe(200);
    const files = readZip(res.rawPayload);
    expect([...files.keys()].filter((n) => n.startsWith('ads/') && n.endsWith('versions.json'))).toEqual([`ads/${a.id}/versions.json`]);
    expect(jsonIn(files, 'manifest.json').subject).toEqual({ type: 'ad', id: a.id, userId: owner.id });
    expect(jsonIn(files, 'account.json').id).toBe(owner.id);
    expect(res.headers['content-disposition']).toContain(`evidence-ad-${a.id}-`);
    void b;

    const count = async () => (await db().selectFrom('audit_log').select('id').where('action', '=', 'evidence.export').execute()).length;
    expect(await count()).toBe(1);
    expect((await exportOf(admin.id)).json()).toMatchObject({ code: 'moderation.own_record' });
    expect((await exportOf('nosuchthing')).json()).toMatchObject({ code: 'moderation.subject_not_found' });
    expect((await exportOf(owner.id, owner)).statusCode).toBe(403);
    const crossSite = await rawInject(ctx.app, {
      method: 'GET',
      url: `/api/admin/export-evidence/${owner.id}`,
      headers: { cookie: admin.cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
    const head = await ctx.app.inject({ method: 'HEAD', url: `/api/admin/export-evidence/${owner.id}`, headers: { cookie: admin.cookie } });
    expect(head.statusCode).toBe(405);
    expect(await count()).toBe(1);
  });

  it('holds every version of an ad: as first posted, edits of the live ad whatever became of them, their photos; and how staff closed its reports', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = (await postAd(ctx, owner, place, { title: 'ORIGINAL posted title here' })) as unknown as { id: string; photos: { url: string }[] };
    const keep = JSON.stringify(ad.photos.map((p) => p.url));
    const edit = (title: string, photos: Buffer[] = []) =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/ads/${ad.id}`,
        headers: { cookie: owner.cookie },
        payload: adForm({ ...goodFields(place, { title }), keepPhotos: keep }, photos),
      });
    expect((await edit('Harmless replacement title')).statusCode).toBe(200); // in place: the cart
    expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    expect((await decide(ctx, admin, [ad.id], 'approve')).json()).toEqual({ updated: 1 });
    const rejected = await edit('REJECTED edit of the live ad', [await jpegWithGps()]);
    expect((await decide(ctx, admin, [rejected.json().ad.revision.id], 'reject', 'Not acceptable')).json()).toEqual({ updated: 1 });
    expect((await edit('PENDING edit under review', [await jpegWithGps()])).statusCode).toBe(200);
    const report = await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${ad.id}`, payload: { message: 'This advert looks wrong to me.' } });
    expect((await postAs(ctx, admin, '/api/admin/set-report-status', { id: report.json().id, status: 'closed', note: 'Escalated, case 12345' })).status).toBe(
      200,
    );

    for (const subject of [ad.id, owner.id]) {
      const files = readZip((await exportOf(subject)).rawPayload);
      const versions = jsonIn(files, `ads/${ad.id}/versions.json`) as {
        version: string;
        source?: string;
        status?: string;
        fields?: { title: string };
        row?: { title: string };
      }[];
      expect(versions.map((v) => [v.version, v.source ?? v.status, (v.fields ?? v.row)!.title])).toEqual([
        ['stored', 'posted', 'ORIGINAL posted title here'],
        ['stored', 'edited', 'Harmless replacement title'],
        ['edit', 'rejected', 'REJECTED edit of the live ad'],
        ['edit', 'pending', 'PENDING edit under review'],
        ['current', 'approved', 'Harmless replacement title'],
      ]);
      // The pending edit's new photo is exported with the ad's (the rejected edit's was removed with its rejection).
      const pendingPhotos = photoPaths(
        (await db().selectFrom('ad_revisions').select('photos_json').where('ad_id', '=', ad.id).where('status', '=', 'pending').executeTakeFirstOrThrow())
          .photos_json,
      ).filter((p) => !JSON.stringify(ad.photos).includes(p.split('/').pop()!));
      expect(pendingPhotos).toHaveLength(2); // large and thumbnail
      const exported = [...files.keys()].filter((n) => n.startsWith(`ads/${ad.id}/photos/`)).map((n) => n.split('/').pop()!.replace(/^\d+-/, ''));
      for (const p of pendingPhotos) expect(exported).toContain(p.split('/').pop());
      expect(jsonIn(files, 'manifest.json').missingPhotos).toEqual([]);
      // The report's closing note is a staff action on the account's ad.
      expect(JSON.stringify(jsonIn(files, 'audit.json'))).toContain('Escalated, case 12345');
    }
  });
});
