import type { Role } from './schema.ts';
import { hasStaffRole } from './policy.ts';

/**
 * Default deny: every /api route needs a signed-in user unless it is listed here.
 * /api/admin/* needs ADMIN_USER or MASTER_USER, /api/master/* needs MASTER_USER.
 * Keys are "METHOD /route/pattern" exactly as registered.
 */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/register',
  'POST /api/login',
  'GET /api/session',
  'GET /api/logout',
  'POST /api/logout',
  'POST /api/confirm-email-reset',
  'POST /api/password-reset-request',
  'POST /api/password-reset',
  'GET /api/unsubscribe',
  'POST /api/unsubscribe',
  'GET /api/states-from-country',
  'GET /api/cities-from-state/:stateId',
  'GET /api/get-ad-pricing',
  'GET /api/get-bump-pricing',
  'GET /api/users-ads-aggregate/us/:listingType',
  'GET /api/users-ads-aggregate/us/:listingType/states',
  'GET /api/listings',
  'GET /api/ads/:id',
  'GET /api/search',
  'GET /api/home',
  'POST /api/report-ad/:id',
  'POST /api/reports',
  'POST /api/analytics/pageview',
  // BTCPay Server calls it; the signature is the authentication.
  'POST /api/webhooks/btcpay',
  'GET /api/payment-provider',
  // Uptime monitors and load balancers: ok or not, no details.
  'GET /api/health',
  // What we remove, per month (counts only).
  'GET /api/transparency',
]);

/** Staff-only routes outside /api/admin/ (their paths are fixed by convention or the seed). */
export const STAFF_ROUTES: ReadonlySet<string> = new Set(['GET /api/docs']);

export type Access = 'public' | 'user' | 'admin' | 'master';

export function requiredAccess(method: string, routeUrl: string): Access {
  if (method === 'HEAD') method = 'GET'; // HEAD is GET without the body: the same access
  if (!routeUrl.startsWith('/api/') && routeUrl !== '/api') return 'public'; // pages, assets, sitemap
  if (routeUrl.startsWith('/api/admin/')) return 'admin';
  if (routeUrl.startsWith('/api/master/')) return 'master';
  if (PUBLIC_ROUTES.has(`${method} ${routeUrl}`)) return 'public';
  if (STAFF_ROUTES.has(`${method} ${routeUrl}`)) return 'admin';
  return 'user';
}

export function hasAccess(access: Access, roles: readonly Role[]): boolean {
  switch (access) {
    case 'public':
      return true;
    case 'user':
      return roles.includes('PROVIDER_USER');
    case 'admin':
      return hasStaffRole(roles);
    case 'master':
      return roles.includes('MASTER_USER');
  }
}
