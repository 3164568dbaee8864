import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../test/harness.ts';
import { urlForLog } from '../app.ts';

let ctx: TestContext | null = null;
afterEach(async () => {
  await ctx?.close();
  ctx = null;
});

describe('the request log', () => {
  it('masks the secrets of e-mailed links (reset, e-mail confirmation, unsubscribe) and keeps the rest of the URL', () => {
    expect(urlForLog('/auth/reset-password?token=abc-DEF_123')).toBe('/auth/reset-password?token=[redacted]');
    expect(urlForLog('/es/unsubscribe?u=u123&t=0f9e&x=1')).toBe('/es/unsubscribe?u=u123&t=[redacted]&x=1');
    expect(urlForLog('/api/search?query=tall+brunette&page=2')).toBe('/api/search?query=tall+brunette&page=2');
  });

  it('a password-reset link followed, as logged at LOG_LEVEL=info, shows no token', async () => {
    let logged = '';
    const stream = new Writable({
      write(chunk, _e, cb) {
        logged += String(chunk);
        cb();
      },
    });
    ctx = await createTestApp({ logger: { level: 'info', stream } });
    const ann = await makeUser(ctx, { status: 'approved' });
    expect((await ctx.app.inject({ method: 'POST', url: '/api/password-reset-request', payload: { email: ann.email } })).statusCode).toBe(202);
    await new Promise((r) => setTimeout(r, 20)); // the mail goes after the answer
    const link = /https?:\/\/\S*reset-password\?token=([\w-]+)/.exec(ctx.mailer.sent.at(-1)!.text)!;
    const page = new URL(link[0]);
    await ctx.app.inject({ method: 'GET', url: page.pathname + page.search });
    expect(logged).toContain('/auth/reset-password?token=[redacted]');
    expect(logged).not.toContain(link[1]);
  });
});
