import { createHmac, randomBytes } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { Invalid, TooManyRequests } from '../../core/errors.ts';
import { WindowLimiter, ipKey } from '../../core/ratelimit.ts';
import { DAY_MS } from '../../core/clock.ts';
import type { SessionUser } from '../../core/auth.ts';
import { hasStaffRole } from '../../core/policy.ts';
import * as repo from './analytics.repository.ts';
import { SeenViews, adOfPath, isCrawler } from './analytics.counting.ts';
import type { PageLocale } from '../../../contract/api/analytics.ts';

// A browser reports one view per route change; 120 a minute per viewer is far above a person's
// pace and keeps a script from filling the table. An address gets 600: a carrier's NAT puts many
// phones behind one, and a script that changes its user agent at each beacon is still held there
// (the app-wide ceiling on /api is 1200 a minute per IP anyway).
export const PAGEVIEWS_PER_MINUTE = 120;
export const PAGEVIEWS_PER_IP_PER_MINUTE = 600;

/** Paths of the private side (in any language): not recorded. */
const PRIVATE_PATH = /^(\/(es|pt))?\/(admin|auth|sandbox|unsubscribe)(\/|$)/;

/** Only the path is kept: query strings may hold search words, and hashes are client state. */
export function cleanPath(raw: string): string {
  const path = raw.split(/[?#]/)[0];
  if (!path.startsWith('/') || path.startsWith('//')) throw new Invalid('path', 'analytics.path_invalid');
  return path.length > 300 ? path.slice(0, 300) : path;
}

/** The referrer's host only (no path, which can carry personal data); null when absent or not a URL. */
export function referrerHost(raw: string | undefined | null): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw);
    return /^https?:$/.test(u.protocol) ? u.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * The first moment (ISO, 00:00Z) of the last `days` whole UTC days, today the last: the days the
 * staff screen draws and the owner's my-ads figures count, so both say the same of an ad.
 */
export function sinceUtcDays(now: Date, days: number): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS).toISOString();
}

/** Who posted a beacon: the IP, the user agent (the two name the viewer), the signed-in user if any. */
export interface Viewer {
  ip: string;
  userAgent: string | undefined;
  user: SessionUser | null;
}

export class AnalyticsService {
  private readonly deps: AppDeps;
  private readonly perViewer: WindowLimiter;
  private readonly perIp: WindowLimiter;
  private readonly counts: repo.PageViewCounts;
  private readonly seen: SeenViews;
  /** The key of viewerKey's HMAC: random per process, never stored, so a key names nobody outside it. */
  private readonly viewerSecret = randomBytes(32);
  constructor(deps: AppDeps) {
    this.deps = deps;
    this.perViewer = new WindowLimiter(deps.clock, PAGEVIEWS_PER_MINUTE, 60_000);
    this.perIp = new WindowLimiter(deps.clock, PAGEVIEWS_PER_IP_PER_MINUTE, 60_000);
    this.counts = new repo.PageViewCounts(deps.database.reader);
    this.seen = new SeenViews(deps.clock);
  }

  /**
   * Records a visitor's view (analytics.counting.ts says which count): once per viewer and path
   * within VIEW_WINDOW_MS, never a crawler's, never the ad's owner's or staff's view of an ad page.
   */
  async record(input: { path: string; locale: PageLocale; referrer?: string | null }, viewer: Viewer): Promise<void> {
    const path = cleanPath(input.path);
    const ip = ipKey(viewer.ip); // an IPv6 subscriber by its /64, as every per-IP limit
    const who = this.viewerKey(ip, viewer.userAgent);
    // Both checked before either counts, so a refusal costs no allowance.
    if (this.perIp.full([ip]) || this.perViewer.full([who])) throw new TooManyRequests();
    this.perIp.count([ip]);
    this.perViewer.count([who]);
    // Only the public site's pages: a dashboard, sign-in, checkout or unsubscribe path names a
    // user, an invoice or a token, and staff's figures are about what visitors read.
    if (PRIVATE_PATH.test(path)) return;
    if (isCrawler(viewer.userAgent)) return;
    // The owner checking their ad and staff reviewing it are not visitors. Asked only of a signed-in
    // user on an ad page (one read by the primary key): a guest's beacon reads nothing.
    const adId = adOfPath(path);
    const user = viewer.user;
    if (adId && user && (hasStaffRole(user.userRoles) || (await repo.ownerOfAd(this.deps.db, adId)) === user.id)) return;
    // Last, and synchronous from the check to the mark: of two beacons racing, one counts; of an
    // address's viewers of the path, VIEWERS_PER_ADDRESS count (a script rotating its user agent).
    if (!this.seen.first(who, path, this.addressKey(ip))) return;
    const host = referrerHost(input.referrer);
    // A view that comes from one of our own pages is not a referral.
    const own = referrerHost(this.deps.config.publicUrl);
    await repo.insertPageView(this.deps.db, {
      path,
      locale: input.locale,
      referrerHost: host && host !== own ? host : null,
      at: this.deps.clock.now().toISOString(),
    });
  }

  /**
   * The viewer, for the views counted and the per-viewer limit: the address's key (ipKey) and the
   * user agent together, so that the phones behind one carrier address (a hotel's Wi-Fi, an
   * office) count as the people they are. The beacon carries no id of its own (a guest's only
   * cookie, the age confirmation, is the same for everyone). A keyed hash, kept in memory only:
   * what remembers the views holds neither the IP nor the user agent. Two people on one address
   * with the very same browser and version still count once within the window: fewer views,
   * never more. A script picks its user agent, so an address's viewers of one path are capped
   * (VIEWERS_PER_ADDRESS, analytics.counting.ts).
   */
  private viewerKey(ip: string, userAgent: string | undefined): string {
    return this.keyed(`${ip}\n${userAgent ?? ''}`);
  }

  /** The address alone, which the viewers counted per path are capped by: keyed like the viewer, for the same reason. */
  private addressKey(ip: string): string {
    return this.keyed(`address\n${ip}`);
  }

  private keyed(text: string): string {
    return createHmac('sha256', this.viewerSecret).update(text).digest('base64url').slice(0, 22); // 132 bits: two sharing one is out of reach
  }

  /**
   * The last `days` whole UTC days, today the last (the days the staff screen draws), so far as
   * committed: read from the per-day counters, whatever the number of views.
   */
  summary(days: number) {
    const now = this.deps.clock.now();
    return { today: now.toISOString().slice(0, 10), ...this.counts.summarize(sinceUtcDays(now, days).slice(0, 10), 20) };
  }
}
