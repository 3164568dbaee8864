import type {
  FastifyBaseLogger,
  FastifyRequest,
  FastifyInstance,
  FastifyPluginAsync,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from './deps.ts';

export type TypedApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** A module's routes: a plugin that gets a TypeBox-typed Fastify instance and the app's dependencies. */
export function defineRoutes(fn: (app: TypedApp, deps: AppDeps) => Promise<void> | void): FastifyPluginAsync<AppDeps> {
  return async (app, deps) => {
    await fn(app.withTypeProvider<TypeBoxTypeProvider>(), deps);
  };
}

/** Page size rules shared by every paginated list: page ≥ 1, pageSize 1–100. */
export function paging(q: { page?: number; pageSize?: number }, defaultSize = 20): { page: number; pageSize: number; offset: number } {
  const page = Math.max(1, Math.floor(q.page ?? 1));
  const pageSize = Math.min(100, Math.max(1, Math.floor(q.pageSize ?? defaultSize)));
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** The language of the page that sent the request (X-Locale, set by our client), else null. */
export function pageLocale(request: FastifyRequest): 'en' | 'es' | 'pt' | null {
  const v = request.headers['x-locale'];
  return v === 'en' || v === 'es' || v === 'pt' ? v : null;
}

/** The page's language, else the browser's first of ours (Accept-Language), else English. */
export function requestLocale(request: FastifyRequest): 'en' | 'es' | 'pt' {
  const explicit = pageLocale(request);
  if (explicit) return explicit;
  for (const part of String(request.headers['accept-language'] ?? '')
    .toLowerCase()
    .split(',')) {
    const lang = part.trim().slice(0, 2);
    if (lang === 'es' || lang === 'pt' || lang === 'en') return lang;
  }
  return 'en';
}

/**
 * The path of a request URL as the router reads it (percent-escapes decoded, no query string):
 * `/%61pi/health` is routed as `/api/health`, so whatever decides by the path (the per-IP limit on
 * /api, the header set, the site's own 404s) must read it so too. Most URLs hold no escape and
 * cost one scan.
 */
export function routedPath(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // a malformed escape: the router refuses it (400) whatever we decide here
  }
}

export const isApiPath = (url: string): boolean => url.startsWith('/api/') || routedPath(url).startsWith('/api/');
