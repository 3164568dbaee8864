import type { analyticsApi } from '../../contract/api/analytics.ts';
import type { BodyOf } from '../../contract/api/types.ts';

// Page views go to our own server (no third-party tracker). Plain fetch with keepalive, not the
// shared HTTP client: this runs on every page, so it must not pull the client into first paint,
// and a failed report is never the visitor's problem.

export type PageView = BodyOf<(typeof analyticsApi)['POST /api/analytics/pageview']>;

export function reportPageView(view: PageView): void {
  try {
    void fetch('/api/analytics/pageview', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(view),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // fetch itself can throw (e.g. no network stack in some embedded browsers): ignore.
  }
}
