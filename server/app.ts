import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './core/config.ts';
import { systemClock, type Clock } from './core/clock.ts';
import type { Database_ } from './core/db.ts';
import { createMailer, type Mailer } from './core/mailer.ts';
import { createPasswordHasher, type PasswordHasher } from './core/passwords.ts';
import { Hub } from './core/realtime.ts';
import { authPlugin } from './core/auth.ts';
import { apiSecurityHeaders, securityHeaders } from './core/security-headers.ts';
import { AppError } from './core/errors.ts';
import { finiteKeyword, refuseUnknownProperties, requireFiniteNumbers } from './core/strict-schema.ts';
import { DEFAULT_LIMITS, type AppDeps, type Limits } from './core/deps.ts';
import { modules } from './modules/index.ts';

export interface BuildOptions {
  config: Readonly<Config>;
  database: Database_;
  clock?: Clock;
  mailer?: Mailer;
  hasher?: PasswordHasher;
  limits?: Partial<Limits>;
  /** Where the built client lives; defaults to ./dist when it exists. */
  distDir?: string | null;
  logger?: boolean | object;
}

export type App = FastifyInstance & { deps: AppDeps };

const DEFAULT_DIST = path.resolve(import.meta.dirname, '../dist');

/** Builds the whole application; never listens (tests call it, main.ts listens). */
export async function buildApp(opts: BuildOptions): Promise<App> {
  const { config } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024, // 1 MB JSON bodies (PRODUCT §11); multipart has its own limits
    trustProxy: process.env.TRUST_PROXY === '1',
    routerOptions: { ignoreTrailingSlash: true },
    // Unknown properties are refused, not silently dropped (Fastify's default removes them).
    ajv: { customOptions: { removeAdditional: false }, plugins: [finiteKeyword as never] },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const distDir = opts.distDir !== undefined ? opts.distDir : fs.existsSync(path.join(DEFAULT_DIST, 'index.html')) ? DEFAULT_DIST : null;
  const deps: AppDeps = {
    config,
    database: opts.database,
    db: opts.database.db,
    clock: opts.clock ?? systemClock,
    mailer: opts.mailer ?? createMailer(config, app.log),
    hasher: opts.hasher ?? createPasswordHasher(),
    hub: new Hub(),
    limits: { ...DEFAULT_LIMITS, ...opts.limits },
    log: app.log,
    distDir,
  };
  app.decorate('deps', deps);

  app.setErrorHandler((error: FastifyError & { field?: string }, request, reply) => {
    if (error instanceof AppError) return reply.status(error.statusCode).send({ message: error.message });
    if (error.validation && error.validation.length) {
      const v = error.validation[0];
      const extra = (v.params as { additionalProperty?: string })?.additionalProperty;
      if (extra) return reply.status(400).send({ message: `Unknown field: ${extra}.` });
      const field = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || (v.params as { missingProperty?: string })?.missingProperty || error.validationContext || 'input';
      return reply.status(400).send({ message: `Invalid ${field}: ${v.message ?? 'bad value'}.` });
    }
    const code = error.code;
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400))
      return reply.status(400).send({ message: 'The request body is not valid JSON.' });
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
      return reply.status(413).send({ message: 'The request is too large.' });
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.status(415).send({ message: 'Unsupported content type.' });
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return reply.status(400).send({ message: 'Expected a multipart form.' });
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ message: 'Too many requests. Please wait and try again.' });
    if (status >= 400 && status < 500) return reply.status(status).send({ message: error.message || 'Bad request.' });
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Something went wrong.' });
  });

  const pageHeaders = securityHeaders(config);
  const apiHeaders = apiSecurityHeaders(config);
  // Callback style, not async: an async hook costs a promise and a microtask turn on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : pageHeaders);
    done();
  });
  if (deps.limits.apiPerMinute > 0) {
    await app.register(rateLimit, {
      max: deps.limits.apiPerMinute,
      timeWindow: '1 minute',
      allowList: (req) => !req.url.startsWith('/api/'),
      errorResponseBuilder: () => ({ statusCode: 429, message: 'Too many requests. Please wait and try again.' }),
    });
  }
  // Body and query schemas refuse unknown properties, for every route (see strict-schema.ts).
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { body?: unknown; querystring?: unknown; params?: unknown } | undefined;
    if (schema?.body) refuseUnknownProperties(schema.body);
    if (schema?.querystring) refuseUnknownProperties(schema.querystring);
    requireFiniteNumbers(schema?.querystring);
    requireFiniteNumbers(schema?.params);
  });
  await app.register(authPlugin, deps);

  for (const mod of modules) await app.register(mod, deps);

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: 'Not found.' });
  });

  app.addHook('onClose', async () => {
    deps.hub.closeAll();
  });

  return app as unknown as App;
}
