import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract/api/index.ts';
import type { RouteContract } from '../../contract/api/types.ts';
import { createTestApp, type TestContext } from './harness.ts';
import { registeredRoutes, splitRoute } from './routes.ts';

// The contract (contract/api) is the one description of the API: every /api route the server
// registers is in it, every entry is registered, each registered route validates and answers with
// the contract's own schema objects, and every route declares its error answers.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('the API contract', () => {
  it('lists exactly the /api routes the server registers', () => {
    const registered = registeredRoutes(ctx.app).filter((r) => splitRoute(r).url.startsWith('/api/'));
    const declared = Object.keys(API);
    expect(
      registered.filter((r) => !declared.includes(r)),
      'registered but not in contract/api',
    ).toEqual([]);
    expect(
      declared.filter((r) => !registered.includes(r)),
      'in contract/api but not registered',
    ).toEqual([]);
  });

  it('gives every route its error answers, so a 4xx/5xx body keeps its code', () => {
    const missing = Object.entries(API as Record<string, RouteContract>)
      .filter(([route]) => route !== 'GET /api/ws')
      .filter(([, c]) => !c.response['4xx'] || !c.response['5xx'])
      .map(([route]) => route);
    expect(missing).toEqual([]);
  });

  it('is what the routes validate with', () => {
    for (const [route, contract] of Object.entries(API as Record<string, RouteContract>)) {
      const schema = ctx.app.routeSchemas.get(route) as Record<string, unknown> | undefined;
      for (const part of ['params', 'querystring', 'body', 'response'] as const) {
        expect(schema?.[part], `${route} ${part}`).toBe(contract[part]);
      }
    }
  });
});
