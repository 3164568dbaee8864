import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type preValidationHookHandler } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import AjvCompiler, { type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './core/config.ts';
import { systemClock, type Clock } from './core/clock.ts';
import type { Database_ } from './core/db.ts';
import { createMailer, type Mailer } from './core/mailer.ts';
import { createPasswordHasher, type PasswordHasher } from './core/passwords.ts';
import { Hub } from './core/realtime.ts';
import { LoadGauge, type Load } from './core/load.ts';
import { authPlugin } from './core/auth.ts';
import { apiSecurityHeaders, securityHeaders } from './core/security-headers.ts';
import { AppError, Invalid, errorBody, ruleWords, schemaRule, sendError } from './core/errors.ts';
import { LazySerializers } from './core/lazy-serializers.ts';
import { isApiPath } from './core/http.ts';
import { clientErrorHandler, namesPage, refusedPages, type RefusedAddress } from './core/client-errors.ts';
import { isSocketHandshake } from './core/upgrade.ts';
import { lazyChildLogger } from './core/logging.ts';
import { finiteKeyword, refuseUnknownProperties, requireFiniteNumbers } from './core/strict-schema.ts';
import { DEFAULT_LIMITS, type AppDeps, type Limits } from './core/deps.ts';
import { modules } from './modules/index.ts';
import { buildServices, type Services } from './services.ts';

export interface BuildOptions {
  config: Readonly<Config>;
  database: Database_;
  clock?: Clock;
  mailer?: Mailer;
  hasher?: PasswordHasher;
  limits?: Partial<Limits>;
  /** The event loop's load gauge (default: a LoadGauge of this process; tests pass NEVER_BUSY). */
  load?: Load;
  /** Where the built client lives; defaults to ./dist when it exists. */
  distDir?: string | null;
  logger?: boolean | object;
}

/** routeSchemas: the schema each "METHOD /url" was registered with (checked against the contract). */
/** compileSerializers: compiles every response serializer now (each is otherwise compiled on first use); returns how many. */
export type App = FastifyInstance & { deps: AppDeps; routeSchemas: ReadonlyMap<string, unknown>; compileSerializers(): number };

/** Fastify's and @fastify/multipart's codes for a body or form past a limit (server/core/multipart.ts MULTIPART_LIMITS). */
const TOO_LARGE = new Set(['FST_ERR_CTP_BODY_TOO_LARGE', 'FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

const DEFAULT_DIST = path.resolve(import.meta.dirname, '../dist');

/**
 * Query parameters that carry a secret (a password-reset or e-mail link's token, an unsubscribe
 * link's signature, a password or code someone put in a URL): never logged. Names are compared as
 * the query parser reads them: decoded and in any case (`TOKEN=`, `%74oken=`).
 */
const SECRET_PARAMS = new Set(['token', 't', 'password', 'newpassword', 'currentpassword', 'code']);
const paramName = (raw: string) => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
};
export function urlForLog(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&');
  let masked = false;
  for (let i = 0; i < parts.length; i++) {
    const eq = parts[i].indexOf('=');
    if (eq >= 0 && SECRET_PARAMS.has(paramName(parts[i].slice(0, eq)))) {
      parts[i] = `${parts[i].slice(0, eq)}=[redacted]`;
      masked = true;
    }
  }
  return masked ? `${url.slice(0, q)}?${parts.join('&')}` : url;
}

/** The request as each log line shows it: Fastify's default fields, with the URL's secrets masked. */
function withLogSerializers(logger: boolean | object): boolean | object {
  if (typeof logger !== 'object') return logger;
  const req = (r: FastifyRequest) => ({ method: r.method, url: urlForLog(r.url), host: r.host, remoteAddress: r.ip, remotePort: r.socket?.remotePort });
  return { ...logger, serializers: { req, ...(logger as { serializers?: object }).serializers } };
}

/**
 * Fastify's own validator compiler, one Ajv for a JSON body and one for the rest. Ajv coerces
 * types by default, which a query string and a path need (all text: `page=2`) but a JSON body
 * must not have: it turned `{"priceCents": null}` into 0 (a cleared form field: every ad free),
 * `true` into 1, `"0x3e8"` into 1000, `[500]` into 500 and `{"online": null}` into false. A body
 * is taken as it was written; anything else of the wrong type is refused (400 validation.invalid).
 */
function validatorsByPart(): { buildValidator: BuildCompilerFromPool } {
  const pool = AjvCompiler();
  return {
    buildValidator: (externalSchemas, options) => {
      const text = pool(externalSchemas, options);
      // Every route's schema is plain JSON Schema (TypeBox), never JTD.
      const ajv = options as { customOptions?: object; plugins?: unknown[] } | undefined;
      const json = pool(externalSchemas, { ...ajv, customOptions: { ...ajv?.customOptions, coerceTypes: false } } as typeof options);
      return (route) => (route.httpPart === 'body' ? json : text)(route);
    },
  };
}

/**
 * Whether every charset parameter of a Content-Type names UTF-8 (or there is none). JSON is UTF-8
 * (RFC 8259 §8.1); a body declared in another charset (`charset=iso-8859-1`) would otherwise be read
 * as UTF-8 and its letters replaced by U+FFFD. Every charset parameter counts, so a repeated one
 * (`charset=utf-8; charset=latin1`) cannot hide the other.
 */
export function declaresUtf8(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.indexOf(';') < 0) return true;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let value = param.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value.toLowerCase() !== 'utf-8') return false;
  }
  return true;
}

/** Decodes strict UTF-8: a byte run that is not UTF-8 throws instead of becoming U+FFFD. A leading BOM is dropped. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Fastify's JSON parser, with the body's bytes checked first: a charset other than UTF-8 is
 * refused (415 request.unsupported_media_type) and a body that is not valid UTF-8 is not JSON
 * (400 request.invalid_json), where Fastify's own decoded both as UTF-8 with U+FFFD in place of
 * what it could not read (a report's names stored destroyed, with no one told). The parse itself
 * is Fastify's, with the same __proto__/constructor poisoning refusals; the body limit is the app's.
 */
function strictJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (!declaresUtf8(request.headers['content-type'])) return done(new AppError(415, 'request.unsupported_media_type'), undefined);
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      return done(new AppError(400, 'request.invalid_json'), undefined);
    }
    // Only a body that escapes a surrogate ("\ud83d") can hold half of a pair: strict UTF-8 has none.
    if (!ESCAPED_SURROGATE.test(text)) return void parse(request, text, done); // calls done itself (Fastify's parser returns nothing)
    void parse(request, text, (err, value) => {
      const field = err ? null : loneSurrogateAt(value, '');
      if (field !== null)
        return done(new Invalid(field || 'input', 'validation.invalid', { reason: ruleWords({ rule: 'format' }), rule: 'format' }), undefined);
      done(err, value);
    });
  });
}

const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
/** Half of a UTF-16 pair: in a well-formed string a pair is read as one code point, never matched here. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Where a parsed JSON value holds half of a UTF-16 pair ("\ud83d" alone): the dotted path of the
 * first such string ('' for the body itself or a key at its top), or null. UTF-8 cannot hold it:
 * SQLite would store U+FFFD, so a report's, a note's or a nickname's text would come back as "�"
 * where its author wrote something else. Refused as the multipart reader refuses it (textField).
 */
function loneSurrogateAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, v] of Object.entries(value)) {
    if (LONE_SURROGATE.test(key)) return path;
    const found = loneSurrogateAt(v, path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

/** An object schema with no properties: a body that carries nothing (`Type.Object({})`). */
function namesNoField(schema: unknown): boolean {
  const s = schema as { type?: unknown; properties?: object; patternProperties?: unknown; additionalProperties?: unknown } | undefined;
  return (
    s?.type === 'object' &&
    Object.keys(s.properties ?? {}).length === 0 &&
    s.patternProperties === undefined &&
    (s.additionalProperties === undefined || s.additionalProperties === false)
  );
}

/** A missing body, as an empty object (preValidation of the routes whose body names nothing). */
const emptyBodyAsObject: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined) request.body = {};
  done();
};

/** The headers a reverse proxy names the client in (any of them with TRUST_PROXY unset: buildApp warns). */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/** Builds the whole application; never listens (tests call it, main.ts listens). */
export async function buildApp(opts: BuildOptions): Promise<App> {
  const { config } = opts;
  const serializers = new LazySerializers();
  const pageHeaders = securityHeaders(config);
  const apiHeaders = apiSecurityHeaders(config);
  const headersFor = (url: string) => (isApiPath(url) ? apiHeaders : pageHeaders);
  const refusedPage = refusedPages();
  const app = Fastify({
    logger: withLogSerializers(opts.logger ?? { level: config.logLevel }),
    childLoggerFactory: lazyChildLogger,
    bodyLimit: 1024 * 1024, // 1 MB JSON bodies (PRODUCT §11); multipart has its own limits
    trustProxy: config.trustProxy,
    // Only a WebSocket handshake to /api/ws leaves HTTP; any other `Upgrade:` request is served as
    // plain HTTP, so Node keeps timing out and closing its connection (see core/upgrade.ts).
    http: { shouldUpgradeCallback: isSocketHandshake },
    // A request Node's parser refuses (oversized headers, a malformed line) gets a coded error body.
    clientErrorHandler: clientErrorHandler(apiHeaders),
    routerOptions: { ignoreTrailingSlash: true },
    // Unknown properties are refused, not silently dropped (Fastify's default removes them).
    ajv: { customOptions: { removeAdditional: false }, plugins: [finiteKeyword as never] },
    schemaController: { compilersFactory: { ...validatorsByPart(), buildSerializer: serializers.factory } },
    // The router's own refusals (a malformed percent-escape, a path parameter past maxParamLength)
    // never reach setErrorHandler nor the onRequest hooks: without this they answer Fastify's body
    // ({error, code: FST_ERR_BAD_URL, statusCode}), which the client cannot translate. A page's
    // address (a link a chat app cut mid-escape) gets a page in its language, not the API's JSON.
    frameworkErrors: (error, request, reply) => {
      reply.headers(headersFor(request.url));
      const refused = (status: number, code: RefusedAddress) => {
        if (!namesPage(request.url)) return sendError(reply, status, code);
        const page: FastifyReply = reply; // as sendError takes it (frameworkErrors types it by a schema it has none of)
        page.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(refusedPage(request.url, code));
      };
      if (error.code === 'FST_ERR_BAD_URL') refused(400, 'request.malformed_url');
      else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') refused(414, 'request.url_too_long');
      else {
        request.log.error({ err: error }, 'router error');
        sendError(reply, 500, 'server.error');
      }
    },
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
    load: opts.load ?? new LoadGauge(),
    log: app.log,
    distDir,
    services: null as unknown as Services, // built just below: services take the deps they live in
  };
  deps.services = buildServices(deps);
  app.decorate('deps', deps);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendError(reply, error.statusCode, error.code, error.params);
    if (error.validation && error.validation.length) {
      const v = error.validation[0];
      const extra = (v.params as { additionalProperty?: string })?.additionalProperty;
      if (extra) return sendError(reply, 400, 'validation.unknown_field', { field: extra });
      const missing = (v.params as { missingProperty?: string })?.missingProperty;
      const path = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
      // A field missing at any depth names its whole path (text.en), as a bad value does.
      if (missing) return sendError(reply, 400, 'validation.required', { field: path ? `${path}.${missing}` : missing });
      const field = path || missing || error.validationContext || 'input';
      const rule = schemaRule(v);
      if (rule) return sendError(reply, 400, 'validation.invalid', { field, reason: ruleWords(rule), ...rule });
      return sendError(reply, 400, 'validation.invalid', { field, reason: v.message ?? 'bad value' });
    }
    const code = error.code;
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400))
      return sendError(reply, 400, 'request.invalid_json');
    if (code === 'FST_INVALID_JSON_FIELD_ERROR') return sendError(reply, 400, 'request.invalid_json'); // a multipart field declared JSON
    if (code !== undefined && TOO_LARGE.has(code)) return sendError(reply, 413, 'request.too_large');
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendError(reply, 415, 'request.unsupported_media_type');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return sendError(reply, 400, 'request.multipart_expected');
    if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return sendError(reply, 400, 'request.length_mismatch');
    // A form cut short, or a field named __proto__: the parser's English reason must not reach the page.
    if (code === 'FST_MP_PREMATURE_CLOSE' || code === 'FST_PROTO_VIOLATION') return sendError(reply, 400, 'request.malformed_upload');
    const status = error.statusCode ?? 500;
    if (status === 429) return sendError(reply, 429, 'request.rate_limited');
    if (status === 404) return sendError(reply, 404, 'request.not_found');
    if (status >= 400 && status < 500) {
      request.log.warn({ err: error }, 'client error without a code');
      return sendError(reply, status, 'validation.invalid', { field: 'request', reason: error.message || 'bad request' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, 'server.error');
  });

  strictJsonBodies(app);

  // Behind a reverse proxy without TRUST_PROXY, every visitor has the proxy's address, and the
  // per-IP limits (10 sign-ins per 15 minutes…) hold for the whole site at once: a request naming
  // a client in a proxy's header shows that mistake, and the operator is told, once. With
  // TRUST_PROXY set there is nothing to tell; once told, a request pays one boolean check.
  let proxyWarned = config.trustProxy !== false;
  // Callback style, not async: an async hook costs a promise and a microtask turn on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headersFor(request.url));
    if (!proxyWarned) {
      const header = PROXY_HEADERS.find((h) => request.headers[h] !== undefined);
      if (header) {
        proxyWarned = true;
        app.log.warn(
          { header, proxy: request.ip },
          `a request came through a proxy (it carries ${header}) but TRUST_PROXY is unset: every visitor has the proxy's address, so the per-IP limits (sign-ins, sign-ups, reports, resets) are shared by all of them. Set TRUST_PROXY (1 for a proxy on this machine, else the proxies' addresses) and have the proxy send X-Forwarded-For: each client's own address is read from it (logged once)`,
        );
      }
    }
    done();
  });
  if (deps.limits.apiPerMinute > 0) {
    await app.register(rateLimit, {
      max: deps.limits.apiPerMinute,
      timeWindow: '1 minute',
      allowList: (req) => !isApiPath(req.url),
      errorResponseBuilder: () => ({ statusCode: 429, ...errorBody('request.rate_limited') }),
    });
  }
  // Body and query schemas refuse unknown properties, for every route (see strict-schema.ts).
  const routeSchemas = new Map<string, unknown>();
  app.decorate('routeSchemas', routeSchemas);
  app.decorate('compileSerializers', () => serializers.compileAll());
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { body?: unknown; querystring?: unknown; params?: unknown } | undefined;
    for (const method of [route.method].flat()) routeSchemas.set(`${method} ${route.url}`, schema);
    if (schema?.body) refuseUnknownProperties(schema.body);
    // A route whose body names nothing (create-promo-wallet, run-health-check …) takes a POST
    // without a body as `{}`, as PRODUCT §7 lists them: `curl -X POST`, fetch(url, {method: 'POST'}).
    // A body sent is still parsed and validated (unknown fields, non-JSON refused).
    if (namesNoField(schema?.body)) route.preValidation = [emptyBodyAsObject, ...[route.preValidation ?? []].flat()];
    if (schema?.querystring) refuseUnknownProperties(schema.querystring);
    requireFiniteNumbers(schema?.querystring);
    requireFiniteNumbers(schema?.params);
  });
  await app.register(authPlugin, deps);
  // Before any route: it reads each route's schema as it is registered (GET /api/docs serves it).
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'XG Marketplace API',
        version: '1',
        description: 'Every /api route: the schemas of contract/api. Errors answer {message, code, params?}.',
      },
    },
    transform: ({ schema, url }) => ({ schema: url.startsWith('/api/') ? schema : { ...schema, hide: true }, url }),
  });

  for (const mod of modules) await app.register(mod, deps);

  app.setNotFoundHandler((_request, reply) => {
    sendError(reply, 404, 'request.not_found');
  });

  app.addHook('onClose', async () => {
    deps.hub.closeAll();
    deps.load.close();
  });

  return app as unknown as App;
}
