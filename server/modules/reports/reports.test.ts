import { afterEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { liveAd, placeIn } from '../ads/ads.testkit.ts';
import { createReport, hashIp } from './reports.service.ts';

let ctx: TestContext;
afterEach(async () => ctx?.close());

const post = (payload: unknown, ip = '203.0.113.7') => ctx.app.inject({ method: 'POST', url: '/api/reports', payload: payload as object, remoteAddress: ip });
const count = async () =>
  Number(
    (
      await ctx.app.deps.db
        .selectFrom('reports')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/reports', () => {
  it('stores an anonymous trafficking tip with a hashed IP and e-mails staff', async () => {
    ctx = await createTestApp({ env: { STAFF_EMAIL: 'staff@example.com' } });
    const res = await post({ kind: 'trafficking', message: '  Someone in ad xyz looks underage, please check.  ' });
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    const row = await ctx.app.deps.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'trafficking', status: 'open', contact: null, message: 'Someone in ad xyz looks underage, please check.', ad_id: null });
    expect(row.ip_hash).toBe(hashIp(ctx.config.jwtSecret, '203.0.113.7'));
    expect(row.ip_hash).not.toContain('203.0.113.7');
    expect(ctx.mailer.sent).toHaveLength(1);
    expect(ctx.mailer.sent[0]).toMatchObject({ to: 'staff@example.com' });
    expect(ctx.mailer.sent[0].subject).toMatch(/Trafficking report/);
    expect(ctx.mailer.sent[0].text).toContain('looks underage');
  });

  it('stores without mailing when no staff address is configured, and sets reply-to for contact mail', async () => {
    ctx = await createTestApp();
    expect(ctx.config.staffEmail).toBeNull();
    const res = await post({ kind: 'contact', message: 'How do I change my nickname?', contact: 'ann@example.com' });
    expect(res.statusCode).toBe(201);
    expect(await count()).toBe(1);
    expect(ctx.mailer.sent).toHaveLength(0);
    await ctx.close();
    ctx = await createTestApp({ env: { STAFF_EMAIL: 'staff@example.com' } });
    await post({ kind: 'law_enforcement', message: 'Preservation request for account records, case 42.', contact: 'det@police.example.gov' });
    expect(ctx.mailer.sent[0].replyTo).toBe('det@police.example.gov');
  });

  it('without STAFF_EMAIL, e-mails every staff account; a report about a staff member’s own ad goes to the others only', async () => {
    ctx = await createTestApp();
    expect(ctx.config.staffEmail).toBeNull();
    const [ann, bob] = [await asAdmin(ctx), await asAdmin(ctx)];
    const res = await post({ kind: 'trafficking', message: 'The woman in this ad looks scared and someone else answers her phone.' });
    expect(res.statusCode).toBe(201);
    expect(ctx.mailer.sent.map((m) => m.to).sort()).toEqual([ann.email, bob.email].sort());
    expect(ctx.mailer.sent[0].subject).toMatch(/URGENT Trafficking report/);
    const ad = await liveAd(ctx, ann, bob, await placeIn(ctx, 'ny'));
    ctx.mailer.sent.length = 0;
    const about = await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${ad.id}`, payload: { message: 'This advert of a staff member looks wrong.' } });
    expect(about.statusCode).toBe(201);
    expect(ctx.mailer.sent.filter((m) => m.subject.includes('Ad report')).map((m) => m.to)).toEqual([bob.email]);
  });

  it('refuses bad input with a code naming the field and stores nothing', async () => {
    ctx = await createTestApp();
    const cases: Array<[unknown, { code: string; params: Record<string, unknown> }]> = [
      [
        { kind: 'trafficking', message: 'short' },
        { code: 'reports.message_too_short', params: { field: 'message', min: 10 } },
      ],
      [
        { kind: 'trafficking', message: '    short msg      ' },
        { code: 'reports.message_too_short', params: { field: 'message', min: 10 } },
      ],
      // Zero-width and other invisible characters say nothing: counted as stored, without them.
      [
        { kind: 'trafficking', message: '\u200b\u2060\u200d'.repeat(14) },
        { code: 'reports.message_too_short', params: { field: 'message', min: 10 } },
      ],
      [
        { kind: 'trafficking', message: 'x'.repeat(5001) },
        { code: 'reports.message_too_long', params: { field: 'message', max: 5000 } },
      ],
      [
        { kind: 'trafficking', message: 'x'.repeat(6001) },
        { code: 'validation.invalid', params: { field: 'message' } },
      ],
      [{ message: 'long enough message here' }, { code: 'validation.required', params: { field: 'kind' } }],
      [
        { kind: 'ad', message: 'long enough message here' },
        { code: 'validation.invalid', params: { field: 'kind' } },
      ],
      [
        { kind: 'trafficking', message: 'long enough message here', contact: 'x'.repeat(255) },
        { code: 'reports.contact_too_long', params: { field: 'contact', max: 254 } },
      ],
      [
        { kind: 'contact', message: 'long enough message here' },
        { code: 'reports.contact_email_required', params: { field: 'contact' } },
      ],
      [
        { kind: 'law_enforcement', message: 'long enough message here', contact: 'not an email' },
        { code: 'reports.contact_email_required', params: { field: 'contact' } },
      ],
      [
        { kind: 'trafficking', message: 'long enough message here', adId: 'BAD ID!' },
        { code: 'validation.invalid', params: { field: 'adId' } },
      ],
      [
        { kind: 'trafficking', message: 'long enough message here', extra: 1 },
        { code: 'validation.unknown_field', params: { field: 'extra' } },
      ],
    ];
    for (const [payload, want] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject(want);
    }
    expect((await post({ kind: 'trafficking', message: 'short' })).json().message).toBe('Message must be at least 10 characters.');
    expect(await count()).toBe(0);
  });

  it('allows 10 reports per hour per IP; bad input does not count; the window resets', async () => {
    ctx = await createTestApp({ limits: { reportsPerHour: 10 } });
    const ok = { kind: 'trafficking', message: 'A tip about a suspicious ad.' };
    await post({ kind: 'trafficking', message: 'short' });
    for (let i = 0; i < 10; i++) expect((await post(ok)).statusCode).toBe(201);
    const over = await post(ok);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ code: 'reports.too_many', message: 'Too many reports from your address. Please try again in an hour.' });
    expect((await post(ok, '198.51.100.1')).statusCode).toBe(201); // another address is not affected
    expect(await count()).toBe(11);
    ctx.clock.advance(60 * 60 * 1000 + 1);
    expect((await post(ok)).statusCode).toBe(201);
  });
});

describe('staff: get-reports and set-report-status', () => {
  it('lists newest first with filters and pagination', async () => {
    ctx = await createTestApp();
    const admin = await asAdmin(ctx);
    await post({ kind: 'trafficking', message: 'First report message.' });
    ctx.clock.advance(1000);
    await post({ kind: 'contact', message: 'Second report message.', contact: 'a@example.com' });
    ctx.clock.advance(1000);
    await post({ kind: 'trafficking', message: 'Third report message.' });
    const get = (qs: string) => ctx.app.inject({ method: 'GET', url: `/api/admin/get-reports${qs}`, headers: { cookie: admin.cookie } });
    const all = (await get('')).json();
    expect(all.total).toBe(3);
    // Open trafficking tips are urgent: first, newest first; then the rest, newest first.
    expect(all.reports.map((r: { message: string; urgent: boolean }) => [r.message, r.urgent])).toEqual([
      ['Third report message.', true],
      ['First report message.', true],
      ['Second report message.', false],
    ]);
    const traf = (await get('?kind=trafficking&pageSize=1&page=2')).json();
    expect(traf.total).toBe(2);
    expect(traf.reports.map((r: { message: string }) => r.message)).toEqual(['First report message.']);
    expect((await get('?status=closed')).json()).toMatchObject({ reports: [], total: 0 });
    const bad = await get('?status=done');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation.invalid', params: { field: 'status' } });
  });

  it('closes and reopens a report, audited; unknown ids are 404; providers and guests are refused', async () => {
    ctx = await createTestApp();
    const admin = await asAdmin(ctx);
    const { id } = (await post({ kind: 'trafficking', message: 'Report to be closed.' })).json();
    const set = (body: unknown, cookie = admin.cookie) =>
      ctx.app.inject({ method: 'POST', url: '/api/admin/set-report-status', headers: { cookie }, payload: body as object });
    const closed = await set({ id, status: 'closed' });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().report).toMatchObject({ id, status: 'closed' });
    const audit = await ctx.app.deps.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'report.status',
      actor_id: admin.id,
      target_type: 'report',
      before_json: '{"status":"open"}',
      after_json: '{"status":"closed"}',
    });
    expect((await set({ id, status: 'open' })).json().report.status).toBe('open');
    const missing = await set({ id: 'missing', status: 'closed' });
    expect([missing.statusCode, missing.json()]).toEqual([404, { code: 'reports.not_found', message: 'Report not found.' }]);
    const bad = await set({ id, status: 'archived' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation.invalid', params: { field: 'status' } });
    const provider = await makeUser(ctx);
    expect((await set({ id, status: 'closed' }, provider.cookie)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/get-reports' })).statusCode).toBe(401);
    const row = await ctx.app.deps.db.selectFrom('reports').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('open');
  });
});

describe('a report about a staff member’s own ad', () => {
  it('its admin neither reads who sent it nor what it says, nor closes it; another admin does', async () => {
    ctx = await createTestApp();
    const master = await asMaster(ctx);
    const admin = await asAdmin(ctx);
    const ny = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, admin, master, ny);
    const filed = await ctx.app.inject({
      method: 'POST',
      url: `/api/report-ad/${ad.id}`,
      payload: { message: 'This person looks under age to me.', contact: 'tipster@example.org' },
      remoteAddress: '203.0.113.9',
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const reportsAs = async (cookie: string) =>
      (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-reports', headers: { cookie } })).json().reports as {
        id: string;
        message: string;
        contact: string | null;
        ipHash: string | null;
        ad: { id: string } | null;
      }[];
    const own = (await reportsAs(admin.cookie)).find((r) => r.ad?.id === ad.id)!;
    expect(own).toMatchObject({ message: '', contact: null, ipHash: null, ad: { id: ad.id } });
    const seen = (await reportsAs(master.cookie)).find((r) => r.ad?.id === ad.id)!;
    expect(seen).toMatchObject({ message: 'This person looks under age to me.', contact: 'tipster@example.org' });
    expect(seen.ipHash).toBe(hashIp(ctx.config.jwtSecret, '203.0.113.9'));

    const close = (cookie: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/admin/set-report-status', headers: { cookie }, payload: { id: own.id, status: 'closed' } });
    const refused = await close(admin.cookie);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'reports.own_ad']);
    expect(await ctx.app.deps.db.selectFrom('audit_log').select('action').where('action', '=', 'report.status').execute()).toEqual([]);
    expect((await close(master.cookie)).json().report.status).toBe('closed');
  });
});

describe('createReport (used by the marketplace for ad reports)', () => {
  it('stores an ad report inside the caller transaction and validates the message', async () => {
    ctx = await createTestApp();
    const db = ctx.app.deps.db;
    const r = await db.transaction().execute((trx) => createReport(trx, { kind: 'ad', adId: 'abc123', message: 'This ad is a scam.' }, ctx.clock.now()));
    expect(r).toMatchObject({ kind: 'ad', adId: 'abc123', status: 'open', createdAt: '2026-01-15T12:00:00.000Z' });
    await expect(db.transaction().execute((trx) => createReport(trx, { kind: 'ad', adId: 'abc123', message: 'no' }, ctx.clock.now()))).rejects.toMatchObject({
      statusCode: 400,
      code: 'reports.message_too_short',
      field: 'message',
    });
    expect(await count()).toBe(1);
  });
});

describe('the staff e-mail about a report', () => {
  it('speaks the language each staff member last used, with links to their language’s pages; a report without an ad or contact has no such lines', async () => {
    ctx = await createTestApp();
    const [ana, joao, kim] = [await asAdmin(ctx), await asMaster(ctx), await asAdmin(ctx)];
    await ctx.app.deps.db.updateTable('users').set({ locale: 'es' }).where('id', '=', ana.id).execute();
    await ctx.app.deps.db.updateTable('users').set({ locale: 'pt' }).where('id', '=', joao.id).execute();
    const ad = await liveAd(ctx, kim, ana, await placeIn(ctx, 'ny'));
    ctx.mailer.sent.length = 0;
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${ad.id}`, payload: { message: 'This advert asks for payment up front.' } })).statusCode,
    ).toBe(201);
    const to = (email: string) => ctx.mailer.sent.find((m) => m.to === email)!;
    const origin = ctx.config.publicUrl;
    // kim owns the ad: not told
    expect(ctx.mailer.sent.map((m) => m.to).sort()).toEqual([ana.email, joao.email].sort());
    expect(to(ana.email).subject).toMatch(/^\[XG\] Nuevo aviso: Denuncia de anuncio \w+/);
    expect(to(ana.email).text).toContain(`Anuncio: ${origin}/es/ad/${ad.id}`);
    expect(to(ana.email).text).toContain(`Revisarlo: ${origin}/es/admin/dashboard/admin/reports`);
    expect(to(ana.email).text).toContain('This advert asks for payment up front.');
    expect(to(ana.email).text).toMatch(/Llegó el \d+ \w+ \d{4}, \d\d:\d\d UTC: Denuncia de anuncio\./);
    expect(to(joao.email).subject).toMatch(/^\[XG\] Novo aviso: Denúncia de anúncio \w+/);
    expect(to(joao.email).text).toContain(`Anúncio: ${origin}/pt/ad/${ad.id}`);
    expect(to(joao.email).html).toContain('<html lang="pt">');
    expect(to(ana.email).text).not.toMatch(/Contacto:/); // no contact given

    ctx.mailer.sent.length = 0;
    await post({ kind: 'trafficking', message: 'The woman in this ad looks scared and someone else answers her phone.', contact: 'tip@example.org' });
    expect(to(ana.email).subject).toMatch(/^\[XG\] URGENTE Nuevo aviso: Denuncia de trata \w+/);
    expect(to(ana.email).text).toContain('Contacto: tip@example.org');
    expect(to(ana.email).text).not.toMatch(/Anuncio:/); // about no ad
    expect(to(kim.email).subject).toMatch(/^\[XG\] URGENT Trafficking report \w+/);
    expect(to(kim.email).text).toContain('Contact: tip@example.org');
    expect(to(kim.email).text).toContain(`Review it: ${origin}/admin/dashboard/admin/reports`);
  });

  it('to STAFF_EMAIL: in the language of the account with that address, else English', async () => {
    ctx = await createTestApp({ env: { STAFF_EMAIL: 'desk@example.com' } });
    expect((await post({ kind: 'contact', message: 'How do I change my nickname?', contact: 'ann@example.com' })).statusCode).toBe(201);
    expect(ctx.mailer.sent[0]).toMatchObject({ to: 'desk@example.com', subject: expect.stringMatching(/^\[XG\] Contact message /) });
    const desk = await makeUser(ctx, { email: 'desk@example.com', roles: ['ADMIN_USER'], status: 'approved' });
    await ctx.app.deps.db.updateTable('users').set({ locale: 'pt' }).where('id', '=', desk.id).execute();
    ctx.mailer.sent.length = 0;
    expect((await post({ kind: 'contact', message: 'How do I change my nickname?', contact: 'ann@example.com' })).statusCode).toBe(201);
    expect(ctx.mailer.sent.find((m) => m.to === 'desk@example.com')).toMatchObject({
      subject: expect.stringMatching(/^\[XG\] Novo aviso: Mensagem de contato /),
    });
  });
});
