import { requiredAccess } from '../../core/access.ts';
import { SEO_LISTING_TYPES, SITEMAP_STATIC_PATHS } from '../../../contract/seo.ts';
import { registeredRoutes, splitRoute } from '../routes.ts';
import type { TestUser } from '../harness.ts';
import type { ActorName, World } from './world.ts';
import { Fresh, sampleValid, type Seed, type Target } from './inputs.ts';
import { specs as paymentsSpecs } from './targets-payments.ts';
import { specs as smsSpecs } from './targets-sms.ts';
import { specs as healthSpecs } from './targets-health.ts';
import { specs as moderationSpecs } from './targets-moderation.ts';

// What the fuzzer knows about the routes beyond their schemas: which real rows make a request
// work (an ad of the provider for /api/bump-ad/:id …), and who sends it. A route missing here is
// still fuzzed from its schema alone; a route whose path parameters cannot be filled, or a
// multipart route with no form, fails the "every route has a generator" test.

export interface SeedParts {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  paths?: string[];
  headers?: Record<string, string>;
}

export interface Spec {
  /** Who sends the working request; 'own' is a provider kept for this route alone (its requests may end the session or the account). */
  actor?: ActorName | 'own';
  form?: 'ad' | 'avatar';
  /** A route that takes any body and reads none (its input is the query): no form to build, whatever it consumes. */
  bodyIgnored?: true;
  seed?: (w: World, own: () => Promise<TestUser>) => Promise<SeedParts>;
}

let mails = 0;
const freshEmail = () => new Fresh(() => `fz${++mails}@example.com`);
const MESSAGE = 'This advert looks wrong to me; sent by the input fuzzer.';

const SPECS: Record<string, Spec> = {
  ...paymentsSpecs,
  ...smsSpecs,
  ...healthSpecs,
  ...moderationSpecs,
  // auth and profile
  'POST /api/register': {
    seed: async () => ({ body: { email: freshEmail(), password: 'correct horse battery', nickname: new Fresh(() => `fz_r${++mails}`) } }),
  },
  'POST /api/login': {
    actor: 'guest',
    seed: async (_w, own) => {
      const u = await own();
      return { body: { email: u.email, password: u.password } };
    },
  },
  'POST /api/logout': { actor: 'own' },
  'GET /api/logout': { actor: 'own' },
  'POST /api/password-update': {
    actor: 'own',
    seed: async (_w, own) => ({ body: { currentPassword: (await own()).password, newPassword: (await own()).password } }),
  },
  'POST /api/email-reset': { actor: 'own', seed: async (_w, own) => ({ body: { newEmail: freshEmail(), password: (await own()).password } }) },
  'POST /api/confirm-email-reset': { seed: async (w) => ({ body: { token: await w.fx.emailToken() } }) },
  'POST /api/password-reset-request': { actor: 'guest', seed: async () => ({ body: { email: freshEmail() } }) },
  'POST /api/password-reset': { actor: 'guest', seed: async (w) => ({ body: { token: await w.fx.resetToken(), newPassword: 'a fuzzed new passphrase' } }) },
  'DELETE /api/delete-my-profile': { actor: 'own', seed: async (_w, own) => ({ query: { confirm: true }, body: { password: (await own()).password } }) },
  'POST /api/nickname-update': { seed: async () => ({ body: { nickname: 'fuzz_nick' } }) },
  'POST /api/avatar-update': { form: 'avatar' },
  // One-click unsubscribe (RFC 8058): mail clients post a form of their own; the signed query decides.
  'POST /api/unsubscribe': { actor: 'guest', bodyIgnored: true },
  // locations
  'GET /api/cities-from-state/:stateId': { seed: async () => ({ params: { stateId: 'ny' } }) },
  'GET /sitemaps/:file': { actor: 'guest', seed: async () => ({ params: { file: 'pages-1.xml' } }) },
  'GET /api/admin/get-cities-by-state': { seed: async () => ({ query: { stateId: 'ny' } }) },
  'POST /api/admin/set-status-state-cities': { seed: async (w) => ({ body: { stateId: 'wy', cityIds: [w.fx.place('wy').cityId], enabled: true } }) },
  // master
  'POST /api/master/update-user-roles': { seed: async (w) => ({ body: { userId: await w.fx.victimId(), roles: ['PROVIDER_USER'] } }) },
  'POST /api/master/update-user-status': { seed: async (w) => ({ body: { userId: await w.fx.victimId(), status: 'approved' } }) },
  // the socket: answered 426 to a plain GET from our own origin
  'GET /api/ws': { seed: async (w) => ({ headers: { origin: w.ctx.config.publicUrl } }) },
  // wallets and pricing
  'POST /api/add-promo-code-to-promo-wallet': { seed: async (w) => ({ body: { code: (await w.fx.promoCode('redeem')).code } }) },
  'POST /api/admin/set-price-by-id': { seed: async (w) => ({ body: { id: w.fx.pricingId(), priceCents: 1500, durationDays: 30 } }) },
  'POST /api/admin/set-promo-code-by-id': {
    seed: async (w) => {
      const p = await w.fx.promoCode('admin');
      return { body: { id: p.id, code: p.code, amountCents: 100, maxUses: 1_000_000, active: true, expiresAt: null } };
    },
  },
  // ads
  'POST /api/post-ad': { form: 'ad' },
  'PUT /api/ads/:id': { form: 'ad', seed: async (w) => ({ params: { id: await w.fx.ad('edit', 'provider', 'unpaid') } }) },
  'PUT /api/renew-ad/:id': {
    seed: async (w) => ({ params: { id: await w.fx.ad('renew', 'provider', 'live') }, body: { walletId: await w.fx.usdWallet(await w.actor('provider')) } }),
  },
  'DELETE /api/ads/:id': { seed: async (w) => ({ params: { id: await w.fx.ad('ad-delete', 'provider', 'unpaid') } }) },
  'DELETE /api/delete-cart-ad/:id': { seed: async (w) => ({ params: { id: await w.fx.ad('cart-delete', 'provider', 'unpaid') } }) },
  'PUT /api/ad-payment-in-cart/:id': {
    seed: async (w) => ({
      params: { id: await w.fx.ad('cart-pay', 'provider', 'unpaid') },
      body: { walletId: await w.fx.usdWallet(await w.actor('provider')) },
    }),
  },
  'PUT /api/bump-ad/:id': {
    seed: async (w) => ({ params: { id: await w.fx.ad('bump', 'provider', 'live') }, body: { walletId: await w.fx.usdWallet(await w.actor('provider')) } }),
  },
  'PUT /api/update-ad-online-status/:id': { seed: async (w) => ({ params: { id: await w.fx.ad('online', 'provider', 'live') }, body: { online: true } }) },
  'PUT /api/update-ad-location/:id': {
    seed: async (w) => ({ params: { id: await w.fx.ad('move', 'provider', 'live') }, body: { stateId: 'ny', cityId: w.fx.place('ny').cityId } }),
  },
  'POST /api/admin/approve-pending-ads': { seed: async (w) => ({ body: { adIds: [await w.fx.ad('review', 'provider', 'in_review')], decision: 'approve' } }) },
  'POST /api/admin/set-status-approved-ads': { seed: async (w) => ({ body: { adIds: [await w.fx.ad('staff', 'provider', 'live')], status: 'approved' } }) },
  // listings
  'GET /api/search': { seed: async () => ({ query: { query: 'companion' } }) },
  'GET /api/listings': { seed: async (w) => ({ query: { state: w.fx.place('ny').stateSlug } }) },
  'GET /api/ads/:id': { seed: async (w) => ({ params: { id: await w.fx.ad('public', 'provider', 'live') } }) },
  'GET /api/users-ads-aggregate/us/:listingType': { seed: async () => ({ params: { listingType: 'female_esc' } }) },
  'GET /api/users-ads-aggregate/us/:listingType/states': { seed: async () => ({ params: { listingType: 'female_esc' } }) },
  'POST /api/report-ad/:id': {
    seed: async (w) => ({ params: { id: await w.fx.ad('public', 'provider', 'live') }, body: { message: MESSAGE, contact: 'fuzz@example.com' } }),
  },
  // reports, analytics, cron
  'POST /api/reports': { seed: async () => ({ body: { kind: 'contact', message: MESSAGE, contact: 'fuzz@example.com' } }) },
  'POST /api/admin/set-report-status': { seed: async (w) => ({ body: { id: await w.fx.reportId(), status: 'closed' } }) },
  'POST /api/analytics/pageview': { seed: async () => ({ body: { path: '/listings/us', locale: 'en', referrer: null } }) },
  'DELETE /api/admin/delete-cron-job-status-by-id/:id': { seed: async (w) => ({ params: { id: String(await w.fx.cronRunId()) } }) },
  // pages and files
  'GET /*': {
    seed: async (w) => {
      const ny = w.fx.place('ny');
      const ad = await w.fx.ad('public', 'provider', 'live');
      return {
        paths: [
          ...SITEMAP_STATIC_PATHS,
          `/listings/us/${ny.stateSlug}`,
          ...SEO_LISTING_TYPES.map((t) => `/listings/us/${ny.stateSlug}/${ny.citySlug}/${t.slug}`),
          `/ad/${ad}`,
          '/es/faq',
          '/pt/listings/us',
          '/admin/dashboard/my-wallet',
        ],
      };
    },
  },
  'GET /uploads/*': { seed: async (w) => ({ params: { '*': await w.fx.uploadPath() } }) },
};

/** Path parameters any route may name, and a working value for each. */
const GENERIC_PARAMS: Record<string, string> = { stateId: 'ny', listingType: 'female_esc' };

/**
 * Refused requests that may write, on purpose. Each entry says why; anything else a refused
 * request writes is a failure.
 */
export const REFUSAL_WRITES: { route: string; tables: string[]; status: number; why: string }[] = [
  {
    route: 'POST /api/post-ad',
    tables: ['screening_log', 'ad_post_log'],
    status: 400,
    why: "ads refused by screening are logged for staff (GET /api/admin/get-screening-log) and use their day's post (PRODUCT §11: posts counted whatever became of them), by design (ads.service.ts)",
  },
  {
    route: 'PUT /api/ads/:id',
    tables: ['screening_log'],
    status: 400,
    why: 'edits refused by screening are logged for staff too, by design (ads.manage.service.ts)',
  },
  {
    route: 'POST /api/login',
    tables: ['sign_ins'],
    status: 401,
    why: 'a wrong password for an existing account is a sign-in record staff read on the user page (issue #14, auth.service.ts)',
  },
  {
    route: 'POST /api/login',
    tables: ['sign_ins'],
    status: 403,
    why: 'a suspended account signing in is a sign-in record staff read on the user page (issue #14, auth.service.ts)',
  },
];

function specOf(route: string): Spec | undefined {
  if (SPECS[route]) return SPECS[route];
  if (route.startsWith('HEAD ')) return SPECS[`GET ${route.slice(5)}`];
  return undefined;
}

export function buildTargets(w: World): Target[] {
  return registeredRoutes(w.ctx.app, { withHead: true }).map((route) => {
    const { method, url: pattern } = splitRoute(route);
    const schema = w.schemas.get(route) ?? (method === 'HEAD' ? w.schemas.get(`GET ${pattern}`) : undefined) ?? null;
    const paramNames = [...pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    if (pattern.includes('*')) paramNames.push('*');
    const kind: Target['kind'] =
      pattern === '/*' ? 'page' : pattern.startsWith('/uploads/') ? 'uploads' : pattern === '/api/ws' ? 'ws' : !pattern.startsWith('/api') ? 'static' : 'api';
    return { route, method, pattern, schema, access: requiredAccess(method, pattern), kind, form: specOf(route)?.form ?? null, paramNames };
  });
}

/** Why the fuzzer cannot build a working request for a route (null when it can). */
export function noGenerator(t: Target, w: World): string | null {
  if (!w.schemas.has(t.route) && !(t.method === 'HEAD' && w.schemas.has(`GET ${t.pattern}`))) {
    return 'the route is not registered by any module in server/modules/index.ts, so its schema cannot be read';
  }
  const spec = specOf(t.route);
  const consumes = t.schema?.consumes ?? [];
  if (consumes.some((c) => c.startsWith('multipart/')) && !spec?.form && !spec?.bodyIgnored)
    return 'a multipart route with no form: add it to SPECS in server/test/fuzz/targets.ts with form';
  const unfilled = t.paramNames.filter(
    (p) => !(p in GENERIC_PARAMS) && !(p === '*' && (t.kind === 'page' || t.kind === 'uploads' || spec?.seed)) && !spec?.seed,
  );
  if (unfilled.length) return `no value for path parameter(s) ${unfilled.map((p) => `:${p}`).join(', ')}: add a seed to SPECS in server/test/fuzz/targets.ts`;
  return null;
}

const mainActor = (t: Target): ActorName => (t.access === 'public' ? 'guest' : t.access === 'user' ? 'provider' : t.access === 'admin' ? 'admin' : 'master');

/**
 * The route's working request, from the current rows. The rows it names (`parts`) are made once
 * per batch: within a batch an input may use them up (pay the ad, confirm the token), and the
 * inputs after it meet the service's refusal, which is as good an input. The sessions are checked
 * again after every change, since an input may have ended one (logout, password change).
 */
export async function resolveSeed(t: Target, w: World, reuse?: SeedParts): Promise<{ seed: Seed; parts: SeedParts }> {
  const spec = specOf(t.route);
  const ownKey = `own:${t.route.replace(/^HEAD /, 'GET ')}`;
  const own = () => w.actor(ownKey);
  const parts: SeedParts = reuse ?? (spec?.seed ? await spec.seed(w, own) : {});
  const actorKey = spec?.actor === 'own' ? ownKey : (spec?.actor ?? mainActor(t));
  const cookies: Record<string, string | null> = { guest: null };
  for (const a of ['provider', 'admin', 'master'] as const) cookies[a] = (await w.actor(a)).cookie;
  if (actorKey.startsWith('own:')) cookies[actorKey] = (await own()).cookie;

  const params: Record<string, string> = {};
  for (const p of t.paramNames) {
    const v = parts.params?.[p] ?? GENERIC_PARAMS[p];
    if (v === undefined && !(p === '*' && parts.paths?.length))
      throw new Error(`fuzz: no value for :${p} of ${t.route}: give its seed params in server/test/fuzz/targets.ts`);
    if (v !== undefined) params[p] = v;
  }
  const query: Record<string, unknown> = {};
  const qs = t.schema?.querystring;
  for (const k of qs?.required ?? []) query[k] = sampleValid(qs?.properties?.[k]);
  Object.assign(query, parts.query);
  let body: Record<string, unknown> | null = null;
  if (t.schema?.body) body = { ...(sampleValid(t.schema.body) as Record<string, unknown>), ...parts.body };
  else if (parts.body) body = parts.body;

  let form = null;
  if (t.form === 'ad') {
    form = [
      ...Object.entries(w.fx.adFields(w.fx.place('ny'))).map(([name, data]) => ({ name, data })),
      { name: 'photos', filename: 'photo.jpg', contentType: 'image/jpeg', data: w.images.jpeg },
    ];
  } else if (t.form === 'avatar') {
    form = [{ name: 'avatar', filename: 'me.png', contentType: 'image/png', data: w.images.png }];
  }
  const seed: Seed = { params, query, body, form, paths: parts.paths ?? [], actor: actorKey, cookies, images: w.images, headers: parts.headers ?? {} };
  return { seed, parts };
}

/** Which actor sends a route's inputs, for the report. */
export function actorOf(t: Target): string {
  const spec = specOf(t.route);
  return spec?.actor === 'own' ? 'own provider' : (spec?.actor ?? mainActor(t));
}
