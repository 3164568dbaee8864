import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../test/harness.ts';
import { DEFAULT_LIMITS } from './deps.ts';

// An install put behind a reverse proxy (the README names nginx) without TRUST_PROXY sees every
// visitor as the proxy's address: the whole site becomes one shared address for the per-IP limits.
// The first request that names a client in a proxy's header tells the operator, once.

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

/** A line of the log, as pino writes it. */
type Line = { level: number; msg: string; header?: string; proxy?: string };

/** An app whose warnings are kept, read back as lines. */
async function appLogging(env: Record<string, string> = {}): Promise<{ c: TestContext; lines: () => Line[] }> {
  let logged = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      logged += String(chunk);
      done();
    },
  });
  ctx = await createTestApp({ limits: { ...DEFAULT_LIMITS }, env, logger: { level: 'warn', stream } });
  const lines = () =>
    logged
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
  return { c: ctx, lines };
}
const aboutProxy = (lines: Line[]) => lines.filter((l) => l.msg.includes('TRUST_PROXY'));

describe('a proxy in front, TRUST_PROXY unset', () => {
  // Moved from a probe (round 11): eleven customers through nginx, one "address", and nothing logged.
  it('behind a proxy without TRUST_PROXY, the operator is warned that every visitor shares the proxy’s address', async () => {
    const { c, lines } = await appLogging();
    const users: TestUser[] = [];
    for (let i = 0; i < 11; i++) users.push(await makeUser(c, { status: 'approved' }));
    for (const [i, u] of users.entries()) {
      await c.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: u.email, password: u.password },
        remoteAddress: '127.0.0.1', // nginx on the same machine
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}`, 'x-forwarded-proto': 'https' },
      });
    }
    const warned = aboutProxy(lines());
    expect(warned).toHaveLength(1); // once, not once a request
    expect(warned[0]).toMatchObject({ level: 40, header: 'x-forwarded-for', proxy: '127.0.0.1' });
    expect(warned[0].msg).toMatch(/TRUST_PROXY is unset: every visitor has the proxy's address/);
    expect(JSON.stringify(warned[0])).not.toContain('198.51.100'); // the client's address is not logged
  });

  it('warns for Forwarded and X-Real-IP too, and not for a request naming no client', async () => {
    for (const header of ['forwarded', 'x-real-ip']) {
      const { c, lines } = await appLogging();
      expect((await c.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBeLessThan(500);
      expect(aboutProxy(lines())).toEqual([]);
      const value = header === 'forwarded' ? 'for=198.51.100.1;proto=https' : '198.51.100.1';
      await c.app.inject({ method: 'GET', url: '/', headers: { [header]: value } });
      await c.app.inject({ method: 'GET', url: '/', headers: { [header]: value } });
      expect(aboutProxy(lines()).map((l) => l.header)).toEqual([header]);
      await ctx!.close();
      ctx = undefined;
    }
  });
});

describe('TRUST_PROXY set', () => {
  it('logs nothing, and each customer behind the proxy is an address of their own', async () => {
    const { c, lines } = await appLogging({ TRUST_PROXY: '1' });
    const users: TestUser[] = [];
    for (let i = 0; i < 11; i++) users.push(await makeUser(c, { status: 'approved' }));
    const statuses: number[] = [];
    for (const [i, u] of users.entries()) {
      const r = await c.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: u.email, password: u.password },
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}`, 'x-real-ip': `198.51.100.${i + 1}`, forwarded: `for=198.51.100.${i + 1}` },
      });
      statuses.push(r.statusCode);
    }
    expect(statuses).toEqual(Array(11).fill(200));
    expect(aboutProxy(lines())).toEqual([]);
  });
});
