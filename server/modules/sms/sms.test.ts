import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { startFakeTextbelt, type FakeTextbelt } from '../../test/fakes/textbelt.ts';
import { DAY_MS } from '../../core/clock.ts';
import { DEFAULT_TEST_MESSAGE, DEFAULT_TEST_MESSAGES } from './sms.service.ts';
import { gatewayUrl, maskToken } from './sms.gateway.ts';
import * as repo from './sms.repository.ts';

// The Textbelt key, balance, test messages and delivery statuses, over HTTP against a real local
// Textbelt (server/test/fakes/textbelt.ts). No request leaves 127.0.0.1.

const KEY = 'live_key_9876';
let fake: FakeTextbelt;
let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  fake = await startFakeTextbelt({ keys: { [KEY]: 3 } });
  ctx = await createTestApp({ env: { TEXTBELT_URL: fake.url } });
  admin = await asAdmin(ctx);
});
afterEach(async () => {
  await ctx.close();
  await fake.stop();
});

const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, cookie = admin.cookie) =>
  ctx.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const setKey = (token: string) => call('PUT', '/api/admin/update-textbelt-token-by-id/1', { token });
const sendTest = (phone: string, message?: string) => call('POST', '/api/admin/send-textbelt-test-sms', message === undefined ? { phone } : { phone, message });
const outbox = () => {
  const dir = path.join(ctx.dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => ({ name: f, text: fs.readFileSync(path.join(dir, f), 'utf8') })) : [];
};
const audits = () => ctx.app.deps.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

describe('the Textbelt key', () => {
  it('is masked to its last four characters, set and removed by staff, audited without its value', async () => {
    expect((await call('GET', '/api/admin/get-textbelt-token')).json()).toEqual({ id: 1, token: null });
    const set = await setKey(`  ${KEY} `);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ id: 1, token: '••••9876' });
    expect((await call('GET', '/api/admin/get-textbelt-token')).json()).toEqual({ id: 1, token: '••••9876' });
    expect((await ctx.app.deps.db.selectFrom('textbelt_tokens').selectAll().executeTakeFirstOrThrow()).token).toBe(KEY);

    expect((await setKey('')).json()).toEqual({ id: 1, token: null });
    const rows = await audits();
    expect(rows.map((r) => [r.action, r.actor_id, r.target_id, r.before_json, r.after_json])).toEqual([
      ['textbelt_token.update', admin.id, '1', '{"token":null}', '{"token":"••••9876"}'],
      ['textbelt_token.update', admin.id, '1', '{"token":"••••9876"}', '{"token":null}'],
    ]);
    expect(JSON.stringify(rows)).not.toContain(KEY);
  });

  it('refuses a key with other characters, an unknown record, and non-staff', async () => {
    const bad = await setKey('abc def');
    expect([bad.statusCode, bad.json().code, bad.json().params]).toEqual([400, 'sms.token_invalid', { field: 'token' }]);
    expect((await setKey('x'.repeat(201))).statusCode).toBe(400);
    const missing = await call('PUT', '/api/admin/update-textbelt-token-by-id/2', { token: KEY });
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'sms.token_not_found']);
    const provider = await makeUser(ctx, { status: 'approved' });
    expect((await call('PUT', '/api/admin/update-textbelt-token-by-id/1', { token: KEY }, provider.cookie)).statusCode).toBe(403);
    expect((await ctx.app.deps.db.selectFrom('textbelt_tokens').selectAll().executeTakeFirstOrThrow()).token).toBeNull();
    expect(await audits()).toEqual([]);
  });

  it('masks short keys entirely', () => {
    expect([maskToken(null), maskToken('abc'), maskToken('abcdefg'), maskToken('abcdefgh')]).toEqual([null, '••••', '••••', '••••efgh']);
  });
});

describe('the balance', () => {
  it('is the quota Textbelt reports for the key', async () => {
    const none = await call('GET', '/api/admin/get-textbelt-balance/1');
    expect([none.statusCode, none.json().code]).toEqual([409, 'sms.not_configured']);
    await setKey(KEY);
    const res = await call('GET', '/api/admin/get-textbelt-balance/1');
    expect([res.statusCode, res.json()]).toEqual([200, { quotaRemaining: 3 }]);
    expect(fake.requests).toEqual([`GET /quota/${KEY}`]);
    expect((await call('GET', '/api/admin/get-textbelt-balance/7')).statusCode).toBe(404);
  });

  // What went wrong is a code the page words in its language, never English of ours as a param.
  it('says when Textbelt refuses the key or cannot be reached, as codes', async () => {
    const balance = async () => {
      const res = await call('GET', '/api/admin/get-textbelt-balance/1');
      return [res.statusCode, res.json().code, res.json().params, res.json().message];
    };
    await setKey('unknown_key_1');
    expect(await balance()).toEqual([502, 'sms.provider_refused_silently', undefined, 'Textbelt refused without saying why.']);
    await setKey(KEY);
    fake.failNext('http500');
    expect(await balance()).toEqual([503, 'sms.provider_http', { status: 500 }, 'Textbelt could not be reached (HTTP status 500).']);
    fake.failNext('not-json');
    expect(await balance()).toEqual([503, 'sms.provider_not_json', undefined, 'Textbelt could not be reached (its answer could not be read).']);
    await fake.stop();
    fake = await startFakeTextbelt();
    expect(await balance()).toEqual([503, 'sms.provider_unreachable', undefined, 'Textbelt could not be reached (no connection).']);
  });

  it('says how long Textbelt was waited for when it does not answer', async () => {
    const quick = await createTestApp({ env: { TEXTBELT_URL: fake.url }, limits: { textbeltTimeoutMs: 300 } });
    try {
      const staff = await asAdmin(quick);
      const inject = (method: 'GET' | 'PUT', url: string, payload?: object) => quick.app.inject({ method, url, headers: { cookie: staff.cookie }, payload });
      await inject('PUT', '/api/admin/update-textbelt-token-by-id/1', { token: KEY });
      fake.failNext('hang');
      const res = await inject('GET', '/api/admin/get-textbelt-balance/1');
      expect([res.statusCode, res.json().code, res.json().params]).toEqual([503, 'sms.provider_timeout', { seconds: 0.3 }]);
    } finally {
      await quick.close();
    }
  });
});

describe('test messages', () => {
  it('without a key go to the outbox and the list, and nothing is asked of Textbelt', async () => {
    const res = await sendTest('(212) 555-0100');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatchObject({ to: '+12125550100', text: DEFAULT_TEST_MESSAGE, purpose: 'test', status: 'outbox', textId: null, error: null });
    expect(outbox()).toEqual([
      { name: expect.stringMatching(/^2026-01-15T12-00-00-000Z-[a-z0-9]{8}\.sms\.txt$/), text: `To: +12125550100\n\n${DEFAULT_TEST_MESSAGE}\n` },
    ]);
    const list = (await call('GET', '/api/admin/get-textbelt-messages')).json();
    expect(list).toMatchObject({ total: 1, page: 1, pageSize: 20, configured: false });
    expect(list.messages[0].id).toBe(res.json().message.id);
    expect(fake.requests).toEqual([]);
    const audit = (await audits()).at(-1)!;
    expect([audit.action, audit.target_id, JSON.parse(audit.after_json!)]).toEqual([
      'sms.test_send',
      String(res.json().message.id),
      { to: '+12125550100', text: DEFAULT_TEST_MESSAGE, status: 'outbox' },
    ]);
  });

  it('keep the outbox to the server user alone even when a text message is its first file (it holds live codes)', async () => {
    const dir = path.join(ctx.dataDir, 'outbox');
    expect(fs.existsSync(dir)).toBe(false);
    expect((await sendTest('(212) 555-0100')).statusCode).toBe(200);
    const [first] = outbox();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, first.name)).mode & 0o777).toBe(0o600);
    // An outbox made by an older version (0755) is closed by the next message.
    fs.chmodSync(dir, 0o755);
    expect((await sendTest('(212) 555-0101')).statusCode).toBe(200);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('with a key go through Textbelt: ids kept as text, refusals and outages stored with Textbelt’s words', async () => {
    await setKey(KEY);
    const a = (await sendTest('+12125550100', '  hello from staff ')).json().message;
    const b = (await sendTest('2125550101')).json().message;
    expect(a).toMatchObject({ to: '+12125550100', text: 'hello from staff', status: 'accepted', textId: '1001', quotaRemaining: 2, error: null });
    expect(b).toMatchObject({ status: 'accepted', textId: 'tb1002', quotaRemaining: 1 });
    expect(fake.received.map((r) => [r.phone, r.message, r.key])).toEqual([
      ['+12125550100', 'hello from staff', KEY],
      ['+12125550101', DEFAULT_TEST_MESSAGE, KEY],
    ]);
    await sendTest('+12125550102');
    const out = (await sendTest('+12125550103')).json().message;
    // Textbelt's own words as they came; what we say of an outage, as a code the page words.
    expect(out).toMatchObject({ status: 'refused', error: null, failure: { code: 'sms.refused', detail: 'Out of quota' }, quotaRemaining: 0, textId: null });
    fake.failNext('not-json');
    const down = (await sendTest('+12125550104')).json().message;
    expect(down).toMatchObject({ status: 'error', error: null, failure: { code: 'sms.not_json' }, textId: null });
    expect(JSON.stringify(down)).not.toContain('the answer is not JSON');
    expect(outbox()).toEqual([]);
    const list = (await call('GET', '/api/admin/get-textbelt-messages?pageSize=2')).json();
    expect(list).toMatchObject({ total: 5, page: 1, pageSize: 2, configured: true });
    expect(list.messages.map((m: { id: number }) => m.id)).toEqual([down.id, out.id]);
  });

  it('keep the words of a row stored before failures were coded, as they were written', async () => {
    const id = await repo.insertMessage(ctx.app.deps.db, {
      to: '+12125550100',
      body: DEFAULT_TEST_MESSAGE,
      purpose: 'test',
      userId: admin.id,
      status: 'error',
      textId: null,
      error: 'no answer in 10 s',
      quotaRemaining: null,
      at: ctx.clock.now().toISOString(),
    });
    const [m] = (await call('GET', '/api/admin/get-textbelt-messages')).json().messages;
    expect(m).toMatchObject({ id, status: 'error', error: 'no answer in 10 s' });
    expect(m).not.toHaveProperty('failure');
  });

  it('left empty, text the standard message in the language of the page that sent it', async () => {
    await setKey(KEY);
    const send = (phone: string, locale?: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/admin/send-textbelt-test-sms',
        headers: { cookie: admin.cookie, ...(locale ? { 'x-locale': locale } : {}) },
        payload: { phone },
      });
    const es = (await send('+12125550100', 'es')).json().message;
    await send('+12125550101', 'pt');
    expect(es.text).toBe(DEFAULT_TEST_MESSAGES.es);
    expect(fake.received.map((r) => r.message)).toEqual([DEFAULT_TEST_MESSAGES.es, DEFAULT_TEST_MESSAGES.pt]);
    // Without X-Locale, the language of the pages the sender last used (pt, from the request before).
    await send('+12125550102');
    await send('+12125550103', 'en');
    expect(fake.received.map((r) => r.message).slice(2)).toEqual([DEFAULT_TEST_MESSAGES.pt, DEFAULT_TEST_MESSAGES.en]);
    // GSM-7 letters only (é is one): one 160-character segment in every language.
    for (const text of Object.values(DEFAULT_TEST_MESSAGES)) expect(text).toMatch(/^[A-Za-z0-9 :.é]{1,160}$/);
  });

  it('with a _test key are validated, not sent', async () => {
    await setKey(`${KEY}_test`);
    const m = (await sendTest('+12125550100')).json().message;
    expect(m).toMatchObject({ status: 'test', textId: null, quotaRemaining: 3 });
    expect(fake.textsTo('+12125550100')).toEqual([]);
    expect(fake.quota.get(KEY)).toBe(3);
  });

  it('need a US number', async () => {
    const res = await sendTest('+44 20 7946 0958');
    expect([res.statusCode, res.json().code, res.json().params]).toEqual([400, 'phone.invalid', { field: 'phone' }]);
    expect((await sendTest('+12125550100', 'x'.repeat(321))).statusCode).toBe(400);
    expect(await ctx.app.deps.db.selectFrom('sms_messages').selectAll().execute()).toEqual([]);
  });
});

describe('delivery statuses', () => {
  it('are asked of Textbelt for recent messages under way, until final', async () => {
    expect((await call('POST', '/api/admin/refresh-textbelt-statuses', {})).json()).toEqual({ checked: 0, updated: 0, failed: 0 });
    await setKey(KEY);
    const a = (await sendTest('+12125550100')).json().message;
    const b = (await sendTest('+12125550101')).json().message;
    await setKey(''); // outbox messages have no id: never asked about
    await sendTest('+12125550102');
    fake.setStatus(a.textId, 'DELIVERED');
    ctx.clock.advance(60_000);
    expect((await call('POST', '/api/admin/refresh-textbelt-statuses', {})).json()).toEqual({ checked: 2, updated: 2, failed: 0 });
    const byId = async () =>
      Object.fromEntries(
        ((await call('GET', '/api/admin/get-textbelt-messages')).json().messages as { id: number; status: string; statusCheckedAt: string | null }[]).map(
          (m) => [m.id, [m.status, m.statusCheckedAt]],
        ),
      );
    const at = ctx.clock.now().toISOString();
    expect(await byId()).toMatchObject({ [a.id]: ['delivered', at], [b.id]: ['sending', at] });
    expect(fake.requests.filter((r) => r.startsWith('GET /status/')).sort()).toEqual(['GET /status/1001', 'GET /status/tb1002']);

    // delivered is final; the other is asked again, and an outage leaves it as it was
    fake.failNext('http500');
    expect((await call('POST', '/api/admin/refresh-textbelt-statuses', {})).json()).toEqual({ checked: 1, updated: 0, failed: 1 });
    fake.setStatus(b.textId, 'FAILED');
    expect((await call('POST', '/api/admin/refresh-textbelt-statuses', {})).json()).toEqual({ checked: 1, updated: 1, failed: 0 });
    expect((await byId())[b.id][0]).toBe('failed');

    // a week later nothing is asked any more
    const c = await sendTest('+12125550103');
    expect(c.json().message.status).toBe('outbox');
    await setKey(KEY);
    await sendTest('+12125550104');
    ctx.clock.advance(7 * DAY_MS + 1);
    expect((await call('POST', '/api/admin/refresh-textbelt-statuses', {})).json()).toEqual({ checked: 0, updated: 0, failed: 0 });
  });
});

describe('delivery statuses, many under way', () => {
  it('an older message is asked about in its turn even while 20 newer ones stay under way for good', async () => {
    fake.quota.set(KEY, 100);
    await setKey(KEY);
    const oldest = (await sendTest('+12125550100')).json().message;
    for (let i = 0; i < 20; i++) {
      ctx.clock.advance(60_000);
      await sendTest(`+1212555${String(200 + i).padStart(4, '0')}`);
    }
    fake.setStatus(oldest.textId, 'DELIVERED'); // the 20 newer ones stay SENDING (no receipt from their carrier)
    for (let i = 0; i < 3; i++) {
      ctx.clock.advance(60_000);
      await call('POST', '/api/admin/refresh-textbelt-statuses', {});
    }
    const row = await ctx.app.deps.db.selectFrom('sms_messages').select('status').where('id', '=', oldest.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('delivered');
  });
});

describe('the gateway for the health check', () => {
  it('says whether a key is set, its quota, and what is wrong: in plain English and as a code', async () => {
    const sms = ctx.app.deps.services.sms;
    expect(await sms.status()).toEqual({ configured: false, quotaRemaining: null, error: null, failure: null });
    await setKey(KEY);
    expect(await sms.status()).toEqual({ configured: true, quotaRemaining: 3, error: null, failure: null });
    await setKey('unknown_key_1');
    expect(await sms.status()).toEqual({ configured: true, quotaRemaining: 0, error: 'Textbelt refused the key', failure: { code: 'sms.refused' } });
    fake.failNext('hang');
    await setKey(KEY);
    fake.failNext('http500'); // the hang is used by the next request: this failure is the one after
    const hung = sms.status();
    expect(await sms.status()).toEqual({
      configured: true,
      quotaRemaining: null,
      error: 'Textbelt could not be reached: HTTP 500',
      failure: { code: 'sms.http', params: { status: 500 } },
    });
    await fake.stop(); // releases the hanging request (answered 503)
    expect(await hung).toMatchObject({ error: 'Textbelt could not be reached: HTTP 503', failure: { code: 'sms.http', params: { status: 503 } } });
    fake = await startFakeTextbelt();
    expect(await sms.status()).toMatchObject({
      error: 'Textbelt could not be reached: ECONNREFUSED',
      failure: { code: 'sms.connection', detail: 'ECONNREFUSED' },
    });
  });
});

describe('tests never reach the internet', () => {
  it('under NODE_ENV=test only a Textbelt on this machine is asked', () => {
    const at = (url: string, nodeEnv = 'test') => gatewayUrl({ nodeEnv, textbeltUrl: url });
    expect(at('https://textbelt.com')).toBeNull();
    expect(at('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000');
    expect(at('http://localhost:4000/')).toBe('http://localhost:4000/');
    expect(at('http://10.0.0.8')).toBeNull();
    expect(at('https://textbelt.com', 'production')).toBe('https://textbelt.com');
    expect(at('https://textbelt.com', 'development')).toBe('https://textbelt.com');
  });

  it('with the default TEXTBELT_URL a key set in a test leaves messages in the outbox', async () => {
    const plain = await createTestApp();
    try {
      const staff = await asAdmin(plain);
      const put = (url: string, payload: object) =>
        plain.app.inject({ method: url.includes('update') ? 'PUT' : 'POST', url, payload, headers: { cookie: staff.cookie } });
      await put('/api/admin/update-textbelt-token-by-id/1', { token: KEY });
      expect((await put('/api/admin/send-textbelt-test-sms', { phone: '+12125550100' })).json().message.status).toBe('outbox');
      expect(await plain.app.deps.services.sms.status()).toEqual({ configured: false, quotaRemaining: null, error: null, failure: null });
    } finally {
      await plain.close();
    }
  });
});
