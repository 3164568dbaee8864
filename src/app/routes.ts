// Every page route of the app (paths without the locale prefix).
export const LISTING_TYPES = [
  { code: 'female_esc', slug: 'female-escorts' },
  { code: 'female_rub', slug: 'female-bodyrubs' },
  { code: 'shemale_esc', slug: 'shemale-escorts' },
] as const;

export const routes = {
  home: '/',
  contactUs: '/contact-us',
  faq: '/faq',
  terms: '/terms',
  agreement: '/agreement',
  aboutUs: '/about-us',
  reportCrime: '/report-crime',
  lawEnforcement: '/law-enforcement',
  /** What we remove, per month (public). */
  transparency: '/transparency',
  listingsUs: '/listings/us',
  listingsState: '/listings/us/:state',
  listingsCity: '/listings/us/:state/:city/:type',
  ad: '/ad/:id',
  search: '/search',
  login: '/auth/login',
  register: '/auth/register',
  confirmEmail: '/auth/confirm-email',
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password',
  unsubscribe: '/unsubscribe',
  /** The sandbox payment provider's checkout; never indexed (contract/seo.ts gives it a noindex head). */
  sandboxCheckout: '/sandbox/checkout/:invoiceId',
  dashboard: '/admin/dashboard',
  createAds: '/admin/dashboard/create-ads',
  myProfile: '/admin/dashboard/my-profile',
  myWallet: '/admin/dashboard/my-wallet',
  myCart: '/admin/dashboard/my-cart',
  myAds: '/admin/dashboard/my-ads',
  adminApprovedAds: '/admin/dashboard/admin/approved-ads',
  adminPendingAds: '/admin/dashboard/admin/pending-ads',
  adminPricing: '/admin/dashboard/admin/pricing',
  adminPromoCodes: '/admin/dashboard/admin/promo-codes',
  adminLocations: '/admin/dashboard/admin/locations',
  adminHealthCheck: '/admin/dashboard/admin/health-check',
  adminCronJobs: '/admin/dashboard/admin/cron-jobs',
  adminSms: '/admin/dashboard/admin/sms',
  adminPaymentServer: '/admin/dashboard/admin/payment-server',
  adminReports: '/admin/dashboard/admin/reports',
  adminAuditLog: '/admin/dashboard/admin/audit-log',
  adminSearchAds: '/admin/dashboard/admin/search-ads',
  adminUser: '/admin/dashboard/admin/users/:id',
  adminScreeningLog: '/admin/dashboard/admin/screening-log',
  adminPageViews: '/admin/dashboard/admin/page-views',
  masterApprovedUsers: '/admin/dashboard/master/approved-users',
  masterPendingUsers: '/admin/dashboard/master/pending-users',
} as const;

/** Fills :params of a route pattern. */
export function pathFor(pattern: string, params: Record<string, string> = {}): string {
  return pattern.replace(/:([a-zA-Z]+)/g, (_, k: string) => encodeURIComponent(params[k] ?? ''));
}
