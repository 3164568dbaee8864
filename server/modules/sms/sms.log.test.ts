import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { startFakeTextbelt, type FakeTextbelt } from '../../test/fakes/textbelt.ts';

// What the server logs of a text message. The log is shipped to collectors, kept past an account's
// erasure and readable by anyone with server access: it holds neither a verification code nor a
// phone number (personal data the product otherwise erases), only the number's last four digits.

const KEY = 'log_key_0001';
let ctx: TestContext | undefined;
let fake: FakeTextbelt | undefined;
afterEach(async () => {
  await ctx?.close();
  await fake?.stop();
  ctx = undefined;
  fake = undefined;
});

/** An app whose info log is read back as text, with Textbelt faked (and its key set when `withKey`). */
async function boot(withKey: boolean): Promise<{ c: TestContext; log: () => string }> {
  let logged = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged += String(chunk);
      done();
    },
  });
  fake = await startFakeTextbelt({ keys: { [KEY]: 100 } });
  ctx = await createTestApp({ env: { TEXTBELT_URL: fake.url }, logger: { level: 'info', stream } });
  if (withKey) {
    const admin = await asAdmin(ctx);
    await ctx.app.inject({ method: 'PUT', url: '/api/admin/update-textbelt-token-by-id/1', payload: { token: KEY }, headers: { cookie: admin.cookie } });
  }
  return { c: ctx, log: () => logged };
}

async function askCode(c: TestContext): Promise<void> {
  const ann = await makeUser(c, { status: 'approved' });
  const res = await c.app.inject({ method: 'POST', url: '/api/phone-verification', payload: { phone: '(212) 555-0123' }, headers: { cookie: ann.cookie } });
  expect(res.statusCode).toBe(202);
}

describe('the log of a verification text', () => {
  it('sent through Textbelt: names the number by its last four digits, never the code', async () => {
    const { c, log } = await boot(true);
    await askCode(c);
    const code = /\b(\d{6})\b/.exec(fake!.textsTo('+12125550123')[0])![1];
    const line = log()
      .split('\n')
      .find((l) => l.includes('text message sent through Textbelt'));
    expect(JSON.parse(line!)).toMatchObject({ to: '•••0123', status: 'accepted' });
    expect(log()).not.toContain(code);
    expect(log()).not.toMatch(/2125550123/);
  });

  it('written to the outbox (no key): the same', async () => {
    const { c, log } = await boot(false);
    await askCode(c);
    const line = log()
      .split('\n')
      .find((l) => l.includes('text message written to outbox'));
    expect(JSON.parse(line!)).toMatchObject({ to: '•••0123' });
    expect(log()).not.toMatch(/2125550123/);
  });
});
