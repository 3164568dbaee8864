import { HttpResponse } from 'msw';
import Value from 'typebox/value';
import type { TSchema } from 'typebox';
import { API, type ApiRoute } from '../../contract/api/index.ts';
import type { ResponseOf, RouteContract } from '../../contract/api/types.ts';

/**
 * An msw answer that the real server could send: the body is checked against the route's
 * response schema in the contract (every object closed, so a field the server would never send
 * fails too). A fixture that drifts from the server fails the test that uses it.
 */
type ClassKey<S extends number> = `${S}` extends `${infer D}${string}` ? `${D}xx` : never;
/** The answer with status S: the route's own schema for it, else its class (`4xx`, `5xx`). */
type AnswerOf<R, S extends number> = [ResponseOf<R, S>] extends [never] ? ResponseOf<R, ClassKey<S>> : ResponseOf<R, S>;

export function apiJson<R extends ApiRoute, S extends number = 200>(route: R, body: AnswerOf<(typeof API)[R], S>, status: S = 200 as S) {
  const responses = (API[route] as RouteContract).response as Record<string | number, TSchema>;
  const schema = responses[status] ?? responses[`${String(status)[0]}xx`];
  if (!schema) throw new Error(`${route} declares no answer with status ${status}`);
  const closed = closeObjects(schema);
  if (!Value.Check(closed, body)) {
    const first = [...Value.Errors(closed, body)].slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new Error(`fixture for ${route} (${status}) is not an answer the server could send: ${first.join('; ')}`);
  }
  return HttpResponse.json(body as object, { status });
}

function closeObjects<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(closeObjects) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = closeObjects(v);
  if ((out.type === 'object' || out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out as T;
}
