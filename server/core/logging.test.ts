import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../test/harness.ts';
import Fastify from 'fastify';
import { urlForLog } from '../app.ts';
import { lazyChildLogger } from './logging.ts';

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

  // The query parser reads `TOKEN=` and `%74oken=` as token too; and a password someone put in a
  // URL (a hand-made DELETE /api/delete-my-profile?password=…) must not reach the log either.
  it('masks secret parameters however their names are written, and passwords put in a URL', () => {
    expect(urlForLog('/auth/reset-password?TOKEN=abc')).toBe('/auth/reset-password?TOKEN=[redacted]');
    expect(urlForLog('/auth/reset-password?%74oken=abc&x=1')).toBe('/auth/reset-password?%74oken=[redacted]&x=1');
    expect(urlForLog('/api/delete-my-profile?confirm=true&password=hunter2%20x')).toBe('/api/delete-my-profile?confirm=true&password=[redacted]');
    expect(urlForLog('/api/x?newPassword=a&currentPassword=b&code=123456')).toBe('/api/x?newPassword=[redacted]&currentPassword=[redacted]&code=[redacted]');
    expect(urlForLog('/api/x?%E0%A4%A=1&tokens=keep')).toBe('/api/x?%E0%A4%A=1&tokens=keep'); // an undecodable name, a longer one: kept
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

describe("a request's logger", () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _e, cb) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
        cb();
      },
    });
    return { lines, stream };
  };

  it('is made only when the request logs at an enabled level: a public read at the default level makes none', async () => {
    const { lines, stream } = capture();
    ctx = await createTestApp({ logger: { level: 'warn', stream } });
    const child = vi.spyOn(ctx.app.log, 'child');
    for (let i = 0; i < 5; i++) expect((await ctx.app.inject({ method: 'GET', url: '/api/home' })).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it("a warning carries the request's id, as pino's own child wrote it, and the child is made once", async () => {
    const { lines, stream } = capture();
    // A bare Fastify with the app's factory: a route of the test's own that logs.
    const app = Fastify({ logger: { level: 'warn', stream }, childLoggerFactory: lazyChildLogger });
    try {
      app.get('/logs', (request, reply) => {
        request.log.info('not written at warn');
        request.log.warn({ n: 1 }, 'first');
        request.log.error({ n: 2 }, 'second');
        reply.send({ id: request.id, bindings: (request.log as unknown as { bindings(): object }).bindings() });
      });
      app.get('/silent', (_request, reply) => reply.send('ok'));
      await app.ready();
      const child = vi.spyOn(app.log, 'child');
      const answer = await app.inject({ method: 'GET', url: '/logs' });
      expect(child).toHaveBeenCalledTimes(1);
      expect(answer.json()).toEqual({ id: expect.any(String), bindings: { reqId: answer.json().id } });
      expect(lines.map((l) => [l.msg, l.level, l.n, l.reqId])).toEqual([
        ['first', 40, 1, answer.json().id],
        ['second', 50, 2, answer.json().id],
      ]);
      await app.inject({ method: 'GET', url: '/silent' });
      expect(child).toHaveBeenCalledTimes(1);
    } finally {
      await app.close();
    }
  });

  it('at LOG_LEVEL=info every request logs its coming and its answer with its id and masked URL', async () => {
    const { lines, stream } = capture();
    ctx = await createTestApp({ logger: { level: 'info', stream } });
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/home?token=secret' });
    const incoming = lines.find((l) => l.msg === 'incoming request') as { reqId: string; req: { url: string } } | undefined;
    const done = lines.find((l) => l.msg === 'request completed') as { reqId: string; res: { statusCode: number } } | undefined;
    expect(incoming?.req.url).toBe('/api/home?token=[redacted]');
    expect(done?.reqId).toBe(incoming?.reqId);
    expect(done?.res.statusCode).toBe(answer.statusCode);
  });

  it('leaves a route with a log level of its own to pino', () => {
    const { stream } = capture();
    const app = Fastify({ logger: { level: 'warn', stream } });
    const made = lazyChildLogger(app.log, { reqId: 'r1' }, { level: 'debug' });
    expect(made.level).toBe('debug');
    const lazy = lazyChildLogger(app.log, { reqId: 'r2' }, {});
    expect(lazy.level).toBe('warn');
    expect((lazy.child({ more: 1 }) as unknown as { bindings(): object }).bindings()).toEqual({ reqId: 'r2', more: 1 });
  });
});
