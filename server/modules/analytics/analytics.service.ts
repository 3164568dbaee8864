import type { AppDeps } from '../../core/deps.ts';
import { Invalid } from '../../core/errors.ts';
import { WindowLimiter } from '../../core/ratelimit.ts';
import { DAY_MS } from '../../core/clock.ts';
import * as repo from './analytics.repository.ts';
import type { PageLocale } from '../../../contract/api/analytics.ts';

// A browser reports one view per route change; 120 a minute per IP is far above a person's pace
// and keeps a script from filling the table.
export const PAGEVIEWS_PER_MINUTE = 120;

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
  constructor(deps: AppDeps) {
    this.deps = deps;
    this.limiter = new WindowLimiter(deps.clock, PAGEVIEWS_PER_MINUTE, 60_000);
  }

  async record(input: { path: string; locale: PageLocale; referrer?: string | null }, ip: string): Promise<void> {
    const path = cleanPath(input.path);
    this.limiter.hit([`ip:${ip}`]);
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

  summary(days: number) {
    const since = new Date(this.deps.clock.now().getTime() - days * DAY_MS).toISOString();
    return repo.summarize(this.deps.db, since, 20);
  }
}
