import Fastify from 'fastify';
import type { AppDeps } from '../../core/deps.ts';
import { Hub } from '../../core/realtime.ts';
import { modules } from '../../modules/index.ts';

/** The parts of a route's schema the fuzzer reads (JSON Schema, as TypeBox writes it). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  additionalProperties?: boolean | JsonSchema;
}

export interface RouteSchema {
  params?: JsonSchema;
  querystring?: JsonSchema;
  body?: JsonSchema;
  consumes?: string[];
}

/**
 * Fastify 5 does not give a route's schema back (findRoute answers handler and params only), so
 * the schemas are read the way Fastify hands them out: an onRoute hook on a test-only instance
 * that registers the same modules, with the same dependencies, as buildApp. The caller compares
 * the routes seen here with the real app's, so a route registered outside the modules cannot
 * slip past unfuzzed.
 */
export async function readRouteSchemas(deps: AppDeps): Promise<Map<string, RouteSchema | null>> {
  const found = new Map<string, RouteSchema | null>();
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  // Only the schemas are wanted here: nothing is compiled (the real app's ajv options and keywords
  // are its own business, and the schema objects may already carry them).
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) found.set(`${method} ${route.url}`, (route.schema as RouteSchema | undefined) ?? null);
  });
  app.decorate('deps', deps);
  app.decorateRequest('user', null);
  // A hub of its own: closing this instance must not touch the real app's sockets.
  const own: AppDeps = { ...deps, hub: new Hub() };
  for (const mod of modules) await app.register(mod, own);
  await app.ready();
  await app.close();
  return found;
}
