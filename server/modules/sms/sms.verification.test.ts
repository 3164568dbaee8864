import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { startFakeTextbelt, type FakeTextbelt } from '../../test/fakes/textbelt.ts';
import { MASKED_CODE, codeText } from './sms.verification.ts';
import { MAIL_LOCALES } from '../../core/mail-templates.ts';

// Phone verification over HTTP, with Textbelt faked on 127.0.0.1 and time moved by the test's
// clock: the code's life (10 minutes), its five tries, and three codes an hour per user and per number.

const KEY = 'verify_key_0001';
const MIN = 60_000;
let fake: FakeTextbelt;
let ctx: TestContext;
let ann: TestUser;
beforeEach(async () => {
  fake = await startFakeTextbelt({ keys: { [KEY]: 100 } });
  ctx = await createTestApp({ env: { TEXTBELT_URL: fake.url } });
  const admin = await asAdmin(ctx);
  await ctx.app.inject({ method: 'PUT', url: '/api/admin/update-textbelt-token-by-id/1', payload: { token: KEY }, headers: { cookie: admin.cookie } });
  ann = await makeUser(ctx, { status: 'approved' });
});
afterEach(async () => {
  await ctx.close();
  await fake.stop();
});

const ask = (phone: string, u = ann) => ctx.app.inject({ method: 'POST', url: '/api/phone-verification', payload: { phone }, headers: { cookie: u.cookie } });
const confirm = (code: string, u = ann) =>
  ctx.app.inject({ method: 'POST', url: '/api/phone-verification/confirm', payload: { code }, headers: { cookie: u.cookie } });
const profile = async (u = ann) => (await ctx.app.inject({ method: 'GET', url: '/api/user-profile', headers: { cookie: u.cookie } })).json();
/** The code of the latest text the fake delivered to a number. */
function lastCode(phone: string): string {
  const texts = fake.textsTo(phone);
  const m = /\b(\d{6})\b/.exec(texts.at(-1) ?? '');
  if (!m) throw new Error(`no code was texted to ${phone}: ${JSON.stringify(fake.received)}`);
  return m[1];
}
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
function expectError(res: { statusCode: number; json(): { code?: string; params?: unknown } }, status: number, code: string, params?: unknown) {
  expect([res.statusCode, res.json().code]).toEqual([status, code]);
  if (params) expect(res.json().params).toEqual(params);
}
const codes = () => ctx.app.deps.db.selectFrom('phone_codes').selectAll().orderBy('id').execute();

// GSM 03.38: the default alphabet, and its extension table (each of those characters takes two septets).
const GSM_BASIC = new Set([
  ...'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
]);
const GSM_EXT = new Set([...'^{}\\[~]|€\f']);
/** How many segments a text takes on the air: GSM-7 160 (153 each when split), else UCS-2 70 (67) code units. */
function segments(text: string): { encoding: 'GSM-7' | 'UCS-2'; segments: number } {
  const chars = [...text];
  if (chars.every((c) => GSM_BASIC.has(c) || GSM_EXT.has(c))) {
    const septets = chars.reduce((n, c) => n + (GSM_EXT.has(c) ? 2 : 1), 0);
    return { encoding: 'GSM-7', segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
  }
  return { encoding: 'UCS-2', segments: text.length <= 70 ? 1 : Math.ceil(text.length / 67) };
}

describe('phone verification', () => {
  it('texts a 6-digit code; the right code makes the number the verified phone', async () => {
    expect(await profile()).toMatchObject({ phone: null, phoneVerified: false });
    const res = await ask('(212) 555-0123');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ phone: '+12125550123', expiresAt: '2026-01-15T12:10:00.000Z' });
    const code = lastCode('+12125550123');
    expect(fake.received.at(-1)).toMatchObject({ phone: '+12125550123', key: KEY, message: codeText(code) });

    // Only a keyed hash of the code is stored, and staff see the message with the code masked.
    const [row] = await codes();
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(code);
    const sent = await ctx.app.deps.db.selectFrom('sms_messages').selectAll().executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ to_phone: '+12125550123', body: codeText(MASKED_CODE), purpose: 'verification', user_id: ann.id, status: 'accepted' });

    expectError(await confirm(wrong(code)), 400, 'phone.code_wrong', { field: 'code', triesLeft: 4 });
    const ok = await confirm(` ${code} `);
    expect([ok.statusCode, ok.json()]).toEqual([200, { phone: '+12125550123', phoneVerified: true }]);
    expect(await profile()).toMatchObject({ phone: '+12125550123', phoneVerified: true });
    expect(await ctx.app.deps.db.selectFrom('users').select('phone_verified_at').where('id', '=', ann.id).executeTakeFirstOrThrow()).toEqual({
      phone_verified_at: '2026-01-15T12:00:00.000Z',
    });
    // used once only
    expectError(await confirm(code), 400, 'phone.code_expired');
    expectError(await ask('+12125550123'), 409, 'phone.already_verified');
  });

  it('texts the code in the language of the pages the user uses (Spanish, Portuguese), the stored text too', async () => {
    const spanish = await ctx.app.inject({
      method: 'POST',
      url: '/api/phone-verification',
      payload: { phone: '+12125550131' },
      headers: { cookie: ann.cookie, 'x-locale': 'es' },
    });
    expect(spanish.statusCode).toBe(202);
    const code = lastCode('+12125550131');
    expect(fake.textsTo('+12125550131').at(-1)).toBe(`XG Marketplace: tu código es ${code}. Caduca en 10 minutos.`);
    const bob = await makeUser(ctx, { status: 'approved' });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/phone-verification',
      payload: { phone: '+12125550132' },
      headers: { cookie: bob.cookie, 'x-locale': 'pt' },
    });
    expect(fake.textsTo('+12125550132').at(-1)).toBe(`XG Marketplace: seu código é ${lastCode('+12125550132')}. Expira em 10 minutos.`);
    const stored = await ctx.app.deps.db.selectFrom('sms_messages').select('body').where('to_phone', '=', '+12125550132').executeTakeFirstOrThrow();
    expect(stored.body).toBe(codeText(MASKED_CODE, 'pt'));
  });

  // Past one segment a text costs twice, and some handsets show it as two messages.
  it('texts the code in one SMS segment in English, Spanish and Portuguese', () => {
    expect(Object.fromEntries(MAIL_LOCALES.map((l) => [l, segments(codeText('123456', l))]))).toEqual({
      en: { encoding: 'GSM-7', segments: 1 },
      es: { encoding: 'UCS-2', segments: 1 },
      pt: { encoding: 'UCS-2', segments: 1 },
    });
  });

  it('a code lives 10 minutes', async () => {
    await ask('+12125550123');
    const code = lastCode('+12125550123');
    ctx.clock.advance(10 * MIN - 1);
    expectError(await confirm(wrong(code)), 400, 'phone.code_wrong');
    ctx.clock.advance(1);
    expectError(await confirm(code), 400, 'phone.code_expired', { field: 'code' });
    expect(await profile()).toMatchObject({ phone: null, phoneVerified: false });
  });

  it('five wrong tries burn the code; malformed codes are not tries', async () => {
    await ask('+12125550123');
    const code = lastCode('+12125550123');
    expectError(await confirm('12345'), 400, 'phone.code_format', { field: 'code' });
    expectError(await confirm('abcdef'), 400, 'phone.code_format');
    for (const left of [4, 3, 2, 1]) expectError(await confirm(wrong(code)), 400, 'phone.code_wrong', { field: 'code', triesLeft: left });
    expectError(await confirm(wrong(code)), 400, 'phone.code_burned');
    expect((await codes())[0]).toMatchObject({ attempts: 5, burned_at: '2026-01-15T12:00:00.000Z', used_at: null });
    expectError(await confirm(code), 400, 'phone.code_expired');
    expect(await profile()).toMatchObject({ phoneVerified: false });
  });

  it('a new code replaces the earlier one', async () => {
    await ask('+12125550123');
    const first = lastCode('+12125550123');
    await ask('+12125550124');
    const second = lastCode('+12125550124');
    if (first !== second) expectError(await confirm(first), 400, 'phone.code_wrong');
    expect((await confirm(second)).json()).toEqual({ phone: '+12125550124', phoneVerified: true });
  });

  it('three codes an hour per user', async () => {
    for (const n of [1, 2, 3]) {
      expect((await ask(`+1212555010${n}`)).statusCode).toBe(202);
      ctx.clock.advance(10 * MIN);
    }
    // 30 minutes after the first: free again in 30
    expectError(await ask('+12125550104'), 429, 'phone.too_many_codes', { minutes: 30 });
    ctx.clock.advance(30 * MIN - 1);
    expectError(await ask('+12125550104'), 429, 'phone.too_many_codes', { minutes: 1 });
    ctx.clock.advance(1);
    expect((await ask('+12125550104')).statusCode).toBe(202);
    expect(fake.received).toHaveLength(4);
  });

  it('three codes an hour per number, whoever asks', async () => {
    const users = [ann, await makeUser(ctx, { status: 'approved' }), await makeUser(ctx, { status: 'approved' })];
    for (const u of users) expect((await ask('+12125550199', u)).statusCode).toBe(202);
    const dan = await makeUser(ctx);
    expectError(await ask('+12125550199', dan), 429, 'phone.too_many_codes', { minutes: 60 });
    expect((await ask('+12125550198', dan)).statusCode).toBe(202);
    expect(fake.textsTo('+12125550199')).toHaveLength(3);
    expect((await codes()).length).toBe(4);
  });

  it('a text that cannot be sent costs nothing: 503, no code kept, no limit used', async () => {
    fake.quota.set(KEY, 0);
    expectError(await ask('+12125550123'), 503, 'phone.sms_failed');
    fake.failNext('http500', 3);
    for (let i = 0; i < 3; i++) expectError(await ask('+12125550123'), 503, 'phone.sms_failed');
    expect(await codes()).toEqual([]);
    fake.quota.set(KEY, 5);
    expect((await ask('+12125550123')).statusCode).toBe(202);
    const statuses = (await ctx.app.deps.db.selectFrom('sms_messages').select(['status', 'error']).orderBy('id').execute()).map((m) => m.status);
    expect(statuses).toEqual(['refused', 'error', 'error', 'error', 'accepted']);
  });

  it('"send again" that cannot be sent leaves the code already texted working', async () => {
    expect((await ask('+12125550177')).statusCode).toBe(202);
    const code = lastCode('+12125550177');
    fake.quota.set(KEY, 0); // the key runs dry: Textbelt refuses the next text
    expectError(await ask('+12125550177'), 503, 'phone.sms_failed');
    fake.failNext('http500');
    expectError(await ask('+12125550177'), 503, 'phone.sms_failed');
    expect(fake.textsTo('+12125550177')).toHaveLength(1);
    expect((await confirm(code)).json()).toEqual({ phone: '+12125550177', phoneVerified: true });
  });

  it('a text Textbelt may have sent (no answer in time) keeps its code: it counts against the hour, and works if it arrives', async () => {
    await ctx.close();
    ctx = await createTestApp({ env: { TEXTBELT_URL: fake.url }, limits: { textbeltTimeoutMs: 300 } });
    const admin = await asAdmin(ctx);
    await ctx.app.inject({ method: 'PUT', url: '/api/admin/update-textbelt-token-by-id/1', payload: { token: KEY }, headers: { cookie: admin.cookie } });
    ann = await makeUser(ctx, { status: 'approved' });
    fake.failNext('slow', 5);
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await ask('+12125550123')).statusCode);
    expect(answers).toEqual([503, 503, 503, 429, 429]);
    expect(fake.textsTo('+12125550123')).toHaveLength(3); // not one more than the hour allows
    expect(await codes()).toHaveLength(3);
    // The last one arrived after all: it verifies the number.
    const res = await confirm(lastCode('+12125550123'));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('without a key the code is written to the outbox, and works the same', async () => {
    const admin = await asAdmin(ctx);
    await ctx.app.inject({ method: 'PUT', url: '/api/admin/update-textbelt-token-by-id/1', payload: { token: '' }, headers: { cookie: admin.cookie } });
    expect((await ask('+12125550123')).statusCode).toBe(202);
    expect(fake.requests).toEqual([]);
    const dir = path.join(ctx.dataDir, 'outbox');
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    const text = fs.readFileSync(path.join(dir, files[0]), 'utf8');
    const code = /\b(\d{6})\b/.exec(text)![1];
    expect(text).toBe(`To: +12125550123\n\n${codeText(code)}\n`);
    expect((await confirm(code)).json()).toEqual({ phone: '+12125550123', phoneVerified: true });
  });

  it('refuses numbers outside the US, and guests', async () => {
    for (const phone of ['+44 20 7946 0958', '555-0123', '+1 012 555 0123', '']) expectError(await ask(phone), 400, 'phone.invalid', { field: 'phone' });
    expect((await ctx.app.inject({ method: 'POST', url: '/api/phone-verification', payload: { phone: '+12125550123' } })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/phone-verification/confirm', payload: { code: '123456' } })).statusCode).toBe(401);
    expect(await codes()).toEqual([]);
    expect(fake.received).toEqual([]);
  });

  it('a code is its user’s only', async () => {
    const bob = await makeUser(ctx, { status: 'approved' });
    await ask('+12125550123');
    const code = lastCode('+12125550123');
    expectError(await confirm(code, bob), 400, 'phone.code_expired');
    expect((await confirm(code)).statusCode).toBe(200);
    expect(await profile(bob)).toMatchObject({ phone: null, phoneVerified: false });
  });
});
