import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api/index.ts';
import type { RouteContract } from '../../../contract/api/types.ts';
import { asAdmin, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';

// The published description: the same contract schemas, as OpenAPI 3.1, for staff. Every route
// of the contract must be in it with its answers, so an integrator can rely on it.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('GET /api/docs', () => {
  it('is for staff only', async () => {
    expect((await ctx.app.inject({ url: '/api/docs' })).statusCode).toBe(401);
    const provider = await makeUser(ctx, { status: 'approved' });
    expect((await ctx.app.inject({ url: '/api/docs', headers: { cookie: provider.cookie } })).statusCode).toBe(403);
  });

  it('describes every route of the contract, with its parameters, body and answers, and nothing outside /api', async () => {
    const admin = await asAdmin(ctx);
    const res = await ctx.app.inject({ url: '/api/docs', headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, { responses?: Record<string, unknown>; requestBody?: unknown; parameters?: { in: string; name: string }[] }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const problems: string[] = [];
    for (const [route, contract] of Object.entries(API as Record<string, RouteContract>)) {
      if (route === 'GET /api/ws') continue; // a WebSocket upgrade: its messages are contract/events.ts, not OpenAPI
      const [method, path] = route.split(' ');
      const op = doc.paths[openApiPath(path)]?.[method.toLowerCase()];
      if (!op) {
        problems.push(`${route}: missing`);
        continue;
      }
      for (const status of Object.keys(contract.response)) if (!op.responses?.[status.toUpperCase()]) problems.push(`${route}: answer ${status} missing`);
      if (contract.body && !op.requestBody) problems.push(`${route}: body missing`);
      for (const name of Object.keys((contract.params as { properties?: object } | undefined)?.properties ?? {})) {
        if (!op.parameters?.some((p) => p.in === 'path' && p.name === name)) problems.push(`${route}: path parameter ${name} missing`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'))).toEqual([]);
  });
});
