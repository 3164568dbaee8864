import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, rawInject, type TestContext, type TestUser } from '../../test/harness.ts';
import { connector, until, type Conn } from './realtime.testkit.ts';
import { HOUR_MS } from '../../core/clock.ts';

// POST /api/admin/send-public-message: a staff announcement to every open socket (PRODUCT §7's
// `publicMessage`), over a real listening app and real WebSockets.

let ctx: TestContext;
let base: string;
const sockets = connector(() => base);

beforeEach(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
});
afterEach(async () => {
  sockets.closeAll();
  await ctx.close();
});

const send = (who: TestUser, payload: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: '/api/admin/send-public-message', headers: { cookie: who.cookie, ...headers }, payload: payload as object });
const audits = () => ctx.app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'public_message.send').orderBy('id').execute();
/** Waits a moment for frames that should not come; the messages a socket got meanwhile. */
const quietFor = async (conns: Conn[], ms = 100) => {
  await new Promise((r) => setTimeout(r, ms));
  return conns.flatMap((c) => c.messages);
};

describe('send-public-message', () => {
  let admin: TestUser;
  let ann: TestUser;
  let bob: TestUser;
  beforeEach(async () => {
    admin = await asAdmin(ctx);
    ann = await makeUser(ctx, { status: 'approved' });
    bob = await makeUser(ctx); // pending: still signed in, still told
  });

  it('reaches every open socket of every signed-in user, staff included, and answers how many', async () => {
    const a1 = await sockets.connect({ cookie: ann.cookie });
    const a2 = await sockets.connect({ cookie: ann.cookie });
    const b = await sockets.connect({ cookie: bob.cookie });
    const s = await sockets.connect({ cookie: admin.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 4);

    const res = await send(admin, { text: { en: '  Maintenance tonight at 02:00 UTC.  ', es: 'Mantenimiento esta noche a las 02:00 UTC.' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sent: 4 });
    const data = { text: { en: 'Maintenance tonight at 02:00 UTC.', es: 'Mantenimiento esta noche a las 02:00 UTC.' }, at: ctx.clock.now().toISOString() };
    for (const c of [a1, a2, b, s]) expect(await c.next()).toEqual({ event: 'publicMessage', data });
  });

  it('a master may send too; with nobody connected it reaches no one', async () => {
    const master = await asMaster(ctx);
    const res = await send(master, { text: { en: 'Hello', pt: 'Olá' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sent: 0 });
  });

  it('is audited with the text sent, in the same request', async () => {
    await send(admin, { text: { en: 'Back in 10 minutes.', pt: 'De volta em 10 minutos.' } });
    const rows = await audits();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_id: admin.id, actor_email: admin.email, target_type: 'public_message', at: ctx.clock.now().toISOString() });
    expect(JSON.parse(rows[0].after_json!)).toEqual({ text: { en: 'Back in 10 minutes.', pt: 'De volta em 10 minutos.' } });
  });

  it('refuses a provider with 403: nothing sent, nothing audited', async () => {
    const c = await sockets.connect({ cookie: bob.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    const res = await send(ann, { text: { en: 'I am not staff' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.forbidden');
    expect(await quietFor([c])).toEqual([]);
    expect(await audits()).toEqual([]);
  });

  it('refuses a request from another site with 403', async () => {
    const c = await sockets.connect({ cookie: ann.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    const res = await rawInject(ctx.app, {
      method: 'POST',
      url: '/api/admin/send-public-message',
      headers: { cookie: admin.cookie, 'sec-fetch-site': 'cross-site' },
      payload: { text: { en: 'Click here' } },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('request.cross_site');
    expect(await quietFor([c])).toEqual([]);
    expect(await audits()).toEqual([]);
  });

  it('refuses bad bodies with 400: nothing sent, nothing audited', async () => {
    const c = await sockets.connect({ cookie: ann.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    const bad: [unknown, string, string?][] = [
      [{}, 'validation.required', 'text'],
      [{ text: {} }, 'validation.required', 'text.en'], // English is required: named by its whole path
      [{ text: { es: 'Hola' } }, 'validation.required', 'text.en'],
      [{ text: { en: '' } }, 'realtime.public_message_length', 'text.en'],
      [{ text: { en: ' \n\t ' } }, 'realtime.public_message_length', 'text.en'],
      [{ text: { en: '\u200b\u200b' } }, 'realtime.public_message_length', 'text.en'], // draws nothing
      [{ text: { en: 'x'.repeat(501) } }, 'realtime.public_message_length', 'text.en'],
      [{ text: { en: 'ok', es: '   ' } }, 'realtime.public_message_length', 'text.es'],
      [{ text: { en: 'ok', pt: 'y'.repeat(501) } }, 'realtime.public_message_length', 'text.pt'],
      [{ text: { en: 'x'.repeat(5000) } }, 'validation.invalid', 'text.en'],
      [{ text: { en: 42 } }, 'validation.invalid', 'text.en'],
      [{ text: 'Hello' }, 'validation.invalid', 'text'],
      [{ text: { en: 'ok', fr: 'Bonjour' } }, 'validation.unknown_field', 'fr'],
      [{ text: { en: 'ok' }, to: 'everyone' }, 'validation.unknown_field', 'to'],
    ];
    for (const [payload, code, field] of bad) {
      const res = await send(admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ code, params: { field } });
    }
    expect((await send(admin, { text: { en: '   ' } })).json()).toMatchObject({
      message: 'Each text of an announcement must be 1 to 500 characters.',
      params: { max: 500 },
    });
    expect(await quietFor([c])).toEqual([]);
    expect(await audits()).toEqual([]);
  });

  it('takes 500 characters once trimmed, and sends each text cleaned as it is shown', async () => {
    const c = await sockets.connect({ cookie: ann.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    const res = await send(admin, { text: { en: `  ${'x'.repeat(500)}\n\n`, es: 'Línea 1\r\n\r\n\r\n\r\nLínea 2\u200b' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(((await c.next()).data as { text: unknown }).text).toEqual({ en: 'x'.repeat(500), es: 'Línea 1\n\nLínea 2' });
  });

  it('allows 10 an hour per staff member, then 429 with nothing sent; another staff member is not held back', async () => {
    const c = await sockets.connect({ cookie: ann.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    for (let i = 1; i <= 10; i++) expect((await send(admin, { text: { en: `Notice ${i}` } })).statusCode).toBe(200);
    for (let i = 1; i <= 10; i++) expect((await c.next()).data).toMatchObject({ text: { en: `Notice ${i}` } });

    const refused = await send(admin, { text: { en: 'Notice 11' } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 'realtime.too_many_public_messages',
      message: 'You can send at most 10 announcements an hour. Please try again later.',
      params: { max: 10 },
    });
    expect(await quietFor([c])).toEqual([]);
    expect(await audits()).toHaveLength(10);

    const other = await asAdmin(ctx);
    expect((await send(other, { text: { en: 'From someone else' } })).statusCode).toBe(200);
    expect((await c.next()).data).toMatchObject({ text: { en: 'From someone else' } });

    ctx.clock.advance(HOUR_MS);
    expect((await send(admin, { text: { en: 'An hour later' } })).statusCode).toBe(200);
    expect((await c.next()).data).toMatchObject({ text: { en: 'An hour later' } });
  });

  it('a refused body does not use up the hour', async () => {
    for (let i = 0; i < 12; i++) expect((await send(admin, { text: { en: ' ' } })).statusCode).toBe(400);
    expect((await send(admin, { text: { en: 'Still allowed' } })).statusCode).toBe(200);
  });

  it('an admin demoted while the request is under way is refused, and nothing is sent', async () => {
    const master = await asMaster(ctx);
    const c = await sockets.connect({ cookie: ann.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    const demote = () =>
      ctx.app.inject({ method: 'POST', url: '/api/master/update-user-roles', headers: { cookie: master.cookie }, payload: { userId: admin.id, roles: [] } });
    const [demoted, res] = await Promise.all([demote(), send(admin, { text: { en: 'Too late' } })]);
    expect(demoted.statusCode).toBe(200);
    expect(res.statusCode, res.body).toBe(403);
    expect(await quietFor([c])).toEqual([]);
    expect(await audits()).toEqual([]);
  });
});
