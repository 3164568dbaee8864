import type { AppDeps } from '../../core/deps.ts';
import { Invalid } from '../../core/errors.ts';
import { WindowLimiter, ipKey } from '../../core/ratelimit.ts';
import { DAY_MS } from '../../core/clock.ts';
import * as repo from './analytics.repository.ts';
import type { PageLocale } from '../../../contract/api/analytics.ts';

// A browser reports one view per route change; 120 a minute per IP is far above a person's pace
// and keeps a script from filling the table.
export const PAGEVIEWS_PER_MINUTE = 120;

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

export class AnalyticsService {
  private readonly deps: AppDeps;
  private readonly limiter: WindowLimiter;
  private readonly counts: repo.PageViewCounts;
  constructor(deps: AppDeps) {
    this.deps = deps;
    this.limiter = new WindowLimiter(deps.clock, PAGEVIEWS_PER_MINUTE, 60_000);
    this.counts = new repo.PageViewCounts(deps.database.reader);
  }

  async record(input: { path: string; locale: PageLocale; referrer?: string | null }, ip: string): Promise<void> {
    const path = cleanPath(input.path);
    this.limiter.hit([`ip:${ipKey(ip)}`]); // an IPv6 subscriber by its /64, as every per-IP limit
    // Only the public site's pages: a dashboard, sign-in, checkout or unsubscribe path names a
    // user, an invoice or a token, and staff's figures are about what visitors read.
    if (PRIVATE_PATH.test(path)) return;
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
   * The last `days` whole UTC days, today the last (the days the staff screen draws), so far as
   * committed: read from the per-day counters, whatever the number of views.
   */
  summary(days: number) {
    const now = this.deps.clock.now();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const sinceDay = new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    return this.counts.summarize(sinceDay, 20);
  }
}
