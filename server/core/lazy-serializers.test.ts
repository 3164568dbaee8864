import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/harness.ts';
import { LazySerializers } from './lazy-serializers.ts';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('response serializers compiled on first use', () => {
  it('compiles a route’s serializer on its first answer, once, and still writes only the schema’s fields', async () => {
    const serializers = new LazySerializers();
    const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: serializers.factory } } });
    const response = { 200: { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } }, required: ['id'] } };
    app.get('/a', { schema: { response } }, async () => ({ id: 'a1', n: 2, passwordHash: 'secret', n2: 3 }));
    app.get('/b', { schema: { response } }, async () => ({ id: 'b1', n: '7' }));
    await app.ready();
    expect(serializers.compiled).toBe(0);

    const first = await app.inject({ url: '/a' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('{"id":"a1","n":2}');
    expect(serializers.compiled).toBe(1);
    // Coerced as fast-json-stringify does ("7" → 7), proof that it is the compiled function.
    expect((await app.inject({ url: '/b' })).body).toBe('{"id":"b1","n":7}');
    expect((await app.inject({ url: '/a' })).body).toBe('{"id":"a1","n":2}');
    expect(serializers.compiled).toBe(2);
    // Fastify made a HEAD route beside each GET, with its own serializer, never used so far.
    expect(serializers.compileAll()).toBe(4);
    expect(serializers.compiled).toBe(4);
    await app.close();
  });

  it('compileAll compiles a schema fast-json-stringify refuses, so the tests see it fail', async () => {
    const serializers = new LazySerializers();
    const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: serializers.factory } } });
    app.get('/broken', { schema: { response: { 200: { $ref: 'nowhere#' } } } }, async () => ({}));
    await app.ready(); // no longer refused at start…
    expect(() => serializers.compileAll()).toThrow(); // …but here
    await app.close();
  });

  it('every response schema of the whole app compiles', async () => {
    ctx = await createTestApp();
    let expected = 0;
    for (const schema of ctx.app.routeSchemas.values()) expected += Object.keys((schema as { response?: object } | undefined)?.response ?? {}).length;
    expect(expected).toBeGreaterThan(100);
    expect(ctx.app.compileSerializers()).toBe(expected);
  });
});
