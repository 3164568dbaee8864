import type { AppDeps } from './core/deps.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { ProfileService } from './modules/profile/profile.service.ts';
import { LocationsService } from './modules/locations/locations.service.ts';
import { MasterService } from './modules/master/master.service.ts';
import { AuditService } from './modules/audit/audit.service.ts';
import { WalletsService } from './modules/wallets/wallets.service.ts';
import { PricingService } from './modules/pricing/pricing.service.ts';
import { AdsService } from './modules/ads/ads.service.ts';
import { ReviewService } from './modules/ads/ads.review.service.ts';
import { AdManageService } from './modules/ads/ads.manage.service.ts';
import { ListingsService } from './modules/listings/listings.service.ts';
import { ReportsService } from './modules/reports/reports.service.ts';
import { AnalyticsService } from './modules/analytics/analytics.service.ts';
import { CronService } from './modules/cron/cron.service.ts';
import { SiteService } from './modules/site/site.service.ts';
import { PaymentsService } from './modules/payments/payments.service.ts';
import { SmsService } from './modules/sms/sms.service.ts';
import { HealthService } from './modules/health/health.service.ts';
import { ModerationService } from './modules/moderation/moderation.service.ts';
import { RealtimeService } from './modules/realtime/realtime.service.ts';

/**
 * Every service, built once per app by buildApp and handed to the route plugins through
 * `deps.services`: one instance owns each module's state (limiters, caches), and a test or a
 * script reaches the same instance the routes use.
 */
export interface Services {
  auth: AuthService;
  profile: ProfileService;
  locations: LocationsService;
  master: MasterService;
  audit: AuditService;
  wallets: WalletsService;
  pricing: PricingService;
  ads: AdsService;
  review: ReviewService;
  adManage: AdManageService;
  listings: ListingsService;
  reports: ReportsService;
  analytics: AnalyticsService;
  cron: CronService;
  site: SiteService;
  payments: PaymentsService;
  sms: SmsService;
  health: HealthService;
  moderation: ModerationService;
  realtime: RealtimeService;
}

export function buildServices(deps: AppDeps): Services {
  return {
    auth: new AuthService(deps),
    profile: new ProfileService(deps),
    locations: new LocationsService(deps),
    master: new MasterService(deps),
    audit: new AuditService(deps),
    wallets: new WalletsService(deps),
    pricing: new PricingService(deps),
    ads: new AdsService(deps),
    review: new ReviewService(deps),
    adManage: new AdManageService(deps),
    listings: new ListingsService(deps),
    reports: new ReportsService(deps),
    analytics: new AnalyticsService(deps),
    cron: new CronService(deps),
    site: new SiteService(deps),
    payments: new PaymentsService(deps),
    sms: new SmsService(deps),
    health: new HealthService(deps),
    moderation: new ModerationService(deps),
    realtime: new RealtimeService(deps),
  };
}
