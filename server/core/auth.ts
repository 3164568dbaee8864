import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { Db, Trx } from './db.ts';
import type { Role, StaffRole, UserStatus } from './schema.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import { hasAccess, requiredAccess, type Access } from './access.ts';
import { AppError, Forbidden, Unauthorized } from './errors.ts';
import { pageLocale } from './http.ts';

export const COOKIE_NAME = 'XG.TOKEN';

export interface SessionUser {
  id: string;
  email: string;
  userStatus: UserStatus;
  userRoles: StaffRole[];
  tokenVersion: number;
  /** The language of the pages the user last used (e-mails to them are written in it); read with the session. */
  locale?: 'en' | 'es' | 'pt';
}

export interface SessionView {
  isAuthenticated: boolean;
  id?: string;
  email?: string;
  userStatus?: UserStatus;
  userRoles: Role[];
}

interface TokenPayload {
  id: string;
  email: string;
  userStatus: UserStatus;
  userRoles: StaffRole[];
  tv: number;
  iat: number;
  exp: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** A GET route that changes state (the seed's GET /api/logout): refused cross-site like a POST. */
    changesState?: boolean;
    /** A state-changing route called by another server, authenticated otherwise (a signed webhook). */
    allowCrossSite?: boolean;
  }
}

export function sessionView(user: SessionUser | null): SessionView {
  if (!user) return { isAuthenticated: false, userRoles: ['GUEST_USER'] };
  return { isAuthenticated: true, id: user.id, email: user.email, userStatus: user.userStatus, userRoles: user.userRoles };
}

/** Loads the live user for a token: status and roles come from the database on every request. */
export async function loadSessionUser(db: Db, userId: string): Promise<SessionUser | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'email', 'status', 'token_version', 'locale'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const roles = await db.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute();
  const order: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'];
  return {
    id: row.id,
    email: row.email,
    userStatus: row.status,
    userRoles: order.filter((r) => roles.some((x) => x.role === r)),
    tokenVersion: row.token_version,
    locale: row.locale,
  };
}

/**
 * The actor as the database says now, read inside a change's transaction: a request that passed the
 * session check just before a sign-out, password change, suspension, deletion or role change
 * committed acts with what is true now, not with the powers it came in with. 401 once the session
 * has ended since.
 */
export async function currentActor(db: Db, actor: SessionUser): Promise<SessionUser> {
  const now = await loadSessionUser(db, actor.id);
  if (!stillSignedIn(now, actor.tokenVersion)) throw new Unauthorized();
  return now;
}

/**
 * A write transaction on the actor's behalf, acting as the actor is now: its first read is
 * currentActor, inside the transaction, so a sign-out, suspension, deletion or demotion committed
 * while the request waited for the write lock refuses it (401) or leaves it the powers that remain
 * (`by`). A change made for a signed-in user begins so; a new service cannot forget the check.
 */
export function transactionAs<T>(db: Db, actor: SessionUser, work: (trx: Trx, by: SessionUser) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => work(trx, await currentActor(trx, actor)));
}

/** A session holds while its account is live and not suspended and its token is not older than the last sign-out or password change. */
function stillSignedIn(user: SessionUser | null, tokenVersion: unknown): user is SessionUser {
  return user !== null && user.userStatus !== 'suspended' && user.tokenVersion === tokenVersion;
}

/** The session cookie's user, by the rules above; null for a guest, a bad or stale token. */
/** The session cookie's verified payload; null when it is invalid or ran out, undefined without one. */
function cookiePayload(request: FastifyRequest, deps: AuthDeps): TokenPayload | null | undefined {
  const header = request.headers.cookie;
  const token = header ? parseCookie(header)[COOKIE_NAME] : undefined;
  if (!token) return undefined;
  return verifyJwt<TokenPayload>(token, deps.config.jwtSecret, Math.floor(deps.clock.now().getTime() / 1000));
}

function userOfCookie(request: FastifyRequest, deps: AuthDeps): Promise<SessionUser | null> | null {
  const payload = cookiePayload(request, deps);
  if (payload === undefined) return null;
  if (!payload || typeof payload.id !== 'string') return Promise.resolve(null);
  return loadSessionUser(deps.db, payload.id).then((user) => (stillSignedIn(user, payload.tv) ? user : null));
}

/** When the request's valid session cookie runs out (ms since the epoch); null without one. */
export function sessionExpiresAtMs(request: FastifyRequest, deps: AuthDeps): number | null {
  const payload = cookiePayload(request, deps);
  return payload ? payload.exp * 1000 : null;
}

export interface AuthDeps {
  config: Readonly<Config>;
  clock: Clock;
  db: Db;
}

/**
 * Issues the session cookie for a user. Needs the cookie plugin in the route's scope: it is
 * registered only where sessions start and end (auth, profile), since its onSend hook would
 * otherwise run on every response (~1 µs of a cached read's ~12).
 */
export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, deps: AuthDeps, user: SessionUser): void {
  reply.header('cache-control', PRIVATE); // for this browser alone (RFC 9111 §7.3)
  const iat = Math.floor(deps.clock.now().getTime() / 1000);
  const exp = iat + deps.config.sessionDays * 86400;
  const payload: TokenPayload = { id: user.id, email: user.email, userStatus: user.userStatus, userRoles: user.userRoles, tv: user.tokenVersion, iat, exp };
  reply.setCookie(COOKIE_NAME, signJwt(payload as unknown as Record<string, unknown>, deps.config.jwtSecret), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https:') || request.protocol === 'https',
    maxAge: deps.config.sessionDays * 86400,
  });
}

const EXPIRED_SESSION_COOKIE = stringifySetCookie({ name: COOKIE_NAME, value: '', path: '/', expires: new Date(0), sameSite: 'lax' });

/**
 * An answer that sets a cookie is for this browser alone: a shared cache would replay its
 * Set-Cookie to everyone it serves (RFC 9111 §7.3), a stale session's sign-out on a public report
 * for five minutes.
 */
const PRIVATE = 'private, no-store';

/** Expires the session cookie in the browser; works on any route (no cookie plugin needed). */
export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('set-cookie', EXPIRED_SESSION_COOKIE).header('cache-control', PRIVATE);
}

/**
 * Marks an answer cacheable by shared caches, unless it sets a cookie (the session hook expiring a
 * stale one on any /api answer): then it stays private. Every public /api answer is marked this way;
 * no hook on every answer (~1 µs of a cached read's ~12).
 */
export function publicCache(reply: FastifyReply, value: string): void {
  if (!reply.hasHeader('set-cookie')) reply.header('cache-control', value);
}

/**
 * Reads the session from the cookie and enforces default-deny access on every /api route. The
 * access a route needs is worked out once, when it is registered (onRoute), and the check is a
 * hook of that route alone: a request pays for no lookup, and pages, assets and unknown paths
 * (the 404 handler) pay for no session at all. Cookies are parsed here, only when the request
 * has any, with `cookie` (the parser @fastify/cookie itself uses; the plugin is not loaded here).
 */
export const authPlugin = fp(async function authPlugin(app: FastifyInstance, deps: AuthDeps) {
  app.decorateRequest('user', null);

  const ourOrigin = new URL(deps.config.publicUrl).origin;
  app.addHook('onRoute', (route) => {
    if (route.url !== '/api' && !route.url.startsWith('/api/')) return; // pages and assets need no session
    const hooks = [route.onRequest ?? []].flat();
    if (hooks.some((h) => h.name === 'sessionAndAccess')) return; // the HEAD twin of a GET inherits the GET's hooks
    const byMethod = new Map<string, Access>();
    for (const method of [route.method].flat()) byMethod.set(method, requiredAccess(method, route.url));
    const sameSiteOnly = (method: string) => !route.config?.allowCrossSite && (route.config?.changesState === true || !SAFE_METHODS.has(method));
    // HEAD must be safe: the HEAD twin of a GET that changes state (the seed's GET /api/logout)
    // would run its handler, so after the access check it is refused instead.
    const headRefused = route.config?.changesState === true;
    const check: onRequestHookHandler = function sessionAndAccess(request, reply, done) {
      const access = byMethod.get(request.method) ?? byMethod.get(request.method === 'HEAD' ? 'GET' : '') ?? 'user';
      if (sameSiteOnly(request.method) && !isSameOrigin(request, ourOrigin)) return done(new Forbidden('request.cross_site'));
      const finish = (error: Error | undefined) => {
        if (!error && headRefused && request.method === 'HEAD') {
          reply.header('allow', 'GET');
          return done(new AppError(405, 'request.method_not_allowed'));
        }
        done(error);
      };
      const pending = userOfCookie(request, deps);
      if (!pending) return finish(access === 'public' ? undefined : new Unauthorized());
      pending.then((user) => {
        // A suspended user, a deleted user or a token older than the last logout/password change is a guest.
        if (user) {
          request.user = user;
          // Private and staff answers must not sit in a shared or browser cache (a handler may
          // still say otherwise for a public file).
          reply.header('cache-control', 'no-store');
        } else clearSessionCookie(reply);
        // The page's language (X-Locale) becomes the account's when it changed: every e-mail to
        // the user, sent now or later (a decision, a reminder), speaks the language of the pages
        // they last used, not the one they signed in with. Written only on a change.
        // A request refused here (no access, a HEAD) changes nothing, the language included.
        const refused = accessError(access, request.user);
        const locale = user && !refused && request.method !== 'HEAD' ? pageLocale(request) : null;
        if (!user || !locale || locale === user.locale) return finish(refused);
        user.locale = locale;
        deps.db
          .updateTable('users')
          .set({ locale })
          .where('id', '=', user.id)
          .execute()
          .then(
            () => finish(undefined),
            () => finish(undefined), // the language is a courtesy: the request goes on
          );
      }, done);
    };
    // First of the route's own hooks: a guest gets 401 before any other check (e.g. the socket's Origin).
    route.onRequest = [check, ...hooks];
  });
});

/**
 * The signed-in user of a request outside /api (where the session hook does not run), by the same
 * rules: a suspended or deleted account, or a token older than the last sign-out, is a guest.
 */
export function sessionOf(request: FastifyRequest, deps: AuthDeps): Promise<SessionUser | null> {
  return userOfCookie(request, deps) ?? Promise.resolve(null);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state change must come from our own pages. Browsers say where a request comes from in
 * Sec-Fetch-Site (every current browser); older ones in Origin, then Referer. A request that says
 * none of them is refused too: a page on another site can strip the Referer, and our own client
 * always runs in a browser that sends them (scripts add an Origin header).
 */
export function isSameOrigin(request: FastifyRequest, ourOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const from = request.headers.origin ?? request.headers.referer;
  if (!from) return false;
  let origin: string;
  try {
    origin = new URL(from).origin;
  } catch {
    return false;
  }
  return origin === ourOrigin || origin === `${request.protocol}://${request.host}`;
}

/** Default deny: the error to answer with when the route needs more than the session has. */
function accessError(access: Access, user: SessionUser | null): Error | undefined {
  if (access === 'public') return undefined;
  if (!user) return new Unauthorized();
  if (!hasAccess(access, user.userRoles)) return new Forbidden();
  return undefined;
}

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new Unauthorized();
  return request.user;
}
